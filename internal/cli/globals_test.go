package cli

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// No package sets another's exported variable: a setting travels in a
// value from the configuration to the call. A limit kept in a package
// variable and set by whichever project loaded last once read every
// project of a night --all with one project's limits, and kept the tests
// from running in parallel.
func TestNoExportedGlobalIsSetFromOutside(t *testing.T) {
	t.Parallel()
	found, err := assignedGlobals(filepath.Join("..", ".."), "github.com/cerebro-mem/cerebro")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: set outside its package; pass the value to the call instead", f)
	}
}

// The check finds what it is for, in a module written here: an assignment,
// an increment, an element of a map and an address taken from outside the
// package, and nothing for the package's own writes, a local that shadows
// the import, or a read.
func TestAssignedGlobalsFindsPlantedWrites(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		"a/a.go": `package a

var Limit int64 = 1
var Policy = map[string]int{}
var hidden = 2

func Set() { Limit = 3; hidden++ }
`,
		"a/a_test.go": `package a

func reset() { Limit = 1 }
`,
		"b/b.go": `package b

import "example.org/m/a"

func f() { a.Limit = 5 }

func g() int {
	a := struct{ Limit int }{}
	a.Limit = 1
	return a.Limit
}

func h() int64 { return a.Limit }
`,
		"c/c.go": `package c

import al "example.org/m/a"

func k() *int64 {
	al.Limit++
	al.Policy["x"] = 1
	return &al.Limit
}
`,
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := assignedGlobals(root, "example.org/m")
	if err != nil {
		t.Fatal(err)
	}
	for i := range found {
		found[i] = filepath.ToSlash(found[i])
	}
	want := []string{"b/b.go:5: a.Limit", "c/c.go:6: a.Limit", "c/c.go:7: a.Policy", "c/c.go:8: a.Limit"}
	if !slices.Equal(found, want) {
		t.Fatalf("found\n%s\nwant\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
}

// assignedGlobals parses the Go files of the module at root (module path
// mod) and lists, as "file:line: pkg.Var" relative to root, every write to
// an exported package-level variable of the module from outside the
// package that declares it: an assignment, ++ or --, a range variable, or
// its address taken (which lets the writer go on writing). A write into the
// variable (an element, a field) counts as a write to it. An external test
// package (pkg_test) is outside pkg.
func assignedGlobals(root, mod string) ([]string, error) {
	type file struct {
		path, pkg string // pkg: the import path of the package it belongs to
		ast       *ast.File
	}
	fset := token.NewFileSet()
	var files []file
	vars := map[string]map[string]bool{} // import path → exported variables
	names := map[string]string{}         // import path → package name
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return fmt.Errorf("parse %s: %w", p, err)
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := mod
		if rel != "." {
			pkg = mod + "/" + filepath.ToSlash(rel)
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			pkg += "_test"
		} else if !strings.HasSuffix(p, "_test.go") {
			names[pkg] = f.Name.Name
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, spec := range g.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						if n.IsExported() {
							if vars[pkg] == nil {
								vars[pkg] = map[string]bool{}
							}
							vars[pkg][n.Name] = true
						}
					}
				}
			}
		}
		files = append(files, file{path: p, pkg: pkg, ast: f})
		return nil
	})
	if err != nil {
		return nil, err
	}
	var found []string
	for _, f := range files {
		imports := map[string]string{} // name in this file → import path
		for _, imp := range f.ast.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			name, ok := names[path]
			if !ok {
				continue // not the module's, or no variables to guard
			}
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = path
		}
		check := func(e ast.Expr) {
			for {
				switch x := e.(type) {
				case *ast.SelectorExpr:
					// A name the parser resolved is a local, not the import.
					if id, ok := x.X.(*ast.Ident); ok && id.Obj == nil {
						if path, ok := imports[id.Name]; ok && path != f.pkg && vars[path][x.Sel.Name] {
							rel, _ := filepath.Rel(root, f.path)
							found = append(found, fmt.Sprintf("%s:%d: %s.%s", rel, fset.Position(x.Pos()).Line, names[path], x.Sel.Name))
							return
						}
					}
					e = x.X
				case *ast.IndexExpr:
					e = x.X
				case *ast.IndexListExpr:
					e = x.X
				case *ast.StarExpr:
					e = x.X
				case *ast.ParenExpr:
					e = x.X
				default:
					return
				}
			}
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					for _, l := range s.Lhs {
						check(l)
					}
				}
			case *ast.IncDecStmt:
				check(s.X)
			case *ast.RangeStmt:
				if s.Tok == token.ASSIGN {
					for _, l := range []ast.Expr{s.Key, s.Value} {
						if l != nil {
							check(l)
						}
					}
				}
			case *ast.UnaryExpr:
				if s.Op == token.AND {
					check(s.X)
				}
			}
			return true
		})
	}
	slices.Sort(found)
	return found, nil
}
