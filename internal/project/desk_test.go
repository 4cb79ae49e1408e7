package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// The desk's own Q1 memory and the rollup's service files share one folder:
// the layout of the desk-as-project must land exactly there.
func TestDeskMemoryCoexistsWithRollupFiles(t *testing.T) {
	home := t.TempDir()
	// The home folder is itself a repository (dotfiles), so plain Root would
	// give the whole home to sessions run in the desk.
	os.MkdirAll(filepath.Join(home, ".git"), 0o755)
	paths := config.ResolvePaths(func(k string) string {
		return map[string]string{"HOME": home, "CEREBRO_STATE_DIR": filepath.Join(home, "state")}[k]
	})
	sub := filepath.Join(paths.Home, "wiki", "cases")
	os.MkdirAll(sub, 0o755)
	os.MkdirAll(filepath.Dir(paths.Registry()), 0o755)
	if r, _ := Root(sub); r != home {
		t.Fatalf("setup: Root(%s) = %s, want the enclosing repository %s", sub, r, home)
	}
	for _, dir := range []string{paths.Home, sub} {
		root, err := RootFor(dir, paths.Home)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(paths.Home)
		if root != want {
			t.Errorf("RootFor(%s) = %s, want the desk %s", dir, root, want)
		}
		// Same folder as the registry: the desk's daily/ sits beside
		// registry.json, rollup.md and cache/.
		l := Layout{Root: root}
		short, _ := filepath.EvalSymlinks(filepath.Dir(paths.Registry()))
		if l.ShortDir() != short || l.DailyDir() != filepath.Join(short, "daily") {
			t.Errorf("desk short dir = %s, daily %s; the registry lives in %s", l.ShortDir(), l.DailyDir(), short)
		}
	}
	// Outside the desk nothing changes.
	other := filepath.Join(home, "work", "apollo")
	os.MkdirAll(other, 0o755)
	if r, _ := RootFor(other, paths.Home); r != home {
		t.Errorf("RootFor outside the desk = %s, want %s", r, home)
	}
	if r, _ := RootFor(other, ""); r != home {
		t.Errorf("RootFor without a desk = %s", r)
	}
}
