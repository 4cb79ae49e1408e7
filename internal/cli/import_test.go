package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer/importtest"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// world is a home with its own desk, state dir and projects: one where
// the sessions are imported, one where the hooks see them live.
type world struct {
	dir, home string
	env       map[string]string
}

func newWorld(t *testing.T, dir string) *world {
	w := &world{dir: dir, home: filepath.Join(dir, "home")}
	os.MkdirAll(filepath.Join(w.home, ".claude", "projects"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tmp"), 0o755)
	w.env = map[string]string{
		"HOME": w.home, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "desk"),
		"CEREBRO_CONFIG": filepath.Join(dir, "none.toml"), "TMPDIR": filepath.Join(dir, "tmp"),
	}
	return w
}

func (w *world) projects() string { return filepath.Join(w.home, ".claude", "projects") }

// project is the folder of project n, a repository; every world names
// its projects with paths of one length, so that a transcript moved into
// either has the same bytes at the same offsets.
func (w *world) project(n int) string {
	p := filepath.Join(w.dir, "p", fmt.Sprintf("p%02d", n))
	os.MkdirAll(filepath.Join(p, ".git"), 0o755)
	return p
}

// daily is every daily file of the world's projects, by path below the
// world.
func (w *world) daily(t *testing.T) map[string]string {
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(w.dir, "p", "*", ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		rel, _ := filepath.Rel(w.dir, f)
		// Tool output names files by absolute paths: the world's own folder
		// is named alike in every world.
		out[rel] = strings.ReplaceAll(testfile.Read(t, f), w.dir, "<world>")
	}
	return out
}

// live plays a session laid out at src through the hooks of w as Claude
// Code would have run them, each at its moment (CEREBRO_NOW), its
// transcript growing in w's projects folder meanwhile.
func (w *world) live(t *testing.T, src, cwd string) {
	t.Helper()
	id := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	dst := filepath.Join(w.projects(), importtest.Slug(cwd), id+".jsonl")
	err := importtest.Relive(src, dst, func(st importer.Step) error {
		env := map[string]string{"CEREBRO_NOW": st.At.Format(time.RFC3339Nano)}
		for k, v := range w.env {
			env[k] = v
		}
		in := testfile.HookInput(cwd, id, st.Event, append(st.Fields(), "transcript_path", dst)...)
		out, errOut, code := run(t, env, in, "hook", hook.Arg(st.Event))
		if code != 0 || errOut != "" {
			return fmt.Errorf("hook %s: exit %d, %s", st.Event, code, errOut)
		}
		_ = out
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// devTranscripts are the dev transcripts of ../shared/bench.
func devTranscripts(t *testing.T) []string {
	var facts struct {
		Transcripts []struct{ File string } `json:"transcripts"`
	}
	if err := json.Unmarshal([]byte(testfile.Read(t, testfile.Shared(t, "bench", "distill-facts-dev.json"))), &facts); err != nil {
		t.Fatal(err)
	}
	dir := testfile.Shared(t, "fixtures", "transcripts")
	var out []string
	for _, f := range facts.Transcripts {
		out = append(out, filepath.Join(dir, f.File))
	}
	return out
}

// TestImportWritesWhatTheHooksWrite imports every dev transcript and plays
// the same sessions through the hooks live, each hook at its moment: the
// daily files, section for section, are the same; a second import adds
// nothing.
func TestImportWritesWhatTheHooksWrite(t *testing.T) {
	work := t.TempDir()
	a, b := newWorld(t, filepath.Join(work, "a")), newWorld(t, filepath.Join(work, "b"))
	srcB := filepath.Join(work, "b-src")
	type session struct {
		src, cwd string
		start    time.Time
	}
	var live []session
	for fixture, n := range byProject(t, devTranscripts(t)) {
		if _, err := importtest.Place(fixture, a.projects(), importtest.Placement{Cwd: a.project(n)}); err != nil {
			t.Fatal(err)
		}
		src, err := importtest.Place(fixture, srcB, importtest.Placement{Cwd: b.project(n)})
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, session{src, b.project(n), firstStamp(t, src)})
	}
	sort.Slice(live, func(i, j int) bool { return live[i].start.Before(live[j].start) })
	for _, s := range live {
		b.live(t, s.src, s.cwd)
	}
	out, errOut, code := run(t, a.env, "", "import")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
	}
	got, want := a.daily(t), b.daily(t)
	if len(want) == 0 {
		t.Fatal("the hooks wrote no daily file")
	}
	sections := 0
	for name, w := range want {
		sections += strings.Count(w, "\n## ")
		if got[name] != w {
			t.Errorf("%s differs from the hooks'\nimport:\n%s\nhooks:\n%s", name, got[name], w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("the import wrote %s, the hooks did not", name)
		}
	}
	t.Logf("%d daily files, %d sections equal", len(want), sections)

	out, _, code = run(t, a.env, "", "import", "--json")
	if code != 0 {
		t.Fatalf("second import: exit %d\n%s", code, out)
	}
	var rep importer.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if _, replayed, sections, _ := rep.Totals(); replayed != 0 || sections != 0 {
		t.Errorf("second import replayed %d sessions, wrote %d sections", replayed, sections)
	}
	again := a.daily(t)
	for name, text := range got {
		if again[name] != text {
			t.Errorf("second import changed %s", name)
		}
	}
}

// byProject numbers the fixtures' projects: the fixtures run in one
// folder share a number.
func byProject(t *testing.T, fixtures []string) map[string]int {
	projects, out := map[string]int{}, map[string]int{}
	for _, f := range fixtures {
		cwd := firstCwd(t, f)
		n, ok := projects[cwd]
		if !ok {
			n = len(projects)
			projects[cwd] = n
		}
		out[f] = n
	}
	return out
}

func firstCwd(t *testing.T, path string) string {
	for _, line := range strings.Split(testfile.Read(t, path), "\n") {
		var v struct{ Cwd string }
		if json.Unmarshal([]byte(line), &v) == nil && v.Cwd != "" {
			return v.Cwd
		}
	}
	return ""
}

func firstStamp(t *testing.T, path string) time.Time {
	for _, line := range strings.Split(testfile.Read(t, path), "\n") {
		var v struct{ Timestamp time.Time }
		if json.Unmarshal([]byte(line), &v) == nil && !v.Timestamp.IsZero() {
			return v.Timestamp
		}
	}
	return time.Time{}
}

// TestKilledImportGoesOn kills `memhook import` at each point of a flush
// where a process can die, and at moments of no choosing (SIGKILL), each
// next run going on from where the last stopped: the daily files end the
// same as one uninterrupted import's, no section written twice. At the
// points after a section reached its file every run dies at its first
// flush, so the import goes on section by section; before that, one run
// dies and the next finishes.
func TestKilledImportGoesOn(t *testing.T) {
	cases := []struct {
		point  string
		repeat bool
	}{{"after-read", false}, {"after-distill", false}, {"after-intent", false},
		{"after-forget", false}, {"after-append", true}, {"after-commit", true}, {"sigkill", true}}
	for _, c := range cases {
		t.Run(c.point, func(t *testing.T) {
			work := t.TempDir()
			killed, whole := newWorld(t, filepath.Join(work, "a")), newWorld(t, filepath.Join(work, "b"))
			for fixture, n := range byProject(t, killTranscripts(t)) {
				for _, w := range []*world{killed, whole} {
					if _, err := importtest.Place(fixture, w.projects(), importtest.Placement{Cwd: w.project(n)}); err != nil {
						t.Fatal(err)
					}
				}
			}
			h := &hookEnv{env: killed.env}
			kills := 0
			for runs := 0; ; runs++ {
				if runs == 300 {
					t.Fatalf("the import did not finish in %d runs", runs)
				}
				var code int
				switch {
				case c.point == "sigkill":
					// Each run lives longer than the last, so one finishes.
					code = killedAfter(t, killed.env, time.Duration(runs+1)*15*time.Millisecond)
				case c.repeat || kills == 0:
					_, code = h.proc(t, "", []string{"CEREBRO_TEST_CRASH=" + c.point}, "import")
				default:
					// A dry run now names what the run that goes on writes.
					dry, _ := h.proc(t, "", nil, "import", "--dry-run", "--json")
					var out string
					out, code = h.proc(t, "", nil, "import", "--json")
					var d, r importer.Report
					if json.Unmarshal([]byte(dry), &d) != nil || json.Unmarshal([]byte(out), &r) != nil {
						t.Fatalf("reports:\n%s\n%s", dry, out)
					}
					if _, _, want, _ := r.Totals(); want == 0 {
						t.Errorf("the run after the kill wrote nothing")
					} else if _, _, got, _ := d.Totals(); got != want {
						t.Errorf("the dry run after the kill names %d sections, the run writes %d", got, want)
					}
				}
				if code == 0 {
					break
				}
				if code != 86 && code != -1 {
					t.Fatalf("import run %d: exit %d", runs, code)
				}
				kills++
			}
			if kills == 0 {
				t.Fatal("the import was never killed")
			}
			t.Logf("%d kills", kills)
			if out, code := (&hookEnv{env: whole.env}).proc(t, "", nil, "import"); code != 0 {
				t.Fatalf("uninterrupted import: exit %d\n%s", code, out)
			}
			got, want := killed.daily(t), whole.daily(t)
			for name, w := range want {
				if got[name] != w {
					t.Errorf("%s after %d kills differs from one run's\nkilled:\n%s\nwhole:\n%s", name, kills, got[name], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d daily files after the kills, %d after one run", len(got), len(want))
			}
		})
	}
}

// killTranscripts are the dev transcripts the kill test replays: a
// compaction with subagents, subagents of 2.1 and 2.0, the most sections
// of one session.
func killTranscripts(t *testing.T) []string {
	var out []string
	for _, f := range devTranscripts(t) {
		for _, id := range []string{"e2e-session", "258c7280", "cb2e607c", "ed232752"} {
			if strings.Contains(filepath.Base(f), id) {
				out = append(out, f)
			}
		}
	}
	if len(out) != 4 {
		t.Fatalf("found %d of the 4 transcripts the kill test replays", len(out))
	}
	return out
}

// killedAfter runs `memhook import` and kills it (SIGKILL) after d unless
// it ended before: its exit code, -1 when killed.
func killedAfter(t *testing.T, env map[string]string, d time.Duration) int {
	cmd := exec.Command(memhookBin, "import")
	cmd.Env = envList(env)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestImportedWeekIsInjectedAndSearchedAcross imports four sessions of one
// project, two of them in the week before now and two older, and one of
// another project: the next SessionStart of the first project is handed
// its week (the older sessions stay in their daily files), and a search
// across projects from the other one finds the first one's memory. Doctor
// advises the import before, and says what it did after.
func TestImportedWeekIsInjectedAndSearchedAcross(t *testing.T) {
	w := newWorld(t, t.TempDir())
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) // run's clock
	dir := testfile.Shared(t, "fixtures", "transcripts")
	sample := "daaain__claude-code-log__real_projects__-Users-dain-workspace-claude-code-log-sample__"
	// 937c6e6b ran on 2025-07-17: moved to two days before now, and the
	// others by as much (07-14 → five days before, 07-05 and 06-14 out of
	// the week).
	shift := now.AddDate(0, 0, -2).Sub(time.Date(2025, 7, 17, 12, 0, 0, 0, time.Local)).Round(24 * time.Hour)
	for _, id := range []string{"937c6e6b-27e7-4edd-86f1-ad28f9731841", "aa5c5ada-4f1e-4b7f-9d1f-c496b3badde5",
		"0d3a8e6f-290f-4105-a327-a2496e5e2a83", "fe869ecb-c176-478f-9734-7e4b8ef12cff"} {
		if _, err := importtest.Place(filepath.Join(dir, sample+id+".jsonl"), w.projects(), importtest.Placement{Cwd: w.project(0), Shift: shift}); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(dir, "marot__spotter__transcripts__short.jsonl")
	if _, err := importtest.Place(other, w.projects(), importtest.Placement{Cwd: w.project(1)}); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := run(t, w.env, "", "doctor", "--project", w.project(0)); !strings.Contains(out, "Claude Code keeps 5 sessions in "+w.projects()+" that were never imported: `memhook import`") {
		t.Errorf("doctor does not advise the import:\n%s", out)
	}
	if out, errOut, code := run(t, w.env, "", "import"); code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
	}
	if out, _, _ := run(t, w.env, "", "doctor", "--project", w.project(0)); !strings.Contains(out, "sessions imported from "+w.projects()+": 5 on 2026-11-30 10:00") {
		t.Errorf("doctor does not say what was imported:\n%s", out)
	}
	daily := filepath.Join(w.project(0), ".claude", "memory_short", "daily")
	files, _ := filepath.Glob(filepath.Join(daily, "*.md"))
	var inWeek, older []string
	for _, f := range files {
		day, _ := time.ParseInLocation(time.DateOnly, strings.TrimSuffix(filepath.Base(f), ".md"), time.Local)
		if now.Sub(day) <= 7*24*time.Hour {
			inWeek = append(inWeek, filepath.Base(f))
		} else {
			older = append(older, filepath.Base(f))
		}
	}
	if len(inWeek) < 2 || len(older) < 2 {
		t.Fatalf("daily files in the week %v, older %v: want two of each", inWeek, older)
	}
	out := (&hookEnv{proj: w.project(0), env: w.env}).hook(t, "session-start", testfile.HookInput(w.project(0), "next", "SessionStart", "source", "startup"))
	var res struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("SessionStart output %q: %v", out, err)
	}
	inject := res.HookSpecificOutput.AdditionalContext
	for _, f := range inWeek {
		// A day is named by its date: a short-term block's source, or a
		// timeline's day heading (the file is <date>.md in its folder).
		if !strings.Contains(inject, f) && !strings.Contains(inject, "\n"+strings.TrimSuffix(f, ".md")+"\n") {
			t.Errorf("the inject does not hand %s, of the week:\n%s", f, inject)
		}
	}
	for _, f := range older {
		if strings.Contains(inject, strings.TrimSuffix(f, ".md")) {
			t.Errorf("the inject hands %s, older than the week:\n%s", f, inject)
		}
	}

	env := map[string]string{}
	for k, v := range w.env {
		env[k] = v
	}
	found, errOut, code := run(t, env, "", "search", "pyright type errors", "--scope", "projects", "--project", w.project(1), "--json")
	if code != 0 {
		t.Fatalf("search across: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(found, "p00") || !strings.Contains(found, "pyright") {
		t.Fatalf("a search across projects from p01 does not find p00's imported memory:\n%s", found)
	}
}
