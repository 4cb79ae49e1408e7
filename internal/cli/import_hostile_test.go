package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer/importtest"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// session writes a small transcript of a session run in cwd, one turn per
// prompt, an hour from at, and returns its path.
func writeSession(t *testing.T, path, id, cwd string, at time.Time, prompts ...string) string {
	t.Helper()
	var b strings.Builder
	for i, p := range prompts {
		ts := at.Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(&b, `{"type":"user","sessionId":%q,"cwd":%q,"uuid":"u%d","timestamp":%q,"message":{"role":"user","content":%q}}`+"\n",
			id, cwd, i, ts.Format(time.RFC3339Nano), p)
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":%q,"cwd":%q,"uuid":"a%d","timestamp":%q,"message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Write","input":{"file_path":%q,"content":"x"}}]}}`+"\n",
			id, cwd, i, ts.Add(10*time.Second).Format(time.RFC3339Nano), i, i, filepath.Join(cwd, fmt.Sprintf("f%d.txt", i)))
		fmt.Fprintf(&b, `{"type":"user","sessionId":%q,"cwd":%q,"uuid":"r%d","timestamp":%q,"toolUseResult":{"type":"create","filePath":"f"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"File created successfully at: f"}]}}`+"\n",
			id, cwd, i, ts.Add(20*time.Second).Format(time.RFC3339Nano), i)
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":%q,"cwd":%q,"uuid":"b%d","timestamp":%q,"message":{"id":"n%d","role":"assistant","content":[{"type":"text","text":"Done, step %d."}]}}`+"\n",
			id, cwd, i, ts.Add(30*time.Second).Format(time.RFC3339Nano), i, i)
	}
	writeStampedFile(t, path, b.String(), at.Add(time.Hour))
	return path
}

func writeStampedFile(t *testing.T, path, text string, mod time.Time) {
	t.Helper()
	testfile.Write(t, path, text)
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// allMemory is every Markdown file under dir's .claude/memory_short
// folders, joined.
func allMemory(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "memory_short") && strings.HasSuffix(p, ".md") {
			b.WriteString(testfile.Read(t, p))
		}
		return nil
	})
	return b.String()
}

// TestImportDoublesCreatesAndFollowsNothing imports a folder holding a
// session the hooks captured live, a project whose folder is gone,
// sessions run in the home folder, the temporary folder and a plain
// folder, and hostile files: a line over the bound, a FIFO, a transcript
// that is a link out of the folder, a folder of transcripts that is one,
// a subagents folder that is one. Nothing is written twice, no folder is
// made, no link is followed; the gone project goes only to the archive
// named; a second run adds nothing.
func TestImportDoublesCreatesAndFollowsNothing(t *testing.T) {
	work := t.TempDir()
	w := newWorld(t, filepath.Join(work, "w"))
	w.env["CEREBRO_LIMITS_TRANSCRIPT_LINE_BYTES"] = "1048576"
	projects := w.projects()
	day := time.Date(2026, 10, 5, 9, 0, 0, 0, time.UTC)

	// A session the hooks captured as it ran, and one they never saw, of
	// one project.
	p0 := w.project(0)
	fixture := filepath.Join(testfile.Shared(t, "fixtures", "transcripts"), "claude-code-2.1.197__e2e-session.jsonl")
	src, err := importtest.Place(fixture, filepath.Join(work, "src"), importtest.Placement{Cwd: p0})
	if err != nil {
		t.Fatal(err)
	}
	w.live(t, src, p0)
	captured := w.daily(t)
	capturedSections := strings.Count(strings.Join(values(captured), ""), "session e2e-sess")
	if capturedSections == 0 {
		t.Fatalf("the hooks wrote nothing for the captured session:\n%v", captured)
	}
	slug0 := filepath.Join(projects, importtest.Slug(p0))
	writeSession(t, filepath.Join(slug0, "new-session.jsonl"), "new-session", p0, day, "Add the NEWTURN flag", "Test the NEWTURN flag", "Ship it")

	// A trivial session: two replies, nothing changed.
	testfile.Write(t, filepath.Join(slug0, "trivial.jsonl"), fmt.Sprintf(
		`{"type":"user","sessionId":"trivial","cwd":%q,"uuid":"t1","timestamp":"2026-10-05T08:00:00Z","message":{"role":"user","content":"TRIVIALWORDS hello"}}`+"\n"+
			`{"type":"assistant","sessionId":"trivial","cwd":%q,"uuid":"t2","timestamp":"2026-10-05T08:00:05Z","message":{"id":"tm","role":"assistant","content":[{"type":"text","text":"Hello."}]}}`+"\n", p0, p0))
	os.Chtimes(filepath.Join(slug0, "trivial.jsonl"), day, day)

	// A project whose folder is gone.
	gone := filepath.Join(w.dir, "gone", "proj")
	writeSession(t, filepath.Join(projects, importtest.Slug(gone), "gone-session.jsonl"), "gone-session", gone, day.Add(time.Hour),
		"Rename GONETURN", "Test GONETURN", "Commit GONETURN")

	// Folders that are no projects: the home folder (a repository of
	// dotfiles), the temporary folder, a folder without .git.
	os.MkdirAll(filepath.Join(w.home, ".git"), 0o755)
	tmpRepo := filepath.Join(w.env["TMPDIR"], "clone")
	os.MkdirAll(filepath.Join(tmpRepo, ".git"), 0o755)
	plain := filepath.Join(w.dir, "plain")
	os.MkdirAll(plain, 0o755)
	for i, cwd := range []string{w.home, tmpRepo, plain} {
		id := fmt.Sprintf("nowhere-%d", i)
		writeSession(t, filepath.Join(projects, importtest.Slug(cwd), id+".jsonl"), id, cwd, day.Add(2*time.Hour), "NOWHERE one", "NOWHERE two", "NOWHERE three")
	}

	// Hostile files. A line over the bound, then a turn after it.
	p1 := w.project(1)
	slug1 := filepath.Join(projects, importtest.Slug(p1))
	giant := writeSession(t, filepath.Join(work, "giant-part.jsonl"), "giant", p1, day.Add(3*time.Hour), "AFTERGIANT one", "AFTERGIANT two", "AFTERGIANT three")
	big := fmt.Sprintf(`{"type":"user","sessionId":"giant","cwd":%q,"timestamp":%q,"message":{"role":"user","content":"%s"}}`+"\n",
		p1, day.Add(3*time.Hour).Format(time.RFC3339Nano), strings.Repeat("A", 3<<20))
	writeStampedFile(t, filepath.Join(slug1, "giant.jsonl"), big+testfile.Read(t, giant), day.Add(4*time.Hour))
	testfile.FIFO(t, filepath.Join(slug1, "fifo.jsonl"))
	// Transcripts outside the folder, reached through links.
	outside := filepath.Join(work, "outside")
	p2 := w.project(2)
	evil := writeSession(t, filepath.Join(outside, "evil.jsonl"), "evil", p2, day, "EVILLINK one", "EVILLINK two", "EVILLINK three")
	os.Symlink(evil, filepath.Join(slug1, "linked.jsonl"))
	writeSession(t, filepath.Join(outside, "dir", "evil-dir.jsonl"), "evil-dir", p2, day, "EVILDIR one", "EVILDIR two", "EVILDIR three")
	os.Symlink(filepath.Join(outside, "dir"), filepath.Join(projects, "-linked-folder"))
	writeSession(t, filepath.Join(slug1, "with-agents.jsonl"), "with-agents", p1, day.Add(5*time.Hour), "AGENTS one", "AGENTS two", "AGENTS three")
	agentText := strings.ReplaceAll(testfile.Read(t, writeSession(t, filepath.Join(outside, "agents", "agent-x.jsonl"), "with-agents", p1,
		day.Add(5*time.Hour), "EVILSUB")), `"type":"user"`, `"type":"user","isSidechain":true`)
	testfile.Write(t, filepath.Join(outside, "agents", "agent-x.jsonl"), strings.ReplaceAll(agentText, "f0.txt", "EVILSUB.txt"))
	os.MkdirAll(filepath.Join(slug1, "with-agents"), 0o755)
	os.Symlink(filepath.Join(outside, "agents"), filepath.Join(slug1, "with-agents", "subagents"))

	out, errOut, code := run(t, w.env, "", "import")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"fifo.jsonl: is a FIFO", "linked.jsonl: is a symbolic link (refused",
		"-linked-folder: a symbolic link, never followed", "is the home folder", "is in the temporary folder",
		"is not a repository (no .git)", gone + ": 1 sessions · folder gone: not imported", "1 captured by the hooks"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	memory := allMemory(t, work)
	for _, bad := range []string{"EVILLINK", "EVILDIR", "EVILSUB", "NOWHERE", "GONETURN", "TRIVIALWORDS"} {
		if strings.Contains(memory, bad) {
			t.Errorf("%s reached a daily file", bad)
		}
	}
	filepath.WalkDir(filepath.Join(w.dir, "state"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(testfile.Read(t, p), "TRIVIALWORDS") {
			t.Errorf("the state dir keeps a trivial session's words in %s", p)
		}
		return nil
	})
	for _, dir := range []string{gone, filepath.Join(w.home, ".claude", "memory_short"), filepath.Join(tmpRepo, ".claude"), filepath.Join(plain, ".claude"), filepath.Join(p2, ".claude")} {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("the import made %s", dir)
		}
	}
	after := w.daily(t)
	all := strings.Join(values(after), "")
	if n := strings.Count(all, "session e2e-sess"); n != capturedSections {
		t.Errorf("the captured session has %d sections after the import, %d before", n, capturedSections)
	}
	for _, want := range []string{"Add the NEWTURN flag", "AFTERGIANT one", "AGENTS one"} {
		if strings.Count(all, want) != 1 {
			t.Errorf("%q is %d times in the daily files, want once", want, strings.Count(all, want))
		}
	}

	// The gone project, kept in the archive the person names.
	archive := filepath.Join(w.dir, "desk", "archive")
	out, _, code = run(t, w.env, "", "import", "--archive", archive)
	if code != 0 {
		t.Fatalf("import --archive: exit %d\n%s", code, out)
	}
	if kept := allMemory(t, filepath.Join(archive, "-"+strings.ReplaceAll(strings.Trim(gone, "/"), "/", "-"))); !strings.Contains(kept, "Rename GONETURN") {
		t.Errorf("the archive lacks the gone project's session:\n%s", out)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("the import made the gone folder %s", gone)
	}
	if again := w.daily(t); strings.Join(values(again), "") != all {
		t.Errorf("the second run changed the projects' daily files")
	}
}

func values(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// TestImportDryRunSaysWhatItWouldWrite: --dry-run writes nothing — no
// daily file, no session state, no registry — and names what the real
// run then writes, project by project; --project and --since narrow the
// import to one project and to recent sessions; a terminal sees the
// progress, anything else only the report.
func TestImportDryRunSaysWhatItWouldWrite(t *testing.T) {
	w := newWorld(t, t.TempDir())
	day := time.Date(2026, 10, 5, 9, 0, 0, 0, time.UTC)
	p0, p1 := w.project(0), w.project(1)
	for i, cwd := range []string{p0, p0, p1} {
		id := fmt.Sprintf("s%d", i)
		writeSession(t, filepath.Join(w.projects(), importtest.Slug(cwd), id+".jsonl"), id, cwd, day.AddDate(0, 0, i*10), "Add flag "+id, "Test flag "+id, "Ship "+id)
	}
	_, errOut, code := run(t, w.env, "", "import", "--from", filepath.Join(w.dir, "none"))
	if code != 1 || !strings.Contains(errOut, "no such file") || !strings.Contains(errOut, "hint: Claude Code keeps its transcripts there") {
		t.Errorf("import from a folder that does not exist: exit %d\n%s", code, errOut)
	}
	out, errOut, code := run(t, w.env, "", "import", "--dry-run", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	var dry importer.Report
	if err := json.Unmarshal([]byte(out), &dry); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(p0, ".claude"), filepath.Join(p1, ".claude"), filepath.Join(w.dir, "state", "sessions"), filepath.Join(w.dir, "desk")} {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("the dry run made %s", dir)
		}
	}
	if _, _, sections, files := dry.Totals(); !dry.DryRun || sections != 3 || files != 3 {
		t.Fatalf("the dry run says %d sections in %d files, want 3 in 3:\n%s", sections, files, out)
	}

	// One project, recent sessions only.
	out, _, code = run(t, w.env, "", "import", "--project", filepath.Join(p0, "sub", ".."), "--since", "2026-10-10", "--json")
	var one importer.Report
	if code != 0 || json.Unmarshal([]byte(out), &one) != nil {
		t.Fatalf("import --project --since: exit %d\n%s", code, out)
	}
	if _, replayed, _, _ := one.Totals(); replayed != 1 || len(one.Projects) != 1 || one.Projects[0].Path != p0 {
		t.Fatalf("--project p0 --since 2026-10-10 replayed %d sessions of %d projects:\n%s", replayed, len(one.Projects), out)
	}
	if _, err := os.Stat(filepath.Join(p1, ".claude")); err == nil {
		t.Errorf("--project p0 wrote into p1")
	}

	// The rest, on a terminal: the progress line, then the report; the
	// files are those the dry run named.
	var stdout, stderr strings.Builder
	sys := factory.System{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(k string) string { return w.env[k] },
		Now: func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) }, Terminal: true}
	if code := Main([]string{"import"}, sys); code != 0 {
		t.Fatalf("import: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "\rimport: ") || !strings.Contains(stderr.String(), "left") {
		t.Errorf("no progress on the terminal: %q", stderr.String())
	}
	var named []string
	for _, p := range dry.Projects {
		named = append(named, p.Files...)
	}
	sort.Strings(named)
	written, _ := filepath.Glob(filepath.Join(w.dir, "p", "*", ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(written)
	if strings.Join(named, "\n") != strings.Join(written, "\n") {
		t.Errorf("the dry run named\n%s\nthe imports wrote\n%s", strings.Join(named, "\n"), strings.Join(written, "\n"))
	}
}

// TestImportCallsNoModelUnlessAsked: with the claude distiller chosen in
// the settings, an import still calls no model; with --distiller claude it
// calls it within the day's budget (the real day, not the sessions'), the
// other sections extractive.
func TestImportCallsNoModelUnlessAsked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	for _, asked := range []bool{false, true} {
		w := newWorld(t, t.TempDir())
		calls := filepath.Join(w.dir, "calls")
		w.env["CEREBRO_DISTILLER_KIND"] = "claude"
		w.env["CEREBRO_DISTILLER_DAILY_BUDGET"] = "1"
		w.env["CEREBRO_DISTILLER_COMMAND"] = standInClaude(t, &hookEnv{env: w.env},
			"echo call >> "+calls+"\nprintf '### Asked\\n- CLAUDE-DISTILLED the question\\n'\n")
		p0 := w.project(0)
		for i := 0; i < 3; i++ {
			id := fmt.Sprintf("s%d", i)
			writeSession(t, filepath.Join(w.projects(), importtest.Slug(p0), id+".jsonl"), id, p0,
				time.Date(2026, 9, 1+i, 9, 0, 0, 0, time.UTC), "Add flag "+id, "Test flag "+id, "Ship "+id)
		}
		args := []string{"import"}
		if asked {
			args = append(args, "--distiller", "claude")
		}
		if out, code := (&hookEnv{env: w.env}).proc(t, "", nil, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		memory := allMemory(t, p0)
		n := strings.Count(memory, "CLAUDE-DISTILLED")
		made, _ := os.ReadFile(calls)
		budget, _ := filepath.Glob(filepath.Join(w.dir, "state", "distiller", "budget-*[0-9]"))
		switch {
		case !asked && (n != 0 || len(made) != 0 || len(budget) != 0):
			t.Errorf("an import not asked for the model called it: %d sections, calls %q, budget files %v", n, made, budget)
		case asked && (n != 1 || strings.Count(string(made), "call") != 1 || len(budget) != 1 || !strings.HasSuffix(budget[0], time.Now().Format(time.DateOnly))):
			t.Errorf("--distiller claude with a budget of 1: %d claude sections, calls %q, budget files %v (want today's)", n, made, budget)
		}
		if got := strings.Count(memory, "\n## "); got != 3 {
			t.Errorf("%d sections, want 3 (the rest extractive)", got)
		}
	}
}
