package longterm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestCompileListOnlyClosedDays(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", session("09:00", "a", "", ""))
	day(t, s, "2026-11-29", session("09:00", "b", "", ""))
	day(t, s, "2026-11-30", session("09:00", "today", "", ""))
	testfile.Write(t, filepath.Join(s.DailyDir, "notes.md"), "not a day")
	got, err := s.CompileList(now)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Date != "2026-11-28" || got[1].Date != "2026-11-29" || got[1].Path != filepath.Join(s.DailyDir, "2026-11-29.md") {
		t.Fatalf("%+v", got)
	}
}

func TestCompileDoneMovesOnlyLinkedDaysAndLinksStillResolve(t *testing.T) {
	s := newProject(t)
	d1 := day(t, s, "2026-11-28", session("09:00", "a", "", ""))
	d2 := day(t, s, "2026-11-29", session("09:00", "b", "", ""))
	testfile.Write(t, s.Path("wiki/_private/Уроки.md"), "---\ntype: digest\n---\n# Уроки\n\n- lesson · [[daily/2026-11-28]]\n")
	s.RebuildIndex()

	// One day not linked: nothing moves at all.
	_, err := s.CompileDone([]string{"2026-11-28", "2026-11-29"}, now)
	var ce *CompileError
	if !errors.As(err, &ce) || len(ce.Missing) != 1 || ce.Missing[0] != "2026-11-29" {
		t.Fatalf("got %v", err)
	}
	for _, p := range []string{d1, d2} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s moved after a refused compile", p)
		}
	}
	// Today is never closed.
	day(t, s, "2026-11-30", "")
	if _, err := s.CompileDone([]string{"2026-11-30"}, now); !errors.As(err, &ce) {
		t.Fatalf("today compiled: %v", err)
	}

	moved, err := s.CompileDone([]string{"2026-11-28"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 1 || moved[0] != filepath.Join(s.ArchiveDir, "2026-11-28.md") {
		t.Fatalf("moved %v", moved)
	}
	if _, err := os.Stat(d1); !os.IsNotExist(err) {
		t.Fatal("day still in daily/")
	}
	if _, err := os.Stat(d2); err != nil {
		t.Fatal("a day not asked for was moved")
	}
	// The evidence link resolves in the archive: lint is clean, the graph
	// records it as evidence.
	found, _ := s.Lint(LintOptions{Project: true})
	if lint.HasErrors(found) {
		t.Fatalf("lint after move: %+v", found)
	}
	v, _ := s.LoadVault()
	g := s.Graph(v)
	if len(g.Evidence) != 1 || !g.Evidence[0].Archived || len(g.Broken) != 0 {
		t.Fatalf("graph evidence %+v broken %+v", g.Evidence, g.Broken)
	}
	// Again: already archived, refused, nothing overwritten.
	if _, err := s.CompileDone([]string{"2026-11-28"}, now); err == nil {
		t.Fatal("compiled twice")
	}
}

func TestCompileDoneRefusesArchiveCollision(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", "")
	testfile.Write(t, filepath.Join(s.ArchiveDir, "2026-11-28.md"), "older copy")
	testfile.Write(t, s.Path("wiki/_private/d.md"), "---\ntype: digest\n---\n[[daily/2026-11-28]]\n")
	if _, err := s.CompileDone([]string{"2026-11-28"}, now); err == nil {
		t.Fatal("overwrote an archived day")
	}
	if testfile.Read(t, filepath.Join(s.ArchiveDir, "2026-11-28.md")) != "older copy" {
		t.Fatal("archive changed")
	}
}
