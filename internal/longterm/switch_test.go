package longterm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
)

func TestTurnOnRegistersAndCommitsThenTurnOffUnregisters(t *testing.T) {
	s := New(t.TempDir())
	reg := filepath.Join(t.TempDir(), "desk", "registry.json")
	open := func() (*History, error) { return s.History(GitAuto, now) }
	rep, err := s.TurnOn(reg, open, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Created) == 0 || rep.ID != project.ID(s.Project) || rep.HistoryErr != nil {
		t.Fatalf("report %+v", rep)
	}
	if !rep.History.Versioned() || !rep.Committed {
		t.Errorf("the scaffold was not committed: versioned %v, committed %v (%v)", rep.History.Versioned(), rep.Committed, rep.CommitErr)
	}
	f, err := registry.Read(reg)
	if err != nil || f.Find(rep.ID) == nil {
		t.Fatalf("registry %+v, %v", f, err)
	}
	if ok, problem := s.Registered(reg); !ok || problem != "" {
		t.Fatalf("registered %v %q", ok, problem)
	}
	again, err := s.TurnOn(reg, open, now)
	if err != nil || len(again.Created) != 0 || len(again.Kept) == 0 {
		t.Fatalf("a second long on must keep everything: %+v %v", again, err)
	}

	if found, err := s.TurnOff(reg, now); err != nil || !found {
		t.Fatalf("long off: %v %v", found, err)
	}
	if ok, _ := s.Registered(reg); ok {
		t.Fatal("still registered after long off")
	}
	if found, err := s.TurnOff(reg, now); err != nil || found {
		t.Fatalf("a second long off: %v %v", found, err)
	}
	if _, err := os.Stat(s.Path(CoreFile)); err != nil {
		t.Errorf("long off must keep every file: %v", err)
	}
}

func TestTurnOnKeepsTheScaffoldWhenTheRegistryFails(t *testing.T) {
	s := New(t.TempDir())
	reg := filepath.Join(t.TempDir(), "registry.json")
	if err := os.MkdirAll(reg, 0o755); err != nil { // a folder where the file goes
		t.Fatal(err)
	}
	opened := false
	_, err := s.TurnOn(reg, func() (*History, error) { opened = true; return nil, errors.New("unused") }, now)
	if !errors.Is(err, ErrRegister) || !strings.Contains(err.Error(), "register with the org desk") {
		t.Fatalf("want ErrRegister, got %v", err)
	}
	if _, err := os.Stat(s.Path(CoreFile)); err != nil {
		t.Errorf("the scaffold is not in place: %v", err)
	}
	if opened {
		t.Error("history opened for a project the desk does not know")
	}
	if ok, problem := s.Registered(reg); ok || problem == "" {
		t.Errorf("an unreadable registry: registered %v, problem %q", ok, problem)
	}
}

func TestTurnOnReportsAHistoryThatDoesNotOpen(t *testing.T) {
	s := New(t.TempDir())
	rep, err := s.TurnOn(filepath.Join(t.TempDir(), "registry.json"), func() (*History, error) { return nil, errors.New("no git here") }, now)
	if err != nil || rep.HistoryErr == nil || rep.Committed {
		t.Fatalf("%+v %v", rep, err)
	}
}
