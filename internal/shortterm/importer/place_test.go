package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
)

func TestPlaceAdmitsOnlyProjectsThePersonWorksIn(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{dir}, parts...)...)
		os.MkdirAll(p, 0o755)
		return p
	}
	home, temp, desk := mk("home"), mk("tmp"), mk("home", "cerebro")
	repo := mk("home", "src", "app")
	mk("home", "src", "app", ".git")
	sub := mk("home", "src", "app", "cmd")
	plain := mk("home", "notes")
	mk("home", ".git") // a home kept in git
	clone := mk("tmp", "clone")
	mk("tmp", "clone", ".git")
	archive := filepath.Join(dir, "archive")
	p := placer{home: home, temp: temp, desk: desk, archive: archive,
		root: func(d string) (string, error) { return project.RootFor(d, desk) }}
	for _, c := range []struct {
		cwd, root, refused string
		gone               bool
	}{
		{repo, repo, "", false},
		{sub, repo, "", false},
		{filepath.Join(repo, ".claude", "worktrees", "deleted"), repo, "", false},
		{desk, desk, "", false},
		{filepath.Join(desk, "wiki"), desk, "", false},
		{plain, "", "is the home folder", false}, // its root is the home's repository
		{home, "", "is the home folder", false},
		{clone, "", "is in the temporary folder", false},
		{filepath.Join(dir, "gone", "proj"), filepath.Join(archive, slug(filepath.Join(dir, "gone", "proj"))), "", true},
		{"relative/dir", "", "not an absolute path", false},
		{"", "", "no working directory", false},
	} {
		pl := p.decide(c.cwd)
		if c.refused != "" {
			if !strings.Contains(pl.refused, c.refused) {
				t.Errorf("%s: refused %q, want %q", c.cwd, pl.refused, c.refused)
			}
			continue
		}
		if pl.refused != "" || pl.root != c.root || pl.gone != c.gone {
			t.Errorf("%s: root %q gone %v refused %q, want root %q gone %v", c.cwd, pl.root, pl.gone, pl.refused, c.root, c.gone)
		}
	}
	// Without a home repository a plain folder is no project, unless
	// named.
	os.RemoveAll(filepath.Join(home, ".git"))
	if pl := p.decide(plain); !strings.Contains(pl.refused, "not a repository") {
		t.Errorf("a plain folder: refused %q", pl.refused)
	}
	p.named = plain
	if pl := p.decide(plain); pl.refused != "" || pl.root != plain {
		t.Errorf("a plain folder named with --project: root %q refused %q", pl.root, pl.refused)
	}
	p.named = home
	if pl := p.decide(home); !strings.Contains(pl.refused, "home folder") {
		t.Errorf("the home folder named with --project: refused %q", pl.refused)
	}
}
