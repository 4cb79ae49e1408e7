package claudeperm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// Install adds the rules and records them; a second install adds nothing
// new; Remove takes out exactly the recorded rules and keeps the person's
// own, and a second Remove has nothing recorded.
func TestInstallerRecordsWhatItAddedAndRemovesOnlyThat(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	os.WriteFile(settings, []byte(`{"permissions": {"allow": ["Bash(ls)", "mcp__x__get"]}}`), 0o644)
	in := Installer{Settings: settings, Records: filepath.Join(dir, "cerebro", "claude-permissions.json"), Prefix: "mcp__x__"}
	ch, err := in.Install([]string{"mcp__x__search", "mcp__x__get"})
	if err != nil || len(ch.Added) != 1 || ch.Added[0] != "mcp__x__search" || len(ch.Present) != 1 {
		t.Fatalf("install: %+v %v", ch, err)
	}
	var out bytes.Buffer
	in.WriteInstalled(&out, ch)
	if !strings.Contains(out.String(), "added mcp__x__search") || !strings.Contains(out.String(), "get already allowed") {
		t.Errorf("install said %q", out.String())
	}
	if ch, err := in.Install([]string{"mcp__x__search", "mcp__x__get"}); err != nil || len(ch.Added) != 0 {
		t.Fatalf("second install: %+v %v", ch, err)
	}
	ch, recorded, err := in.Remove()
	if err != nil || !recorded || len(ch.Removed) != 1 || ch.Removed[0] != "mcp__x__search" {
		t.Fatalf("remove: %+v %v %v", ch, recorded, err)
	}
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), "Bash(ls)") || !strings.Contains(string(b), "mcp__x__get") || strings.Contains(string(b), "mcp__x__search") {
		t.Errorf("settings after remove: %s", b)
	}
	if _, recorded, err := in.Remove(); err != nil || recorded {
		t.Errorf("second remove: recorded %v, %v", recorded, err)
	}
}

// A settings file that is not JSON stops install at that step, with a
// hint, and stays as it is.
func TestInstallOnABadSettingsFileNamesTheStep(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	os.WriteFile(settings, []byte("{oops"), 0o644)
	in := Installer{Settings: settings, Records: filepath.Join(dir, "rec.json")}
	_, err := in.Install([]string{"mcp__x__search"})
	if err == nil || !strings.HasPrefix(err.Error(), "permissions install: ") || hint.Of(err) == "" {
		t.Fatalf("error %T %v", err, err)
	}
	if b, _ := os.ReadFile(settings); string(b) != "{oops" {
		t.Errorf("settings changed: %q", b)
	}
}
