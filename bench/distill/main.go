// Command distill measures what short-term memory keeps of real sessions:
// it replays each fixture transcript through the hooks (one memhook process
// per event, the transcript growing line by line and lagging the hooks as
// Claude Code's does) into a fresh project and state dir, takes what the
// next session's SessionStart injects, and scores it with the shared
// scorer against the sessions' key facts, next to the reference points
// computed from the same transcripts in the same run. Run it through
// bench/distill/run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cerebro-mem/cerebro/bench/internal/hookreplay"
	"github.com/cerebro-mem/cerebro/bench/internal/workdir"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

var (
	bin       = flag.String("bin", "bin/memhook", "memhook binary to replay through")
	hotBin    = flag.String("hot", "", "memhook-hot beside -bin: the per-turn hooks go through it, as scripts/memhook routes them")
	fixtures  = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts")
	facts     = flag.String("facts", "../shared/bench/distill-facts-dev.json", "key facts of the transcripts")
	staleF    = flag.String("stale", "bench/distill/stale-dev.json", "stale claims of the -facts sessions, keyed by transcript")
	fixtures2 = flag.String("fixtures2", "", "the second dev set's transcripts (bench/distill/SOURCES.md says where they come from); empty: not run")
	facts2    = flag.String("facts2", "bench/distill/facts-set2.json", "key facts, false and stale claims of the second dev set")
	scorer    = flag.String("scorer", "../shared/bench/distill_score.py", "the per-fact scorer")
	truthPy   = flag.String("truth", "../shared/bench/distill_truth.py", "the report: recall, the prompts+final baseline, false claims")
	keep      = flag.String("out", "", "keep the memory texts in this directory (default: a temporary one)")
	capChars  = flag.Int("cap", 9000, "inject.max_chars the replay runs with")
	distill   = flag.String("distiller", "extractive", "distiller.kind")
)

// floor is how far under the prompts + final message baseline a session
// may score (#40: every session at least the baseline minus 0.02).
const floor = 0.02

func main() {
	flag.Parse()
	work, err := workdir.Fixed("cerebro-distill-")
	check(err)
	defer os.RemoveAll(work)
	out := *keep
	if out == "" {
		out = filepath.Join(work, "out")
	}
	files, injectDir := runSet(work, filepath.Join(out, "set1"), "dev set 1 ("+filepath.Base(*facts)+")", *fixtures, *facts, *staleF, true)
	sets := []auditSet{{"real sessions, dev set 1", *fixtures, files, injectDir}}
	if *fixtures2 != "" {
		fmt.Println()
		files2, injectDir2 := runSet(work, filepath.Join(out, "set2"), "dev set 2 ("+filepath.Base(*facts2)+")", *fixtures2, *facts2, "", false)
		sets = append(sets, auditSet{"real sessions, dev set 2", *fixtures2, files2, injectDir2})
	} else {
		fmt.Println("\ndev set 2 not run: pass -fixtures2 DIR (bench/distill/SOURCES.md)")
	}
	secondCheck(work, out, sets)
	if *keep == "" {
		fmt.Println("(per-fact detail: run with -out DIR, then", *scorer, "FACTS --dir DIR/set1/inject)")
	}
}

// runSet replays one set's transcripts and prints its report; it returns
// the transcripts replayed and the folder of their injects.
func runSet(work, out, title, fixturesDir, factsPath, stalePath string, halvesOK bool) ([]string, string) {
	data, err := os.ReadFile(factsPath)
	check(err)
	var doc struct {
		Transcripts []json.RawMessage `json:"transcripts"`
	}
	check(json.Unmarshal(data, &doc))
	dirs := map[string]string{}
	for _, k := range []string{"inject", "last", "dialogue", "daily"} {
		dirs[k] = filepath.Join(out, k)
		check(os.MkdirAll(dirs[k], 0o755))
	}
	var files []string
	stale := map[string][]claim{}
	for _, raw := range doc.Transcripts {
		var t struct {
			File  string  `json:"file"`
			Stale []claim `json:"stale_claims"`
		}
		check(json.Unmarshal(raw, &t))
		files = append(files, t.File)
		stale[t.File] = t.Stale
	}
	if stalePath != "" {
		sdata, err := os.ReadFile(stalePath)
		check(err)
		var sdoc struct {
			Transcripts map[string][]claim `json:"transcripts"`
		}
		check(json.Unmarshal(sdata, &sdoc))
		for f, cs := range sdoc.Transcripts {
			if !slices.Contains(files, f) {
				check(fmt.Errorf("%s: stale claims of %s, which %s does not hold", stalePath, f, factsPath))
			}
			stale[f] = append(stale[f], cs...)
		}
	}
	fmt.Println("== " + title)
	allWithin := true
	sections := map[string]int{}
	staleMade := map[string][]string{}
	for _, name := range files {
		file := filepath.Join(fixturesDir, name)
		stem := strings.TrimSuffix(name, ".jsonl")
		lines, err := hookreplay.ReadLines(file)
		check(err)
		inject, n, written := replayDaily(work, file, lines)
		sections[stem] = n
		check(os.WriteFile(filepath.Join(dirs["daily"], stem+".txt"), []byte(written), 0o644))
		if len([]rune(inject)) > *capChars {
			allWithin = false
			fmt.Printf("over the cap: %s (%d characters)\n", stem, len([]rune(inject)))
		}
		check(os.WriteFile(filepath.Join(dirs["inject"], stem+".txt"), []byte(inject), 0o644))
		for _, c := range stale[name] {
			if c.madeIn(inject) {
				staleMade[name] = append(staleMade[name], c.Claim)
			}
		}
		last, dialogue := references(lines)
		check(os.WriteFile(filepath.Join(dirs["last"], stem+".txt"), []byte(last), 0o644))
		check(os.WriteFile(filepath.Join(dirs["dialogue"], stem+".txt"), []byte(dialogue), 0o644))
	}
	// The first set's two collections (its README): the first nine
	// sessions, then eight added later. Rules are tuned on one and
	// checked on the other; each is reported on its own.
	halves := []struct {
		name    string
		entries []json.RawMessage
	}{{"all", doc.Transcripts}}
	if halvesOK && len(doc.Transcripts) > firstCollection {
		halves = append(halves,
			struct {
				name    string
				entries []json.RawMessage
			}{"first nine", doc.Transcripts[:firstCollection]},
			struct {
				name    string
				entries []json.RawMessage
			}{"added eight", doc.Transcripts[firstCollection:]})
	}
	reports := map[string]map[string]truth{} // half → text → report
	for _, h := range halves {
		path := filepath.Join(out, "facts-"+strings.ReplaceAll(h.name, " ", "-")+".json")
		sub := map[string]any{"transcripts": h.entries}
		b, err := json.Marshal(sub)
		check(err)
		check(os.WriteFile(path, b, 0o644))
		reports[h.name] = map[string]truth{}
		for _, k := range []string{"inject", "last", "dialogue", "daily"} {
			reports[h.name][k] = scoreIn(path, fixturesDir, dirs[k])
		}
	}
	all := reports["all"]
	first := map[string]bool{}
	for i, name := range files {
		if i < firstCollection && halvesOK {
			first[name] = true
		}
	}
	// distill_truth.py lists its sessions sorted by file name: so are these.
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	bySession := map[int]int{}
	full := map[int]string{}
	for i, name := range sorted {
		stem := strings.TrimSuffix(name, ".jsonl")
		bySession[i], full[i] = sections[stem], stem
		if i < len(all["inject"].Sessions) && all["inject"].Sessions[i].File != short(name) {
			check(fmt.Errorf("distill_truth.py lists %s where %s was expected", all["inject"].Sessions[i].File, short(name)))
		}
	}
	fmt.Printf("%-40s %5s %6s %6s %6s %6s %6s %5s %5s %5s %s\n", "session", "half", "inject", "daily", "prompt", "last", "whole", "false", "stale", "chars", "sections")
	below := map[string]int{}
	for i, s := range all["inject"].Sessions {
		half := "2nd"
		if first[sorted[i]] || !halvesOK {
			half = "1st"
		}
		nStale := len(staleMade[sorted[i]])
		if s.Trivial {
			fmt.Printf("%-40.40s %5s %6s %6s %6s %6s %6s %5d %5d %5d %d (trivial: must inject nothing)\n", label(full[i]), half, "-", "-", "-", "-", "-", s.FalseClaims, nStale, s.Chars, bySession[i])
			continue
		}
		mark := ""
		if s.Inject != nil && s.Baseline != nil && *s.Inject < *s.Baseline-floor {
			mark = fmt.Sprintf("  < prompts+final − %.2f", floor)
			below["all"]++
			if first[sorted[i]] {
				below["first nine"]++
			} else {
				below["added eight"]++
			}
		}
		fmt.Printf("%-40.40s %5s %6s %6s %6s %6s %6s %5d %5d %5d %d%s\n", label(full[i]), half, f2(s.Inject), f2(all["daily"].Sessions[i].Inject), f2(s.Baseline),
			f2(all["last"].Sessions[i].Inject), f2(all["dialogue"].Sessions[i].Inject), s.FalseClaims, nStale, s.Chars, bySession[i], mark)
	}
	fmt.Println()
	fmt.Printf("%-12s %7s %7s %7s %7s %7s %7s  %s\n", "sessions", "inject", "daily", "prompts", "last", "whole", "scored", "below baseline−0.02 / false claims / stale claims / trivial that injected")
	for _, h := range halves {
		r := reports[h.name]
		nStale := 0
		for _, raw := range h.entries {
			var t struct {
				File string `json:"file"`
			}
			check(json.Unmarshal(raw, &t))
			nStale += len(staleMade[t.File])
		}
		fmt.Printf("%-12s %7.2f %7.2f %7.2f %7.2f %7.2f %7d  %d / %d / %d / %d\n", h.name, r["inject"].Recall, r["daily"].Recall, r["inject"].Baseline,
			r["last"].Recall, r["dialogue"].Recall, r["inject"].Scored, below[h.name], len(r["inject"].FalseClaims), nStale, len(r["inject"].TrivialInjected))
	}
	for _, fc := range all["inject"].FalseClaims {
		fmt.Printf("false claim in %v\n", fc)
	}
	for _, name := range files {
		for _, c := range staleMade[name] {
			fmt.Printf("stale claim in %s: %s\n", label(strings.TrimSuffix(name, ".jsonl")), c)
		}
	}
	fmt.Printf("every inject within the %d-character cap: %v\n", *capChars, allWithin)
	fmt.Println("(inject: the next SessionStart's; daily: every section the session wrote, as the daily file holds them;")
	fmt.Println(" prompts: every prompt cut to 600 characters + the last assistant message;")
	fmt.Println(" last: the last assistant message alone; whole: the whole dialogue without tool I/O — all scored by", filepath.Base(*truthPy)+";")
	fmt.Println(" stale: statements the session itself later made untrue, counted by this bench)")
	return files, dirs["inject"]
}

// claim is a false or stale claim: a statement in words and the keyword
// groups that find it in a text, as the facts file reads them.
type claim struct {
	Claim string     `json:"claim"`
	AnyOf [][]string `json:"any_of"`
}

// madeIn reports whether text makes the claim: every group has one of
// its alternatives in it (case-insensitive, whitespace collapsed), as
// distill_score.py matches a fact.
func (c claim) madeIn(text string) bool {
	t := normText(text)
	for _, g := range c.AnyOf {
		found := false
		for _, k := range g {
			if strings.Contains(t, normText(k)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(c.AnyOf) > 0
}

func normText(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// auditSet is one set's real sessions, for the grounding audit.
type auditSet struct {
	what, fixtures string
	files          []string
	injectDir      string
}

// secondCheck replays the synthetic sessions of each failure class and
// scores them the same way, then audits every inject — the real sessions',
// the synthetic ones' and the subagent transcripts replayed as sessions of
// their own — against the tool results of its session.
func secondCheck(work, out string, sets []auditSet) {
	synDir := filepath.Join(work, "synthetic")
	synFacts, synFiles := writeSynthetics(synDir, synthetics())
	synOut := filepath.Join(out, "synthetic")
	check(os.MkdirAll(synOut, 0o755))
	injects := map[string]string{}
	for _, f := range synFiles {
		path := filepath.Join(synDir, f)
		inj, _ := replay(work, path, mustLines(path))
		injects[f] = inj
		check(os.WriteFile(filepath.Join(synOut, strings.TrimSuffix(f, ".jsonl")+".txt"), []byte(inj), 0o644))
	}
	r := scoreIn(synFacts, synDir, synOut)
	fmt.Println()
	fmt.Println("Second check: synthetic sessions of each failure class (bench/distill/synthetic.go), scored the same way")
	for _, s := range r.Sessions {
		name := strings.TrimPrefix(s.File, "synthetic__")
		if s.Trivial {
			fmt.Printf("  %-24s trivial: injected %d characters (must be 0)\n", name, s.Chars)
			continue
		}
		fmt.Printf("  %-24s recall %s  false claims %d\n", name, f2(s.Inject), s.FalseClaims)
	}
	fmt.Printf("  %d sessions scored: recall %.2f (prompts + final message %.2f), false claims %d, trivial that injected %d\n",
		r.Scored, r.Recall, r.Baseline, len(r.FalseClaims), len(r.TrivialInjected))
	for _, fc := range r.FalseClaims {
		fmt.Printf("  false claim in %v\n", fc)
	}

	// The audit.
	type audited struct {
		what    string
		n       int
		unfound []string
	}
	var rows []audited
	for _, set := range sets {
		real := audited{what: set.what}
		for _, f := range set.files {
			data, err := os.ReadFile(filepath.Join(set.injectDir, strings.TrimSuffix(f, ".jsonl")+".txt"))
			check(err)
			n, bad := audit(string(data), readEvidence(sessionFiles(set.fixtures, f)))
			real.n += n
			for _, b := range bad {
				real.unfound = append(real.unfound, label(strings.TrimSuffix(f, ".jsonl"))+": "+b)
			}
		}
		rows = append(rows, real)
	}
	syn := audited{what: "synthetic sessions"}
	for _, f := range synFiles {
		n, bad := audit(injects[f], readEvidence(sessionFiles(synDir, f)))
		syn.n += n
		for _, b := range bad {
			syn.unfound = append(syn.unfound, f+": "+b)
		}
	}
	sub := audited{what: "subagent transcripts replayed as sessions"}
	agents, _ := filepath.Glob(filepath.Join(*fixtures, "*agent-*.jsonl"))
	subDir := filepath.Join(work, "agents-as-sessions")
	check(os.MkdirAll(subDir, 0o755))
	replayed := 0
	for i, a := range agents {
		if strings.Contains(filepath.Base(a), "agent-acompact") {
			continue
		}
		// A name of its own, so that no other file passes for its
		// subagent.
		path := filepath.Join(subDir, fmt.Sprintf("agent-as-session-%d.jsonl", i))
		asSession(a, path)
		inj, _ := replay(work, path, mustLines(path))
		if strings.TrimSpace(inj) != "" {
			replayed++
		}
		n, bad := audit(inj, readEvidence([]string{a}))
		sub.n += n
		for _, b := range bad {
			sub.unfound = append(sub.unfound, filepath.Base(a)+": "+b)
		}
	}
	rows = append(rows, syn, sub)
	fmt.Println()
	fmt.Println("Grounding audit: each commit hash, changed file, test verdict and push range an inject states, looked up in its session's tool results")
	for _, row := range rows {
		fmt.Printf("  %-42s %4d claims checked, %d not found\n", row.what, row.n, len(row.unfound))
		for _, u := range row.unfound {
			fmt.Println("    not found:", u)
		}
	}
	fmt.Printf("  (%d of %d subagent transcripts injected something)\n", replayed, len(agents))
}

// asSession rewrites a subagent's transcript as a main session's: its
// lines stop being sidechain lines.
func asSession(src, dst string) {
	data, err := os.ReadFile(src)
	check(err)
	out := bytes.ReplaceAll(data, []byte(`"isSidechain":true`), []byte(`"isSidechain":false`))
	check(os.WriteFile(dst, out, 0o644))
}

// label names a session by its project folder's last word and the
// start of its file's own name: "JSSoundRecorder/7acd37a8".
func label(file string) string {
	parts := strings.Split(file, "__")
	if len(parts) < 2 {
		return file
	}
	proj := parts[len(parts)-2]
	if i := strings.LastIndex(proj, "-"); i >= 0 && i < len(proj)-1 {
		proj = proj[i+1:]
	}
	last := parts[len(parts)-1]
	if len(last) > 8 && strings.Count(last, "-") >= 2 {
		last = last[:8]
	}
	return proj + "/" + last
}

// short is how distill_truth.py names a session.
func short(name string) string {
	stem := []rune(strings.TrimSuffix(name, ".jsonl"))
	return string(stem[:min(70, len(stem))])
}

// firstCollection is how many sessions the facts file's first collection
// holds; the rest were added later (../shared/bench/README.md).
const firstCollection = 9

// truth is distill_truth.py's report.
type truth struct {
	Recall          float64        `json:"recall"`
	Baseline        float64        `json:"baseline_prompts_final"`
	Scored          int            `json:"scored_sessions"`
	TrivialInjected []string       `json:"trivial_injected"`
	Below           []string       `json:"below_baseline"`
	FalseClaims     [][]string     `json:"false_claims"`
	Sessions        []truthSession `json:"sessions"`
}

type truthSession struct {
	File        string   `json:"file"`
	Trivial     bool     `json:"trivial"`
	Inject      *float64 `json:"inject"`
	Baseline    *float64 `json:"baseline"`
	FalseClaims int      `json:"false_claims"`
	Chars       int      `json:"chars"`
}

func f2(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *v)
}

// scoreIn runs distill_truth.py on a folder of texts.
func scoreIn(factsPath, transcripts, dir string) truth {
	res, err := exec.Command("python3", *truthPy, factsPath, transcripts, dir, "--floor", strconv.FormatFloat(floor, 'f', 2, 64)).Output()
	check(err)
	var t truth
	check(json.Unmarshal(res, &t))
	return t
}

// references are the scorer's reference points: the last assistant
// message, and every user and assistant text without tool input or output.
func references(lines []hookreplay.Line) (string, string) {
	var last string
	var all strings.Builder
	for _, l := range lines {
		if !l.OK || l.Item.Text == "" {
			continue
		}
		all.WriteString(l.Item.Role + ": " + l.Item.Text + "\n\n")
		if l.Item.Role == transcript.RoleAssistant {
			last = l.Item.Text
		}
	}
	return last, all.String()
}

// replay plays one transcript through the hooks and returns the next
// session's inject and the number of sections written.
func replay(work, file string, lines []hookreplay.Line) (string, int) {
	inject, n, _ := replayDaily(work, file, lines)
	return inject, n
}

// runs counts the replays, naming their folders.
var runs int

// replayDaily is replay that also returns every daily section written.
func replayDaily(work, file string, lines []hookreplay.Line) (string, int, string) {
	stem := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	// Numbered, not os.MkdirTemp's suffix of varying length: the inject
	// names its files by their absolute paths, which count against the cap.
	runs++
	dir := filepath.Join(work, fmt.Sprintf("run-%03d", runs))
	check(os.Mkdir(dir, 0o755))
	proj := filepath.Join(dir, "proj")
	check(os.MkdirAll(filepath.Join(proj, ".git"), 0o755))
	trDir := filepath.Join(dir, "projects", "slug")
	check(os.MkdirAll(trDir, 0o755))
	tr := filepath.Join(trDir, stem+".jsonl")
	// Subagent transcripts sit where Claude Code wrote them: 2.1 under
	// <session>/subagents/, 2.0 beside the session in the project's
	// folder (found by the session id their lines carry).
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem+"__subagents__*.jsonl"))
	for _, s := range subs {
		name := strings.TrimPrefix(filepath.Base(s), stem+"__subagents__")
		copyFile(s, filepath.Join(trDir, stem, "subagents", name))
	}
	if i := strings.LastIndex(stem, "__"); i > 0 {
		flat, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem[:i]+"__agent-*.jsonl"))
		for _, s := range flat {
			copyFile(s, filepath.Join(trDir, strings.TrimPrefix(filepath.Base(s), stem[:i]+"__")))
		}
	}
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+filepath.Join(dir, "state"), "CEREBRO_HOME="+filepath.Join(dir, "home"),
		"HOME="+dir, "CEREBRO_CONFIG="+filepath.Join(dir, "none.toml"), fmt.Sprintf("CEREBRO_INJECT_MAX_CHARS=%d", *capChars),
		"CEREBRO_DISTILLER_KIND="+*distill,
		// The most the configuration allows: a hook past its deadline
		// drops its flush, and the next flush's longer segment then
		// depends on the machine's load, not on the rules measured.
		"CEREBRO_HOOK_DEADLINE_MS=60000")
	hook := func(session, event string, kv ...string) string {
		prog, args := hookreplay.Command(*bin, *hotBin, event)
		cmd := exec.Command(prog, args...)
		cmd.Env, cmd.Stdin, cmd.Dir = env, bytes.NewReader(hookreplay.Input(session, proj, tr, event, kv...)), proj
		res, err := cmd.Output()
		check(err)
		return string(res)
	}
	f, err := os.Create(tr)
	check(err)
	hookreplay.Play(lines, func(event string, kv ...string) string { return hook("replay", event, kv...) },
		func(raw []byte) { f.Write(raw) })
	f.Close()
	inject, err := hookreplay.Inject(hook("next", "SessionStart", "source", "startup"))
	check(err)
	sections := 0
	var all strings.Builder
	daily, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	for _, d := range daily {
		data, _ := os.ReadFile(d)
		sections += strings.Count(string(data), "\n## ")
		all.Write(data)
	}
	return inject, sections, all.String()
}

func copyFile(src, dst string) {
	check(os.MkdirAll(filepath.Dir(dst), 0o755))
	data, err := os.ReadFile(src)
	check(err)
	check(os.WriteFile(dst, data, 0o644))
}

// mustLines is hookreplay.ReadLines for a fixture that must read.
func mustLines(file string) []hookreplay.Line {
	lines, err := hookreplay.ReadLines(file)
	check(err)
	return lines
}

func check(err error) {
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			fmt.Fprintln(os.Stderr, string(ee.Stderr))
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
