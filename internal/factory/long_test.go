package factory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// One process that loads several projects' settings before it reads any
// (a search across projects, the MCP server, evolve --all) reads each
// project's files with that project's limit, whatever the order: with the
// limit a package variable, apollo read with zeus's, loaded last.
func TestLimitsDoNotFollowTheLastProjectLoaded(t *testing.T) {
	home, env := homeEnv(t)
	apollo, zeus := filepath.Join(home, "work", "apollo"), filepath.Join(home, "work", "zeus")
	big := "---\ntype: topic\ndescription: the release calendar\n---\n\n# Calendar\n\n" + strings.Repeat("A train leaves every Friday.\n", 4000)
	for _, root := range []string{apollo, zeus} {
		if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		testfile.Write(t, filepath.Join(root, ".claude", "memory_long", "wiki", "Calendar.md"), big)
	}
	// 64 KiB, the least a setting may be; zeus keeps the default 8 MiB.
	testfile.Write(t, filepath.Join(apollo, ".claude", "cerebro.toml"), "[limits]\nnote_bytes = 65536\n")

	f := New(System{Getenv: func(k string) string { return env[k] }})
	for _, order := range [][]string{{apollo, zeus}, {zeus, apollo}} {
		for _, root := range order {
			f.Config(root)
		}
		for root, want := range map[string]bool{apollo: false, zeus: true} {
			s, _, err := f.LongStore(root)
			if err != nil {
				t.Fatal(err)
			}
			v, err := s.LoadVault()
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Resolve("Calendar", "") != nil; got != want {
				t.Errorf("loaded %v: %s read its 116 KB page: %v, want %v", order, filepath.Base(root), got, want)
			}
		}
	}
}
