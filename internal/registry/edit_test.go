package registry

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// root maps a folder to itself: the tests' projects are their own roots.
func root(dir string) (string, error) { return dir, nil }

// Add registers a project by its folder, refuses what is no folder and
// the desk itself; Unregister finds it by id or by a relative path; List
// shows it and never reports problems as null.
func TestAddListUnregister(t *testing.T) {
	dir := t.TempDir()
	desk, proj := filepath.Join(dir, "desk"), filepath.Join(dir, "billing")
	os.MkdirAll(desk, 0o755)
	os.MkdirAll(proj, 0o755)
	path := filepath.Join(desk, "registry.json")
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

	if _, err := Add(path, filepath.Join(dir, "missing"), "", desk, root, now); !errors.Is(err, ErrNotDir) {
		t.Errorf("missing folder: %v", err)
	}
	if _, err := Add(path, desk, "", desk, root, now); !errors.Is(err, ErrDesk) {
		t.Errorf("the desk: %v", err)
	}
	a, err := Add(path, proj, "", desk, root, now)
	if err != nil || a.Project.Name != "billing" || a.Project.Path != proj || a.Project.ID == "" || !strings.HasPrefix(a.Message(), "registered "+proj) {
		t.Fatalf("add: %+v %v", a, err)
	}
	l, err := List(path)
	if err != nil || len(l.Projects) != 1 || l.Problems == nil || len(l.Problems) != 0 {
		t.Fatalf("list: %+v %v", l, err)
	}
	var out, warn bytes.Buffer
	l.WriteText(&out, &warn)
	if !strings.Contains(out.String(), a.Project.ID) || warn.Len() != 0 {
		t.Errorf("table:\n%s\nwarnings: %s", out.String(), warn.String())
	}

	if _, err := Unregister(path, "nope"); !errors.Is(err, ErrNotRegistered) {
		t.Errorf("unknown project: %v", err)
	}
	t.Chdir(dir)
	got, err := Unregister(path, "billing") // relative to the working folder
	if err != nil || got != proj {
		t.Fatalf("unregister: %q %v", got, err)
	}
	if l, _ := List(path); len(l.Projects) != 0 {
		t.Errorf("still registered: %+v", l.Projects)
	}
}

// A corrupt registry is never written over by Add.
func TestAddLeavesACorruptRegistry(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "registry.json")
	os.WriteFile(path, []byte("{not json"), 0o644)
	if _, err := Add(path, dir, "", filepath.Join(dir, "desk"), root, time.Now()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("add over a corrupt registry: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{not json" {
		t.Errorf("the corrupt registry changed: %q", b)
	}
}
