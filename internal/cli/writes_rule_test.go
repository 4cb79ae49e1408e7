package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every write under a memory root (a project's .claude, the desk, the
// state dir) goes through the safe file layer, which refuses a link in any
// component (issue #27: a planted .claude or memory_long link once got
// folders made in $HOME). The rule is checked on the source: a direct os
// call that writes is allowed only in the files below, each for its reason.
func TestWritesGoThroughSafefs(t *testing.T) {
	writes := map[string]bool{
		"MkdirAll": true, "Mkdir": true, "WriteFile": true, "Rename": true, "OpenFile": true,
		"Create": true, "Truncate": true, "Chmod": true, "Remove": true, "RemoveAll": true, "Symlink": true,
	}
	allowed := map[string]string{
		"internal/store/safefs":                  "the layer itself",
		"internal/testfile":                      "test fixtures, in temp dirs",
		"internal/shortcmd/shortcmd.go":          "installs the slash commands into the user's own ~/.claude/commands",
		"internal/doctor/mcp.go":                 "a throwaway state dir of its own",
		"internal/org/schedule/executor.go":      "the user's launchd or systemd unit, outside every memory root",
		"internal/skills/evolve/decide.go":       "a skill candidate's folder under the user's skills",
		"internal/shortterm/importer/sandbox.go": "a dry run's throwaway folder of its own, in the temporary folder",
		"internal/shortterm/importer/importtest": "test fixtures: transcripts laid out in temp dirs",
	}
	root := filepath.Join("..", "..")
	base := filepath.Join(root, "internal")
	var bad []string
	filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if _, ok := allowed[rel]; ok {
			return nil
		}
		if _, ok := allowed[filepath.ToSlash(filepath.Dir(rel))]; ok {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Errorf("parse %s: %v", p, err)
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" && writes[sel.Sel.Name] {
				bad = append(bad, fset.Position(call.Pos()).String()+": os."+sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	for _, b := range bad {
		t.Errorf("%s writes around the safe file layer (use safefs, or name the file and why in this test)", b)
	}
}
