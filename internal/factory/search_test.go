package factory

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// deskFactory is a factory on a fresh desk, the user's settings file
// absent.
func deskFactory(t *testing.T, env map[string]string) *Factory {
	t.Helper()
	home := t.TempDir()
	for k, v := range map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_STATE_DIR": filepath.Join(home, "state"), "CEREBRO_CONFIG": filepath.Join(home, "none.toml")} {
		if env[k] == "" {
			env[k] = v
		}
	}
	return New(System{Getenv: func(k string) string { return env[k] }})
}

// The project's search settings are the memory's: its index settings,
// its ranking options and its update budget.
func TestOpenMemoryTakesTheProjectsSettings(t *testing.T) {
	f := deskFactory(t, map[string]string{"CEREBRO_SEARCH_CITATIONS": "off", "CEREBRO_SEARCH_CHUNK_TOKENS": "123"})
	proj := t.TempDir()
	m, _, err := f.OpenMemory(proj, "", "project")
	if err != nil {
		t.Fatal(err)
	}
	c := f.Config(m.Base).Search
	if c.Citations != "off" || c.ChunkTokens != 123 {
		t.Fatalf("the environment did not set the settings: %+v", c)
	}
	if m.Options.Citations != "off" || m.Params.ChunkTokens != 123 || m.Params.OverlapTokens != c.OverlapTokens ||
		m.UpdateBudget != time.Duration(c.UpdateBudgetMS)*time.Millisecond || m.Options.CandidatePool != c.CandidatePool || m.Desk != nil {
		t.Fatalf("the settings are not the memory's: %+v", m)
	}
}

// The desk of a search across projects holds only the registered projects
// that share their memory: one that opted out is counted, not named; one
// whose folder is gone is named with the reason; this project is not
// among the others and takes its registry id; a registry that does not
// parse is registry.ErrCorrupt, with the repair hint.
func TestOpenMemoryDeskKeepsToWhatIsShared(t *testing.T) {
	dir := t.TempDir()
	self, shares, private := filepath.Join(dir, "self"), filepath.Join(dir, "shares"), filepath.Join(dir, "private")
	for _, p := range []string{self, shares, private} {
		os.MkdirAll(filepath.Join(p, ".git"), 0o755)
		os.MkdirAll(filepath.Join(p, ".claude"), 0o755)
	}
	os.WriteFile(filepath.Join(private, ".claude", "cerebro.toml"), []byte("share_across_projects = false\n"), 0o644)
	f := deskFactory(t, map[string]string{})
	reg := registry.File{Projects: []registry.Project{
		{ID: "me", Path: self}, {ID: "shares", Path: shares}, {ID: "private", Path: private}, {ID: "gone", Path: filepath.Join(dir, "gone")},
	}}
	data, _ := json.Marshal(reg)
	os.MkdirAll(filepath.Dir(f.Paths.Registry()), 0o755)
	os.WriteFile(f.Paths.Registry(), data, 0o644)
	m, _, err := f.OpenMemory(self, "", string(search.ScopeProjects))
	if err != nil {
		t.Fatal(err)
	}
	d := m.Desk
	if d == nil || d.ID != "me" || len(d.Others) != 1 || d.Others[0].ID != "shares" || d.OptedOut != 1 ||
		len(d.Skipped) != 1 || d.Skipped[0].Project != "gone" || !strings.Contains(d.Skipped[0].Reason, "cannot be reached") {
		t.Fatalf("desk: %+v", d)
	}
	if m, _, err := f.OpenMemory(self, "", "all"); err != nil || m.Desk != nil {
		t.Fatalf("scope all reads the desk's projects: %+v, %v", m, err)
	}
	os.WriteFile(f.Paths.Registry(), []byte("{not json"), 0o644)
	_, _, err = f.OpenMemory(self, "", string(search.ScopeProjects))
	var h interface{ Hint() string }
	if !errors.Is(err, registry.ErrCorrupt) || !errors.As(err, &h) || h.Hint() != RepairHint {
		t.Fatalf("corrupt registry: %v", err)
	}
}
