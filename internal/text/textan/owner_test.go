package textan

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyTextanStems: one analyser in fact, not in a doc comment. Every
// other package tokenises, folds and stems through textan, so none of
// them may import the Snowball stemmer itself (tests included: a test
// stemming on its own checks another analyser than the one shipped).
func TestOnlyTextanStems(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found from %s: %v", root, err)
	}
	checked := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Errorf("parse %s: %v", p, err)
			return nil
		}
		checked++
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(path, "github.com/kljensen/snowball") && filepath.ToSlash(rel) != "internal/text/textan" {
				t.Errorf("%s imports %s; only internal/text/textan may stem", p, path)
			}
		}
		return nil
	})
	if checked < 100 {
		t.Fatalf("checked %d Go files: the walk did not reach the repository", checked)
	}
}
