package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The layout rules are checked, not hoped for: one package owns each heavy
// dependency, no front end but memhook's main reaches memory through
// the command line (the MCP server and the web app go through
// internal/factory), and search reads no settings of its own.
func TestImportRules(t *testing.T) {
	owners := map[string]string{
		"modernc.org/sqlite":          "internal/store/sqlitedb",
		"github.com/go-git/go-git/v5": "internal/store/gitrepo",
		"github.com/spf13/cobra":      "internal/cli",
		"github.com/spf13/pflag":      "internal/cli",
	}
	root := filepath.Join("..", "..")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Errorf("parse %s: %v", p, err)
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			for dep, owner := range owners {
				if (path == dep || strings.HasPrefix(path, dep+"/")) && rel != owner && !strings.HasPrefix(rel, "e2e") {
					t.Errorf("%s imports %s; only %s may", p, path, owner)
				}
			}
			// search takes plain values: the composition root
			// (internal/factory) reads the settings and the registry
			if rel == "internal/search" && (path == "github.com/cerebro-mem/cerebro/internal/config" ||
				path == "github.com/cerebro-mem/cerebro/internal/project" || path == "github.com/cerebro-mem/cerebro/internal/registry") {
				t.Errorf("%s imports %s; internal/search takes plain values from internal/factory", p, path)
			}
			if path == "github.com/cerebro-mem/cerebro/internal/cli" && rel != "cmd/memhook" && !strings.HasSuffix(p, "_test.go") {
				t.Errorf("%s imports internal/cli; open memory through internal/factory", p)
			}
			// Our packages are named for what they provide; a library's
			// own layout (goldmark/util) is not ours to name.
			if strings.HasPrefix(path, "github.com/cerebro-mem/cerebro/") && (strings.HasSuffix(path, "/util") || strings.HasSuffix(path, "/common")) {
				t.Errorf("%s imports a grab-bag package %s", p, path)
			}
		}
		return nil
	})
}

// TestLevelsImportNoOtherLevel: the memory levels — short-term, long-term,
// org — stand side by side on a ground floor of the formats they all read
// (the journal, plan-fact, the registry, CORE's template, wiki pages, lint
// findings). A level's code imports no other level's folder and the ground
// floor imports no level, so a format changes in one place and no import
// between levels can point up or close a loop. Tests may reach another
// level for real parts (inject's tests build real roll-ups).
func TestLevelsImportNoOtherLevel(t *testing.T) {
	const module = "github.com/cerebro-mem/cerebro/"
	levels := []string{"internal/shortterm", "internal/longterm", "internal/org"}
	ground := []string{"internal/journal", "internal/planfact", "internal/registry", "internal/corefile", "internal/wiki", "internal/lint", "internal/hint"}
	under := func(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }
	root := filepath.Join("..", "..")
	for _, dir := range append(levels, ground...) {
		files := 0
		filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir)), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
			if err != nil {
				t.Errorf("parse %s: %v", p, err)
				return nil
			}
			files++
			for _, imp := range f.Imports {
				pkg := strings.TrimPrefix(strings.Trim(imp.Path.Value, `"`), module)
				for _, level := range levels {
					if under(pkg, level) && level != dir {
						t.Errorf("%s imports %s, a package of %s: move what both read to the ground floor", p, pkg, level)
					}
				}
			}
			return nil
		})
		if files == 0 {
			t.Errorf("%s holds no Go file: the test lists a folder that moved", dir)
		}
	}
}

// TestShortTermOwnsTheLifecycle: internal/shortterm takes everything as
// plain values (no cli, no cobra, no environment read inside), and only
// shortterm builds the SessionStart inject, so the lifecycle has one
// owner.
func TestShortTermOwnsTheLifecycle(t *testing.T) {
	root := filepath.Join("..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "internal", "shortterm", "*.go"))
	capture, _ := filepath.Glob(filepath.Join(root, "internal", "shortterm", "capture", "*.go"))
	files = append(files, capture...)
	if len(files) == 0 {
		t.Fatal("internal/shortterm not found")
	}
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", p, err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); strings.HasSuffix(path, "/internal/cli") || strings.Contains(path, "spf13/") {
				t.Errorf("%s imports %s", p, path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "Environ" || sel.Sel.Name == "LookupEnv") {
					t.Errorf("%s reads the environment (os.%s): take it as a field of Memory", p, sel.Sel.Name)
				}
			}
			return true
		})
	}
	cli, _ := filepath.Glob("*.go")
	for _, p := range cli {
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parse %s: %v", p, err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); strings.HasSuffix(path, "/internal/shortterm/inject") && !strings.HasSuffix(p, "_test.go") {
				t.Errorf("%s imports %s: the inject is shortterm's (SessionStart)", p, path)
			}
		}
	}
}

// TestHotBinaryLinksLittle: memhook-hot exists to start fast, which it
// does only while it links none of memhook's heavy packages; an import
// added anywhere under it would quietly bring back their start-up cost.
func TestHotBinaryLinksLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/memhook-hot").Output()
	if err != nil {
		t.Fatal(err)
	}
	heavy := []string{"modernc.org/", "github.com/go-git/", "github.com/spf13/", "net/http", "github.com/ProtonMail/", "github.com/adrg/frontmatter", "gopkg.in/yaml",
		"github.com/cerebro-mem/cerebro/internal/shortterm\n", "github.com/cerebro-mem/cerebro/internal/cli\n",
		"github.com/cerebro-mem/cerebro/internal/search\n", "github.com/cerebro-mem/cerebro/internal/shortterm/distill\n"}
	deps := string(out)
	for _, h := range heavy {
		if strings.Contains(deps, h) {
			t.Errorf("memhook-hot links %s", strings.TrimSpace(h))
		}
	}
	if !strings.Contains(deps, "github.com/cerebro-mem/cerebro/internal/shortterm/capture\n") {
		t.Error("memhook-hot does not link the capture package: the test lists the wrong command")
	}
}
