package cli

import (
	"os"

	"path/filepath"
	"strings"
	"testing"
)

// Two projects in one night --all keep their own limits.note_bytes: a
// page over apollo's 64 KiB limit (the least a setting may be) is left out of apollo's index, and the
// same page in zeus, under the default 8 MiB, is listed. With the limit a
// package variable, whichever project loaded its settings last bounded
// both.
func TestNightAllKeepsEachProjectsNoteLimit(t *testing.T) {
	e := newNightEnv(t, false)
	zeus := filepath.Join(filepath.Dir(e.proj), "zeus")
	os.MkdirAll(zeus, 0o755)
	if _, errOut, code := e.run(t, "", "long", "on", "--project", zeus); code != 0 {
		t.Fatalf("long on zeus: %s", errOut)
	}
	if err := os.WriteFile(filepath.Join(e.proj, ".claude", "cerebro.toml"), []byte("[limits]\nnote_bytes = 65536\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := "---\ntype: topic\ndescription: the release calendar in full\n---\n\n# Calendar\n\n" + strings.Repeat("A train leaves every Friday.\n", 4000)
	for _, root := range []string{e.proj, zeus} {
		if err := os.WriteFile(filepath.Join(root, ".claude", "memory_long", "wiki", "Calendar.md"), []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, code := e.run(t, "", "night", "--all", "--now", "2026-10-06"); code != 0 {
		t.Fatalf("night --all: exit %d\n%s\n%s", code, out, errOut)
	}
	index := func(root string) string {
		return readFile(t, filepath.Join(root, ".claude", "memory_long", "index.md"))
	}
	if got := index(zeus); !strings.Contains(got, "Calendar") {
		t.Errorf("zeus (default limit) does not list its 116 KB page:\n%s", got)
	}
	if got := index(e.proj); strings.Contains(got, "Calendar") || !strings.Contains(got, "Releases") {
		t.Errorf("apollo (64 KiB limit) read a page over its limit, or lost its small one:\n%s", got)
	}
}
