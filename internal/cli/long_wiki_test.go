package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWikiWriteFromStdinAndFile(t *testing.T) {
	env, proj := longEnv(t)
	mustRun(t, env, "", "long", "on", "--project", proj)
	page := "---\ntype: lesson\n---\n\n# Backups\n\nRestore drills run monthly.\n"
	out := mustRun(t, env, page, "wiki", "write", "wiki/_private/Backups.md", "--project", proj)
	if !strings.Contains(out, "(new page)") {
		t.Fatalf("%s", out)
	}
	got, err := os.ReadFile(filepath.Join(proj, ".claude", "memory_long", "wiki", "_private", "Backups.md"))
	if err != nil || string(got) != page {
		t.Fatalf("page %q, %v", got, err)
	}
	from := filepath.Join(t.TempDir(), "p.md")
	os.WriteFile(from, []byte(page), 0o644)
	if out := mustRun(t, env, "", "wiki", "write", "wiki/_private/Backups.md", "--from", from, "--project", proj); !strings.Contains(out, "already holds this text") {
		t.Errorf("same text from a file: %s", out)
	}
	_, errOut, code := run(t, env, "x\n", "wiki", "write", "raw/notes.md", "--project", proj)
	if code == 0 || !strings.Contains(errOut, "raw/") || !strings.Contains(errOut, "hint:") {
		t.Errorf("raw/ write: exit %d, stderr %q", code, errOut)
	}
}
