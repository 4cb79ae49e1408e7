package registry

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestTouchRemoveAndConcurrency(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk", "registry.json")
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			p := Project{ID: string(rune('a' + i)), Name: "n", Path: "/p/" + string(rune('a'+i))}
			if err := Touch(path, p, now); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	f, err := Read(path)
	if err != nil || len(f.Projects) != 10 {
		t.Fatalf("got %d projects, %v", len(f.Projects), err)
	}
	if err := Touch(path, Project{ID: "a", Path: "/p/a"}, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	f, _ = Read(path)
	if p := f.Find("a"); p.Registered != "2026-11-30T08:00:00Z" || p.LastSeen != "2026-11-30T09:00:00Z" {
		t.Fatalf("touch: %+v", p)
	}
	if ok, err := Remove(path, "/p/b"); !ok || err != nil {
		t.Fatalf("remove: %v %v", ok, err)
	}
	f, _ = Read(path)
	if len(f.Projects) != 9 || len(f.Validate()) != 0 {
		t.Fatalf("after remove: %+v %v", f.Projects, f.Validate())
	}
}

func TestCorruptIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "registry.json")
	os.WriteFile(path, []byte("{not json"), 0o644)
	if err := Touch(path, Project{ID: "x", Path: "/x"}, time.Now()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("touch on corrupt: err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Fatal("corrupt registry was overwritten")
	}
	backup, err := Repair(path, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(backup); string(data) != "{not json" {
		t.Fatal("backup lost the content")
	}
	if err := Touch(path, Project{ID: "x", Path: "/x"}, time.Now()); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	f := &File{Projects: []Project{{ID: "a", Path: "rel"}, {ID: "a", Path: "/x", LastSeen: "yesterday"}, {Path: "/x"}}}
	if got := len(f.Validate()); got != 5 {
		t.Fatalf("got %d problems: %v", got, f.Validate())
	}
}
