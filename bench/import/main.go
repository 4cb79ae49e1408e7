// Command import measures `memhook import` over a generated
// ~/.claude/projects of a heavy user: the dev transcripts of
// ../shared/fixtures, each in its project, and copies of every fixture
// session (subagents of both layouts, compactions) spread over months in
// other projects, up to -sessions in -projects, plus one transcript of
// -big MB with lines of several MB and one of 2 GB whose first line is
// followed by zeros (a sparse file). It prints the
// import's time, peak RSS, sessions per second and what it wrote; replays
// the dev transcripts through the hooks (one process per event, the clock
// set by CEREBRO_NOW, the transcript growing as Claude Code writes it) in
// the same run and counts the daily sections equal to the import's; and
// runs the import a second time, which must write nothing. Run it through
// bench/import/run.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/bench/internal/hookreplay"
	"github.com/cerebro-mem/cerebro/bench/internal/rss"
	"github.com/cerebro-mem/cerebro/bench/internal/workdir"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer/importtest"
)

var (
	bin      = flag.String("bin", "bin/memhook", "memhook binary")
	hotBin   = flag.String("hot", "", "memhook-hot beside -bin, for the live replay's per-turn hooks")
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts")
	factsF   = flag.String("facts", "../shared/bench/distill-facts-dev.json", "the dev transcripts")
	sessions = flag.Int("sessions", 2000, "sessions in the generated folder")
	projects = flag.Int("projects", 40, "projects in the generated folder")
	bigMB    = flag.Int("big", 100, "size of the one large transcript, MB")
	keep     = flag.String("out", "", "keep the work folder here")
)

func main() {
	flag.Parse()
	work, err := workdir.Fixed("cerebro-import-")
	check(err)
	defer os.RemoveAll(work)
	imp, live, devOnly := newWorld(filepath.Join(work, "a")), newWorld(filepath.Join(work, "b")), newWorld(filepath.Join(work, "c"))

	dev := devTranscripts()
	gen := generate(imp, live, devOnly, dev)
	fmt.Printf("generated %d sessions (%d dev) in %d projects, %s of transcripts, load %s\n",
		gen.sessions, len(dev), *projects, size(gen.bytes), load())

	// The baseline, on the dev transcripts alone: the hooks live (a
	// process per event) against an import of the same sessions.
	start := time.Now()
	for _, s := range gen.live {
		live.relive(s.src, s.cwd)
	}
	liveTime := time.Since(start)
	devImport := devOnly.importRun()
	replay := devImport.wall.Seconds() - devImport.rep.IndexSeconds
	fmt.Printf("the %d dev sessions: through the hooks live %s; imported %s, of which %.1fs indexing (the replay %.1f× as fast as the hooks), load %s\n",
		len(gen.live), liveTime.Round(time.Millisecond), devImport.wall.Round(time.Millisecond), devImport.rep.IndexSeconds,
		liveTime.Seconds()/replay, load())

	first := imp.importRun()
	fmt.Printf("import: %s (CPU %s; indexing %.1fs), peak RSS %d MB, %.1f sessions/s, load %s\n", first.wall.Round(time.Millisecond),
		first.cpu.Round(time.Millisecond), first.rep.IndexSeconds, first.rssKB>>10, float64(gen.sessions)/first.wall.Seconds(), load())
	_, replayed, sections, files := first.rep.Totals()
	fmt.Printf("  replayed %d sessions, wrote %d sections in %d daily files; %d failed; skipped: %s\n",
		replayed, sections, files, len(first.rep.Failed), reasons(first.rep.Skipped))
	for _, f := range first.rep.Failed {
		fmt.Printf("  failed %s: %s\n", f.Path, f.Reason)
	}

	equal, total, differ := compare(imp, live, gen.devProjects)
	fmt.Printf("dev sections equal to the hooks' live: %d of %d", equal, total)
	if len(differ) > 0 {
		fmt.Printf("; daily files that differ: %s", strings.Join(differ, ", "))
	}
	fmt.Println()

	before := imp.fingerprint()
	second := imp.importRun()
	_, replayed, sections, _ = second.rep.Totals()
	changed := imp.fingerprint().changes(before)
	fmt.Printf("second import: %s, replayed %d sessions, wrote %d sections; files changed: %d%s\n",
		second.wall.Round(time.Millisecond), replayed, sections, len(changed), list(changed))
	if *keep != "" {
		check(workdir.CopyTree(work, *keep))
	}
}

// world is a home with its desk, state dir and projects.
type world struct {
	dir, home string
	env       []string
}

func newWorld(dir string) *world {
	w := &world{dir: dir, home: filepath.Join(dir, "home")}
	check(os.MkdirAll(filepath.Join(w.home, ".claude", "projects"), 0o755))
	check(os.MkdirAll(filepath.Join(dir, "tmp"), 0o755))
	w.env = append(os.Environ(), "HOME="+w.home, "CEREBRO_STATE_DIR="+filepath.Join(dir, "state"),
		"CEREBRO_HOME="+filepath.Join(dir, "desk"), "CEREBRO_CONFIG="+filepath.Join(dir, "none.toml"),
		"TMPDIR="+filepath.Join(dir, "tmp"), "CLAUDE_CONFIG_DIR=", "CEREBRO_HOOK_DEADLINE_MS=60000")
	return w
}

func (w *world) projects() string { return filepath.Join(w.home, ".claude", "projects") }

// project is the repository of project n; the worlds' paths have one
// length, so a transcript moved into either has the same offsets.
func (w *world) project(n int) string {
	p := filepath.Join(w.dir, "p", fmt.Sprintf("p%02d", n))
	check(os.MkdirAll(filepath.Join(p, ".git"), 0o755))
	return p
}

type liveSession struct{ src, cwd string }

type generated struct {
	sessions    int
	bytes       int64
	live        []liveSession
	devProjects []int
}

// generate lays the folder out: the dev transcripts in projects of their
// own (in both worlds: the live one gets them as sources to relive), the
// copies of every fixture session in the other projects, the large
// transcript and the sparse file.
func generate(imp, live, devOnly *world, dev []string) generated {
	var g generated
	byCwd := map[string]int{}
	for _, f := range dev {
		cwd := firstCwd(f)
		n, ok := byCwd[cwd]
		if !ok {
			n = len(byCwd)
			byCwd[cwd] = n
			g.devProjects = append(g.devProjects, n)
		}
		p, err := importtest.Place(f, imp.projects(), importtest.Placement{Cwd: imp.project(n)})
		check(err)
		src, err := importtest.Place(f, filepath.Join(live.dir, "src"), importtest.Placement{Cwd: live.project(n)})
		check(err)
		_, err = importtest.Place(f, devOnly.projects(), importtest.Placement{Cwd: devOnly.project(n)})
		check(err)
		g.live = append(g.live, liveSession{src, live.project(n)})
		g.sessions++
		g.bytes += fileSize(p)
	}
	sort.Slice(g.live, func(i, j int) bool { return firstStamp(g.live[i].src).Before(firstStamp(g.live[j].src)) })
	all := mainTranscripts()
	first := len(byCwd)
	base := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	for i := 0; g.sessions < *sessions-1; i++ {
		f := all[i%len(all)]
		n := first + i%(*projects-first)
		at := base.Add(time.Duration(i) * 97 * time.Minute)
		shift := at.Sub(firstStamp(f)).Round(time.Second)
		p, err := importtest.Place(f, imp.projects(), importtest.Placement{Cwd: imp.project(n),
			ID: fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i), Agents: fmt.Sprintf("-c%d", i), Shift: shift})
		check(err)
		if i == 0 && *bigMB > 0 {
			grow(p, *bigMB)
		}
		g.sessions++
		g.bytes += fileSize(p)
	}
	// A session's first line, then 2 GB of zeros without a line end,
	// taking no disk: read through within the line bound.
	cwd := imp.project(first)
	sparse := filepath.Join(imp.projects(), importtest.Slug(cwd), "00000000-0000-4000-8000-5a5a5a5a5a5a.jsonl")
	old := base.AddDate(0, -1, 0)
	line := fmt.Sprintf(`{"type":"user","sessionId":"00000000-0000-4000-8000-5a5a5a5a5a5a","cwd":%q,"timestamp":%q,"message":{"role":"user","content":"and then the file was zeros"}}`+"\n",
		cwd, old.Format(time.RFC3339Nano))
	check(os.WriteFile(sparse, []byte(line), 0o644))
	check(os.Truncate(sparse, 2<<30))
	check(os.Chtimes(sparse, old, old))
	g.sessions++
	return g
}

// grow makes a session's transcript about mb MB: turns that read files of
// 2 MB each, as a session reading logs or images does.
func grow(path string, mb int) {
	data, err := os.ReadFile(path)
	check(err)
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	var last map[string]any
	check(json.Unmarshal(lines[len(lines)-1], &last))
	at, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(last["timestamp"]))
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	check(err)
	body := strings.Repeat("log line with some text in it\n", (2<<20)/30)
	for i := 0; fileSize(path) < int64(mb)<<20; i++ {
		at = at.Add(time.Minute)
		ts := at.Format(time.RFC3339Nano)
		id := fmt.Sprintf("big-%d", i)
		fmt.Fprintf(f, `{"type":"user","sessionId":%q,"cwd":%q,"timestamp":%q,"uuid":"%s-u","message":{"role":"user","content":"read log %d"}}`+"\n",
			last["sessionId"], last["cwd"], ts, id, i)
		fmt.Fprintf(f, `{"type":"assistant","sessionId":%q,"cwd":%q,"timestamp":%q,"uuid":"%s-a","message":{"id":"%s-m","role":"assistant","content":[{"type":"tool_use","id":"%s-t","name":"Read","input":{"file_path":"log%d.txt"}}]}}`+"\n",
			last["sessionId"], last["cwd"], ts, id, id, id, i)
		res, _ := json.Marshal(body)
		fmt.Fprintf(f, `{"type":"user","sessionId":%q,"cwd":%q,"timestamp":%q,"uuid":"%s-r","toolUseResult":{"type":"text"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s-t","content":%s}]}}`+"\n",
			last["sessionId"], last["cwd"], ts, id, id, res)
		fmt.Fprintf(f, `{"type":"assistant","sessionId":%q,"cwd":%q,"timestamp":%q,"uuid":"%s-b","message":{"id":"%s-n","role":"assistant","content":[{"type":"text","text":"Log %d has nothing unusual."}]}}`+"\n",
			last["sessionId"], last["cwd"], ts, id, id, i)
	}
	f.Close()
	check(os.Chtimes(path, at, at))
}

// relive plays a dev session through the hooks, a process per event.
func (w *world) relive(src, cwd string) {
	id := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	dst := filepath.Join(w.projects(), importtest.Slug(cwd), id+".jsonl")
	check(importtest.Relive(src, dst, func(st importer.Step) error {
		prog, args := hookreplay.Command(*bin, *hotBin, st.Event)
		cmd := exec.Command(prog, args...)
		cmd.Env = append(w.env, "CEREBRO_NOW="+st.At.Format(time.RFC3339Nano))
		cmd.Stdin, cmd.Dir = bytes.NewReader(hookreplay.Input(id, cwd, dst, st.Event, st.Fields()...)), cwd
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("hook %s: %v\n%s", st.Event, err, out)
		}
		return nil
	}))
}

type importResult struct {
	wall  time.Duration
	cpu   time.Duration
	rssKB int64
	rep   importer.Report
}

func (w *world) importRun() importResult {
	cmd := exec.Command(*bin, "import", "--json")
	cmd.Env = w.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := importResult{wall: time.Since(start)}
	if err != nil {
		fmt.Fprintf(os.Stderr, "import: %v\n%s", err, errb.String())
	}
	r.rssKB = rss.PeakKB(cmd.ProcessState)
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	check(json.Unmarshal(out.Bytes(), &r.rep))
	return r
}

// compare counts the dev projects' sections equal in both worlds, file by
// file (each world's folder named alike).
func compare(imp, live *world, devProjects []int) (equal, total int, differ []string) {
	for _, n := range devProjects {
		want := daily(live, n)
		got := daily(imp, n)
		for name, text := range want {
			secs := sections(text)
			total += len(secs)
			if got[name] == text {
				equal += len(secs)
				continue
			}
			differ = append(differ, fmt.Sprintf("p%02d/%s", n, name))
			have := map[string]bool{}
			for _, s := range sections(got[name]) {
				have[s] = true
			}
			for _, s := range secs {
				if have[s] {
					equal++
				}
			}
		}
	}
	return equal, total, differ
}

func daily(w *world, n int) map[string]string {
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(w.project(n), ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		out[filepath.Base(f)] = strings.ReplaceAll(string(data), w.dir, "<world>")
	}
	return out
}

// sections splits a daily file at its section headings.
func sections(text string) []string {
	parts := strings.Split(text, "\n## ")
	if len(parts) < 2 {
		return nil
	}
	return parts[1:]
}

// fingerprint is every file under the projects' memory and the state
// dir, with its content's hash.
type fingerprint map[string][32]byte

func (w *world) fingerprint() fingerprint {
	fp := fingerprint{}
	for _, root := range []string{filepath.Join(w.dir, "p"), filepath.Join(w.dir, "state"), filepath.Join(w.dir, "desk")} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.Contains(p, string(filepath.Separator)+"locks"+string(filepath.Separator)) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil {
				fp[p] = sha256.Sum256(data)
			}
			return nil
		})
	}
	return fp
}

func (fp fingerprint) changes(before fingerprint) []string {
	var out []string
	for p, h := range fp {
		if before[p] != h {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := fp[p]; !ok {
			out = append(out, p+" (gone)")
		}
	}
	sort.Strings(out)
	return out
}

// reasons counts the skipped files by why.
func reasons(skipped []importer.Skipped) string {
	count := map[string]int{}
	for _, s := range skipped {
		why := s.Reason
		if i := strings.Index(why, " ("); i > 0 {
			why = why[:i]
		}
		count[why]++
	}
	var out []string
	for why, n := range count {
		out = append(out, fmt.Sprintf("%d %s", n, why))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

func list(files []string) string {
	if len(files) == 0 {
		return ""
	}
	if len(files) > 5 {
		files = append(files[:5], "…")
	}
	return " (" + strings.Join(files, ", ") + ")"
}

func devTranscripts() []string {
	data, err := os.ReadFile(*factsF)
	check(err)
	var facts struct {
		Transcripts []struct{ File string } `json:"transcripts"`
	}
	check(json.Unmarshal(data, &facts))
	var out []string
	for _, t := range facts.Transcripts {
		out = append(out, filepath.Join(*fixtures, t.File))
	}
	return out
}

// mainTranscripts are the fixture sessions (not subagent files).
func mainTranscripts() []string {
	files, err := filepath.Glob(filepath.Join(*fixtures, "*.jsonl"))
	check(err)
	var out []string
	for _, f := range files {
		if !strings.Contains(filepath.Base(f), "__agent-") && !strings.Contains(filepath.Base(f), "__subagents__") {
			out = append(out, f)
		}
	}
	return out
}

func firstCwd(path string) string {
	data, err := os.ReadFile(path)
	check(err)
	for _, line := range bytes.Split(data, []byte("\n")) {
		var v struct{ Cwd string }
		if json.Unmarshal(line, &v) == nil && v.Cwd != "" {
			return v.Cwd
		}
	}
	return ""
}

func firstStamp(path string) time.Time {
	data, err := os.ReadFile(path)
	check(err)
	for _, line := range bytes.Split(data, []byte("\n")) {
		var v struct{ Timestamp time.Time }
		if json.Unmarshal(line, &v) == nil && !v.Timestamp.IsZero() {
			return v.Timestamp
		}
	}
	return time.Time{}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	check(err)
	return fi.Size()
}

func size(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
}

// load is the machine's load average over the last minute.
func load() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/import:", err)
		os.Exit(1)
	}
}
