package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

func TestWikiWriteFromStdinAndFile(t *testing.T) {
	env, proj := longEnv(t)
	mustRun(t, env, "", "long", "on", "--project", proj)
	// through its run function (its command line: options_test.go)
	write := func(stdin, page, from string) (string, error) {
		f, out := testFactory(env)
		err := wikiRun(&WikiOptions{In: strings.NewReader(stdin), Out: f.Out, Now: f.Now, LongStore: f.LongStore, LongChange: f.LongChange,
			KeepSecretsOut: f.KeepSecretsOut, Action: "write", Page: page, From: from, Project: proj})
		return out.String(), err
	}
	page := "---\ntype: lesson\n---\n\n# Backups\n\nRestore drills run monthly.\n"
	out, err := write(page, "wiki/_private/Backups.md", "-")
	if err != nil || !strings.Contains(out, "(new page)") {
		t.Fatalf("%v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(proj, ".claude", "memory_long", "wiki", "_private", "Backups.md"))
	if err != nil || string(got) != page {
		t.Fatalf("page %q, %v", got, err)
	}
	from := filepath.Join(t.TempDir(), "p.md")
	os.WriteFile(from, []byte(page), 0o644)
	if out, err := write("", "wiki/_private/Backups.md", from); err != nil || !strings.Contains(out, "already holds this text") {
		t.Errorf("same text from a file: %v\n%s", err, out)
	}
	if _, err := write("x\n", "raw/notes.md", "-"); err == nil || !strings.Contains(err.Error(), "raw/") || hint.Of(err) == "" {
		t.Errorf("raw/ write: %v, hint %q", err, hint.Of(err))
	}
}
