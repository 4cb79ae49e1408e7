package rollup

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
)

// today is the dashboard date of every planted test.
var today = time.Date(2026, 11, 30, 0, 0, 0, 0, time.Local)

func day(n int) time.Time { return today.AddDate(0, 0, -n).Add(12 * time.Hour) }

// planted is a desk and a set of projects in every state the dashboard
// knows, on disk under one temporary root.
type planted struct {
	root     string // everything lives under it
	desk     string // $CEREBRO_HOME
	registry string
	entries  []registry.Project
}

func (p *planted) opts() Options {
	return Options{Registry: p.registry, Desk: p.desk, Today: today, FreshDays: 14, CompletedDays: 7, GitDays: 14}
}

type spec struct {
	name      string
	planFact  string    // frontmatter body lines; "" for no file
	dailyAt   time.Time // zero: no daily file
	archiveAt time.Time // zero: no archived day
	missing   bool      // registered but the folder is gone
}

func planFact(name, status, planStatus, extra string) string {
	return fmt.Sprintf("type: plan-fact\nproject: %s\nstage: build\nplan_status: %s\nstatus: %s\nnext: ship the next milestone\nblockers: []\nsummary: plan and fact agree so far\nupdated: 2026-11-20\n%s", name, planStatus, status, extra)
}

func writeFile(t testing.TB, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

func plantProject(t testing.TB, root string, s spec) registry.Project {
	dir := filepath.Join(root, "projects", s.name)
	e := registry.Project{ID: s.name + "-0001", Name: s.name, Path: dir, Registered: "2026-01-01T00:00:00Z", LastSeen: "2026-11-01T00:00:00Z"}
	if s.missing {
		return e
	}
	l := project.Layout{Root: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "README.md"), "# "+s.name+"\n", day(100))
	if s.planFact != "" {
		// The plan-fact's own mtime is recent on purpose: it must not count
		// as activity.
		writeFile(t, l.PlanFact(), "---\n"+s.planFact+"---\n\n# План-факт\n", day(0))
	}
	if !s.dailyAt.IsZero() {
		d := s.dailyAt.Format("2006-01-02")
		writeFile(t, filepath.Join(l.DailyDir(), d+".md"), "---\ntype: daily\ndate: "+d+"\n---\n\n# "+d+"\n", s.dailyAt)
		// An older day and a stray file: neither may win.
		writeFile(t, filepath.Join(l.DailyDir(), "2020-01-01.md"), "old\n", day(2000))
		writeFile(t, filepath.Join(l.DailyDir(), "notes.txt"), "not a day\n", day(0))
	}
	if !s.archiveAt.IsZero() {
		d := s.archiveAt.Format("2006-01-02")
		writeFile(t, filepath.Join(l.ArchiveDir(), d+".md"), "archived\n", s.archiveAt)
	}
	return e
}

// plant builds the standard set: one project per state, plus a registry
// with an invalid entry, a duplicate and the desk itself.
func plant(t testing.TB) *planted {
	t.Helper()
	root := t.TempDir()
	p := &planted{root: root, desk: filepath.Join(root, "cerebro")}
	p.registry = filepath.Join(p.desk, ".claude", "memory_short", "registry.json")
	specs := []spec{
		{name: "alpha", planFact: planFact("alpha", "active", "on_track", ""), dailyAt: day(2)},
		{name: "bravo", planFact: "type: plan-fact\nproject: bravo\nstage: pilot\nplan_status: at_risk\nstatus: active\nnext: find a second reviewer\nblockers:\n  - vendor contract unsigned\n  - test rig | shared\nsummary: two weeks behind the plan\nupdated: 2026-10-01\n", dailyAt: day(40)},
		{name: "charlie", planFact: planFact("charlie", "active", "on_track", "")},
		{name: "delta", missing: true},
		{name: "echo", planFact: planFact("echo", "completed", "done", "completed: 2026-11-27\n"), dailyAt: day(3)},
		{name: "foxtrot", planFact: planFact("foxtrot", "completed", "done", "completed: 2026-11-20\n"), dailyAt: day(10)},
		{name: "golf", planFact: planFact("golf", "paused", "on_track", ""), archiveAt: day(20)},
		{name: "hotel", dailyAt: day(0)},
		{name: "india", planFact: "type: plan-fact\nproject: india\nstage: build\nplan_status: maybe\nstatus: active\nnext: fix the contract\nsummary: half-filled status\nupdated: last week\n", dailyAt: day(1)},
	}
	for _, s := range specs {
		p.entries = append(p.entries, plantProject(t, root, s))
	}
	// The desk keeps its own daily memory beside the registry, and is
	// wrongly registered as a project too.
	writeFile(t, filepath.Join(p.desk, ".claude", "memory_short", "daily", "2026-11-30.md"), "# desk day\n", day(0))
	p.entries = append(p.entries,
		registry.Project{ID: "cerebro-desk", Name: "cerebro", Path: p.desk},
		registry.Project{ID: "relative-1", Name: "relative", Path: "projects/relative"},
		registry.Project{ID: p.entries[0].ID, Name: "alpha-again", Path: filepath.Join(root, "elsewhere")},
	)
	p.writeRegistry(t, p.entries)
	return p
}

func (p *planted) writeRegistry(t testing.TB, entries []registry.Project) {
	t.Helper()
	data, err := json.MarshalIndent(registry.File{Projects: entries}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.registry, string(data)+"\n", time.Time{})
}

// shuffled returns the entries in a different order, keeping the one
// duplicate after the entry it duplicates (which one is "the duplicate"
// depends on order by nature).
func shuffled(entries []registry.Project, seed int64) []registry.Project {
	out := append([]registry.Project(nil), entries[:len(entries)-1]...)
	rand.New(rand.NewSource(seed)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return append(out, entries[len(entries)-1])
}

// normalize replaces the temporary root so golden files are stable.
func normalize(data []byte, root string) []byte {
	return []byte(strings.ReplaceAll(string(data), root, "$ROOT"))
}

// snapshot records every file and directory under dir: path, mode, size,
// mtime and content.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		v := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(path)
			v += " " + string(data)
		}
		out[path] = v
		return nil
	})
	return out
}
