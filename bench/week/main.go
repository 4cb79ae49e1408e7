// Command week measures whether the next session knows the project's
// recent past: it replays real fixture transcripts into one project across
// seven simulated days (one memhook process per hook event, the clock set
// by CEREBRO_NOW, the transcript growing line by line as Claude Code
// writes it), starts a session on the eighth day, and scores what its
// SessionStart injects against the union of the replayed sessions' key
// facts, beside the newest daily file alone (what "yesterday" holds), and
// gives the inject's size and whether it kept the cap and named what it
// left out. It does so for two assignments of the sessions to days, so
// that no figure is fitted to one order. Run it through bench/week/run.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/timeline"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

var (
	bin      = flag.String("bin", "bin/memhook", "memhook binary to replay through")
	hotBin   = flag.String("hot", "", "memhook-hot beside -bin: the per-turn hooks go through it, as scripts/memhook routes them")
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts")
	factsF   = flag.String("facts", "../shared/bench/distill-facts-dev.json", "key facts of the transcripts")
	scorer   = flag.String("scorer", "../shared/bench/distill_score.py", "the scorer")
	keep     = flag.String("out", "", "keep each assignment's project, state and texts in this directory")
	capChars = flag.Int("cap", 9000, "inject.max_chars")
)

// monday is the first simulated day; the week runs to Sunday and the
// eighth session starts the next Monday.
var monday = time.Date(2026, 11, 23, 0, 0, 0, 0, time.Local)

type fact struct {
	Kind   string `json:"kind"`
	Weight int    `json:"weight"`
	Fact   string `json:"fact"`
}

type transcriptFacts struct {
	File  string `json:"file"`
	Facts []fact `json:"facts"`
}

// assignment puts each transcript on a day (0..6).
type assignment struct {
	name string
	days [][]string
}

func main() {
	flag.Parse()
	var doc struct {
		Transcripts []transcriptFacts `json:"transcripts"`
	}
	data, err := os.ReadFile(*factsF)
	check(err)
	check(json.Unmarshal(data, &doc))
	var files []string
	byFile := map[string]transcriptFacts{}
	for _, t := range doc.Transcripts {
		files = append(files, t.File)
		byFile[t.File] = t
	}
	hashed := append([]string(nil), files...)
	sort.Slice(hashed, func(i, j int) bool { return digest(hashed[i]) < digest(hashed[j]) })
	assignments := []assignment{
		{"A (the facts file's order, 3-3-3-2-2-2-2 a day)", split(files, []int{3, 3, 3, 2, 2, 2, 2})},
		{"B (ordered by a hash of the name, 2-3-2-3-2-3-2 a day)", split(hashed, []int{2, 3, 2, 3, 2, 3, 2})},
	}
	work, err := os.MkdirTemp("", "cerebro-week-")
	check(err)
	defer os.RemoveAll(work)
	allOK := true
	for i, a := range assignments {
		dir := filepath.Join(work, fmt.Sprintf("assignment-%d", i+1))
		if *keep != "" {
			dir = filepath.Join(*keep, fmt.Sprintf("assignment-%c", 'A'+i))
			os.RemoveAll(dir)
		}
		check(os.MkdirAll(dir, 0o755))
		ok := runWeek(dir, a, byFile)
		allOK = allOK && ok
	}
	fmt.Printf("no hook cut, every inject within the %d-character cap, every omission named, every open Open-list item shown: %v\n", *capChars, allOK)
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func split(files []string, sizes []int) [][]string {
	var out [][]string
	at := 0
	for _, n := range sizes {
		out = append(out, files[at:at+n])
		at += n
	}
	return out
}

// week is one replayed week.
type week struct {
	dir, proj, state, trDir string
	env                     []string
	session                 map[string]string // transcript file → session id
}

func runWeek(dir string, a assignment, byFile map[string]transcriptFacts) bool {
	w := &week{dir: dir, proj: filepath.Join(dir, "proj"), state: filepath.Join(dir, "state"), trDir: filepath.Join(dir, "projects", "slug"), session: map[string]string{}}
	check(os.MkdirAll(filepath.Join(w.proj, ".git"), 0o755))
	check(os.MkdirAll(w.trDir, 0o755))
	w.env = append(os.Environ(), "CEREBRO_STATE_DIR="+w.state, "CEREBRO_HOME="+filepath.Join(dir, "home"),
		"HOME="+dir, "CEREBRO_CONFIG="+filepath.Join(dir, "none.toml"), fmt.Sprintf("CEREBRO_INJECT_MAX_CHARS=%d", *capChars),
		"CEREBRO_DISTILLER_KIND=extractive", fmt.Sprintf("CEREBRO_HOOK_DEADLINE_MS=%d", *deadlineMS))
	dayOf := map[string]int{}
	for d, fs := range a.days {
		for k, f := range fs {
			dayOf[f] = d
			id := fmt.Sprintf("d%d%c%s", d+1, 'a'+k, digest(f)[:29])
			w.session[f] = id
			start := monday.AddDate(0, 0, d).Add(time.Duration(8+3*k) * time.Hour)
			w.replay(filepath.Join(*fixtures, f), id, start)
		}
	}
	day8 := monday.AddDate(0, 0, 7)
	next := w.start("eighth-day", day8.Add(9*time.Hour))
	w.memhook(day8.Add(6*time.Hour), "rollup-days", "--project", w.proj)
	nextRolled := w.start("eighth-day-after-rollup", day8.Add(9*time.Hour+30*time.Minute))
	yesterday := newestDaily(w.proj, day8)

	// Facts of sessions that wrote no section (trivial by the flush's
	// rule) are left out of every score: no memory should hold them.
	wrote := sectionsBySession(w.proj)
	var trivial []string
	scored := map[string]transcriptFacts{}
	for f, d := range dayOf {
		_ = d
		if wrote[w.session[f]] == 0 {
			trivial = append(trivial, short(f))
			continue
		}
		scored[f] = byFile[f]
	}
	sort.Strings(trivial)
	texts := map[string]string{"all": allDaily(w.proj), "yesterday": yesterday.text, "yesterday-cap": newestWithin(yesterday.text, *capChars),
		"inject": next, "inject-rollup": nextRolled}
	if *keep != "" {
		for k, v := range texts {
			check(os.WriteFile(filepath.Join(dir, k+".txt"), []byte(v), 0o644))
		}
	}
	fmt.Printf("== assignment %s\n", a.name)
	fmt.Printf("%d sessions on 7 days (%s – %s), eighth session on %s; %d wrote no section (trivial) and are not scored: %s\n",
		len(dayOf), monday.Format("Mon 2006-01-02"), monday.AddDate(0, 0, 6).Format("Mon 2006-01-02"), day8.Format("Mon 2006-01-02"),
		len(trivial), strings.Join(trivial, ", "))
	fmt.Printf("yesterday's file: %s\n", filepath.Base(yesterday.path))
	troubled, first := hookTrouble(w.state)
	fmt.Printf("hook runs failed or cut by their deadline: %d%s\n", troubled, map[bool]string{true: " (" + first + ")", false: ""}[troubled > 0])
	fmt.Printf("%-46s %9s %10s %11s %7s %s\n", "text", "weighted", "essential", "open items", "size", "cap, omissions named")
	ok := troubled == 0
	var base float64
	for _, k := range []string{"all", "yesterday", "yesterday-cap", "inject", "inject-rollup"} {
		s := score(texts[k], scored, dayOf)
		name := map[string]string{"all": "the seven daily files whole (the ceiling)", "yesterday": "yesterday's daily file alone, whole", "yesterday-cap": "yesterday's file, newest sections to the cap",
			"inject": "eighth-day inject", "inject-rollup": "eighth-day inject after rollup-days"}[k]
		capNote := "-"
		if strings.HasPrefix(k, "inject") {
			within := utf8.RuneCountInString(texts[k]) <= *capChars
			named := omissionsNamed(w, texts[k], k)
			ok = ok && within && named == ""
			capNote = fmt.Sprintf("%v, %v", within, named == "")
			if named != "" {
				capNote += " (" + named + ")"
			}
		} else if k == "yesterday" {
			base = s.weighted
		}
		fmt.Printf("%-46s %9.2f %10.2f %11s %7d %s\n", name, s.weighted, s.essential, fmt.Sprintf("%d/%d", s.openFound, s.open), utf8.RuneCountInString(texts[k]), capNote)
		if k == "inject" {
			fmt.Printf("%-46s %+9.2f\n", "  inject − yesterday's file whole", s.weighted-base)
			if len(s.missedOpen) > 0 {
				fmt.Printf("  open items missing: %s\n", strings.Join(s.missedOpen, "; "))
			}
			fmt.Printf("  by day (inject): %s\n", s.byDay)
			in, all, miss := openListed(w.proj, texts[k])
			ok = ok && in == all
			fmt.Printf("  Open-list items no later section closed, in the inject: %d/%d\n", in, all)
			for _, m := range miss {
				fmt.Printf("    missing: %s\n", m)
			}
		}
	}
	fmt.Println()
	return ok
}

// replay plays one transcript through the hooks, each event at its own
// minute from start: the transcript's timestamps are moved to the same
// clock, so the sections land on the simulated day.
func (w *week) replay(file, session string, start time.Time) {
	lines := readLines(file)
	stem := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	tr := filepath.Join(w.trDir, session+".jsonl")
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem+"__subagents__*.jsonl"))
	for _, s := range subs {
		name := strings.TrimPrefix(filepath.Base(s), stem+"__subagents__")
		dst := filepath.Join(w.trDir, session, "subagents", name)
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		data, err := os.ReadFile(s)
		check(err)
		check(os.WriteFile(dst, data, 0o644))
	}
	at := start
	tick := func() time.Time { at = at.Add(30 * time.Second); return at }
	hook := func(event string, kv ...string) string {
		return w.hook(tick(), session, tr, event, kv...)
	}
	f, err := os.Create(tr)
	check(err)
	hook("SessionStart", "source", "startup")
	open, stopped := false, true
	for _, l := range lines {
		if l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "" {
			if open && !stopped {
				hook("Stop", "last_assistant_message", "")
			}
			hook("UserPromptSubmit", "prompt", l.item.Text)
			open, stopped = true, false
		}
		if compaction(l.raw) {
			hook("PreCompact", "trigger", "auto")
		}
		if l.final && open {
			hook("Stop", "last_assistant_message", l.item.Text)
			stopped = true
		}
		f.Write(retime(l.raw, at))
	}
	f.Close()
	if open && !stopped {
		hook("Stop", "last_assistant_message", "")
	}
	hook("SessionEnd", "reason", "other")
}

var timestampRe = regexp.MustCompile(`"timestamp":"[^"]*"`)

// retime moves a line's timestamps to the simulated clock.
func retime(raw []byte, at time.Time) []byte {
	return timestampRe.ReplaceAll(raw, []byte(`"timestamp":"`+at.UTC().Format("2006-01-02T15:04:05.000Z")+`"`))
}

// start runs a new session's SessionStart at t and returns its inject.
func (w *week) start(session string, t time.Time) string {
	out := w.hook(t, session, filepath.Join(w.trDir, session+".jsonl"), "SessionStart", "source", "startup")
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if strings.TrimSpace(out) != "" {
		check(json.Unmarshal([]byte(out), &v))
	}
	return v.HookSpecificOutput.AdditionalContext
}

func (w *week) hook(t time.Time, session, tr, event string, kv ...string) string {
	m := map[string]any{"session_id": session, "cwd": w.proj, "hook_event_name": event, "transcript_path": tr}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	in, _ := json.Marshal(m)
	prog := *bin
	if *hotBin != "" && (event == "UserPromptSubmit" || event == "Stop" || event == "PostToolUse") {
		prog = *hotBin
	}
	cmd := exec.Command(prog, "hook", strings.ToLower(kebab(event)))
	cmd.Env, cmd.Stdin, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), bytes.NewReader(in), w.proj
	res, err := cmd.Output()
	check(err)
	return string(res)
}

func (w *week) memhook(t time.Time, args ...string) {
	cmd := exec.Command(*bin, args...)
	cmd.Env, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), w.proj
	_, err := cmd.Output()
	check(err)
}

type dailyFile struct{ path, text string }

// newestWithin is what the inject gave before it knew the week: the
// file's newest sections that fit max, in file order.
func newestWithin(text string, max int) string {
	secs := daily.Parse([]byte(text)).Sections
	n, i := 0, len(secs)
	for i > 0 && n+utf8.RuneCountInString(secs[i-1].Text()) <= max-300 {
		i--
		n += utf8.RuneCountInString(secs[i].Text())
	}
	var b strings.Builder
	for _, s := range secs[i:] {
		b.WriteString(s.Text())
	}
	return b.String()
}

// newestDaily is the newest daily file before day: what the previous
// day's file alone gives.
func newestDaily(proj string, day time.Time) dailyFile {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var best string
	for _, f := range files {
		if strings.TrimSuffix(filepath.Base(f), ".md") < day.Format(time.DateOnly) {
			best = f
		}
	}
	if best == "" {
		return dailyFile{}
	}
	data, err := os.ReadFile(best)
	check(err)
	return dailyFile{best, string(data)}
}

// allDaily is every daily file of the project, joined.
func allDaily(proj string) string {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		b.Write(data)
	}
	return b.String()
}

// sectionsBySession counts the sections each session wrote.
func sectionsBySession(proj string) map[string]int {
	out := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		for _, s := range daily.Parse(data).Sections {
			out[s.SessionID]++
		}
	}
	return out
}

// omissionsNamed checks that every section of the week's daily files is
// in the inject (whole or as a line, as the session's handed set records)
// or its file is named in the note on what was left out, and that the
// roll-up is shown or named. It returns what is missing, "" for nothing.
func omissionsNamed(w *week, text, session string) string {
	sid := map[string]string{"inject": "eighth-day", "inject-rollup": "eighth-day-after-rollup"}[session]
	givenFiles, _ := filepath.Glob(filepath.Join(w.state, "sessions", "*", sid+".given"))
	had := map[string]bool{}
	for _, g := range givenFiles {
		data, err := os.ReadFile(g)
		check(err)
		for _, k := range strings.Fields(string(data)) {
			had[k] = true
		}
	}
	note := ""
	if i := strings.Index(text, `<memory kind="omitted"`); i >= 0 {
		note = text[i:]
	}
	var missing []string
	files, _ := filepath.Glob(filepath.Join(w.proj, ".claude", "memory_short", "daily", "*.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		rel, _ := filepath.Rel(w.proj, f)
		for _, s := range daily.Parse(data).Sections {
			k := fmt.Sprintf("%s#%d", s.SessionID, s.Seq)
			if had[k] && strings.Contains(text, "session "+s.Short+" ") || had["line:"+k] {
				continue
			}
			if !strings.Contains(note, "- "+filepath.ToSlash(rel)+": ") {
				missing = append(missing, k)
			}
		}
	}
	rolls, _ := filepath.Glob(filepath.Join(w.proj, ".claude", "memory_short", "rollups", "week", "*.md"))
	if len(rolls) > 0 && session == "inject-rollup" {
		sort.Strings(rolls)
		name := strings.TrimSuffix(filepath.Base(rolls[len(rolls)-1]), ".md")
		rel, _ := filepath.Rel(w.proj, rolls[len(rolls)-1])
		if !strings.Contains(text, "Week "+name) && !strings.Contains(note, filepath.ToSlash(rel)) {
			missing = append(missing, "roll-up "+name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%d not named: %s", len(missing), strings.Join(missing, ", "))
}

type scores struct {
	weighted, essential float64
	open, openFound     int
	missedOpen          []string
	byDay               string
}

// score weighs the facts of every scored session found in text: open
// items (no later day closes another project's item) and the outcomes of
// the last two days' sessions are essential (weight 2); the rest keep the
// facts file's weight.
func score(text string, scored map[string]transcriptFacts, dayOf map[string]int) scores {
	tmp, err := os.CreateTemp("", "week-text-")
	check(err)
	defer os.Remove(tmp.Name())
	tmp.WriteString(text)
	tmp.Close()
	var s scores
	var got, total, egot, etotal float64
	dayGot, dayTotal := make([]float64, 7), make([]float64, 7)
	var names []string
	for f := range scored {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		found := foundFacts(f, tmp.Name())
		d := dayOf[f]
		for i, x := range scored[f].Facts {
			w := float64(x.Weight)
			essential := x.Kind == "open" || (x.Kind == "done" && d >= 5)
			if essential {
				w = 2
			}
			total += w
			dayTotal[d] += w
			if found[i] {
				got += w
				dayGot[d] += w
			}
			if essential {
				etotal += w
				if found[i] {
					egot += w
				}
			}
			if x.Kind == "open" {
				s.open++
				if found[i] {
					s.openFound++
				} else {
					s.missedOpen = append(s.missedOpen, fmt.Sprintf("day %d %s: %s", d+1, short(f), x.Fact))
				}
			}
		}
	}
	s.weighted, s.essential = ratio(got, total), ratio(egot, etotal)
	var days []string
	for d := range 7 {
		days = append(days, fmt.Sprintf("%d:%.2f", d+1, ratio(dayGot[d], dayTotal[d])))
	}
	s.byDay = strings.Join(days, " ")
	return s
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// foundFacts runs the shared scorer on one transcript's facts.
func foundFacts(file, textPath string) map[int]bool {
	res, err := exec.Command("python3", *scorer, *factsF, file, textPath).Output()
	check(err)
	var v struct {
		Found []struct {
			I int `json:"i"`
		} `json:"found"`
	}
	check(json.Unmarshal(res, &v))
	out := map[int]bool{}
	for _, f := range v.Found {
		out[f.I] = true
	}
	return out
}

// short is a transcript's name without its collection's prefix.
func short(f string) string {
	f = strings.TrimSuffix(f, ".jsonl")
	if i := strings.LastIndex(f, "__"); i >= 0 {
		f = f[i+2:]
	}
	if len(f) > 12 {
		f = f[:12]
	}
	return f
}

type line struct {
	raw   []byte
	item  transcript.Item
	ok    bool
	final bool // the last assistant line with text in its turn
}

func readLines(file string) []line {
	fh, err := os.Open(file)
	check(err)
	defer fh.Close()
	var lines []line
	r := bufio.NewReaderSize(fh, 1<<20)
	for {
		raw, err := r.ReadBytes('\n')
		if len(raw) > 0 {
			it, ok := transcript.ParseLine(raw)
			lines = append(lines, line{raw: raw, item: it, ok: ok})
		}
		if err != nil {
			break
		}
	}
	lastText := -1
	for i, l := range lines {
		switch {
		case l.ok && l.item.Role == transcript.RoleUser && l.item.Kind == "":
			if lastText >= 0 {
				lines[lastText].final = true
			}
			lastText = -1
		case l.ok && l.item.Role == transcript.RoleAssistant && l.item.Text != "":
			lastText = i
		}
	}
	if lastText >= 0 {
		lines[lastText].final = true
	}
	return lines
}

// compaction tells a line that starts a compacted context: Claude Code
// ran PreCompact just before writing it.
func compaction(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"compact_boundary"`)) || bytes.Contains(raw, []byte(`"isCompactSummary":true`))
}

func kebab(event string) string {
	var b strings.Builder
	for i, r := range event {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return b.String()
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

// openListed counts the items of the days' Open lists that no later
// section closed (the inject's own rules, timeline.Tracker) and how many
// of them text holds, each by its words up to the inject's clip.
func openListed(proj, text string) (in, all int, missing []string) {
	files, _ := filepath.Glob(filepath.Join(proj, ".claude", "memory_short", "daily", "*.md"))
	sort.Strings(files)
	var tr timeline.Tracker
	for _, f := range files {
		data, err := os.ReadFile(f)
		check(err)
		date := strings.TrimSuffix(filepath.Base(f), ".md")
		for i, sec := range daily.Parse(data).Sections {
			tr.Add(timeline.Section{Date: date, Key: fmt.Sprintf("%s#%d", date, i), Entry: sec})
		}
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, it := range tr.Open() {
		all++
		words := strings.TrimSuffix(timeline.Clip(it.Text, 300), "…")
		if strings.Contains(flat, words) {
			in++
		} else {
			missing = append(missing, it.Date+": "+timeline.Clip(it.Text, 100))
		}
	}
	return in, all, missing
}
