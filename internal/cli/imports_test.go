package cli

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The layout rules are checked, not hoped for: one package owns each heavy
// dependency.
func TestImportRules(t *testing.T) {
	owners := map[string]string{
		"modernc.org/sqlite":          "internal/sqlitedb",
		"github.com/go-git/go-git/v5": "internal/gitrepo",
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
			if strings.HasSuffix(path, "/util") || strings.HasSuffix(path, "/common") {
				t.Errorf("%s imports a grab-bag package %s", p, path)
			}
		}
		return nil
	})
}
