package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// holds reports whether any file under dir holds text.
func holds(t *testing.T, dir, text string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), text) {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

// ingest and org ingest of a source reached through a link in the middle
// of its path — a clone's docs/ pointing at the person's private folder,
// named by its absolute path from anywhere — refuse it, saying why, and
// copy nothing into memory_long or the vault.
func TestIngestRefusesALinkInTheMiddleOfTheSource(t *testing.T) {
	proj, env := memProject(t)
	if _, errOut, code := run(t, env, "", "long", "on", "--project", proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	private := filepath.Join(env["HOME"], "private")
	writeTree(t, private, map[string]string{"bank.md": "# Bank\nmy bank pin 4921\n"})
	clone := filepath.Join(t.TempDir(), "clone")
	os.MkdirAll(clone, 0o755)
	if err := os.Symlink(private, filepath.Join(clone, "docs")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(clone, "docs", "bank.md")
	for _, args := range [][]string{{"ingest", "--project", proj, src}, {"org", "ingest", src}} {
		out, errOut, code := run(t, env, "", args...)
		if code == 0 || !strings.Contains(errOut, "is reached through a symbolic link ("+filepath.Join(clone, "docs")+" points to "+private+")") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	for _, dir := range []string{filepath.Join(proj, ".claude", "memory_long"), env["CEREBRO_HOME"]} {
		if got := holds(t, dir, "bank pin"); len(got) > 0 {
			t.Errorf("the outside file was copied: %v", got)
		}
	}
	// The file named where it is, is taken.
	if _, errOut, code := run(t, env, "", "ingest", "--project", proj, filepath.Join(private, "bank.md")); code != 0 {
		t.Errorf("ingest of the file where it is: %s", errOut)
	}
}
