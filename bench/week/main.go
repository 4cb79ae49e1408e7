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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/bench/internal/workdir"
)

var (
	bin      = flag.String("bin", "bin/memhook", "memhook binary to replay through")
	hotBin   = flag.String("hot", "", "memhook-hot beside -bin: the per-turn hooks go through it, as scripts/memhook routes them")
	fixtures = flag.String("fixtures", "../shared/fixtures/transcripts", "real transcripts")
	factsF   = flag.String("facts", "../shared/bench/distill-facts-dev.json", "key facts of the transcripts")
	scorer   = flag.String("scorer", "../shared/bench/distill_score.py", "the scorer")
	keep     = flag.String("out", "", "keep each assignment's project, state and texts in this directory")
	truthF   = flag.String("open-truth", "bench/week/open-truth.json", "hand labels: which open items were still open at the week's end")
	capChars = flag.Int("cap", 9000, "inject.max_chars")
)

// monday is the first simulated day; the week runs to Sunday and the
// eighth session starts the next Monday.
var monday = time.Date(2026, 11, 23, 0, 0, 0, 0, time.Local)

type fact struct {
	Kind   string `json:"kind"`
	Weight int    `json:"weight"`
	Fact   string `json:"fact"`
	// AnyOf is read here only by -weeks; the replayed week asks the
	// shared scorer.
	AnyOf [][]string `json:"any_of"`
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
	if *weeksDir != "" {
		runWeeks()
		return
	}
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
	var truth struct {
		Labels []truthLabel `json:"labels"`
	}
	tdata, err := os.ReadFile(*truthF)
	check(err)
	check(json.Unmarshal(tdata, &truth))
	labels := truth.Labels
	hashed := append([]string(nil), files...)
	sort.Slice(hashed, func(i, j int) bool { return digest(hashed[i]) < digest(hashed[j]) })
	assignments := []assignment{
		{"A (the facts file's order, 3-3-3-2-2-2-2 a day)", split(files, []int{3, 3, 3, 2, 2, 2, 2})},
		{"B (ordered by a hash of the name, 2-3-2-3-2-3-2 a day)", split(hashed, []int{2, 3, 2, 3, 2, 3, 2})},
	}
	// Replayed where the paths have the same length on every run, -out or
	// not; -out gets a copy.
	work, err := workdir.Fixed("cerebro-week-")
	check(err)
	defer os.RemoveAll(work)
	allOK := true
	for i, a := range assignments {
		name := fmt.Sprintf("assignment-%c", 'A'+i)
		dir := filepath.Join(work, name)
		check(os.MkdirAll(dir, 0o755))
		ok := runWeek(dir, a, byFile, labels)
		allOK = allOK && ok
		if *keep != "" {
			kept := filepath.Join(*keep, name)
			check(os.RemoveAll(kept))
			check(workdir.CopyTree(dir, kept))
		}
	}
	fmt.Printf("no hook cut, every inject within the %d-character cap, every omission named, every open Open-list item shown and labelled, every day named: %v\n", *capChars, allOK)
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

func runWeek(dir string, a assignment, byFile map[string]transcriptFacts, labels []truthLabel) bool {
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
			in, all, miss, shown := openListed(w.proj, texts[k])
			ok = ok && in == all
			fmt.Printf("  Open-list items no later section closed, in the inject: %d/%d\n", in, all)
			for _, m := range miss {
				fmt.Printf("    missing: %s\n", m)
			}
			open, labelled, unlabelled, stale := openTruth(shown, w.session, labels)
			ok = ok && len(unlabelled) == 0
			fmt.Printf("  open items shown still open at the week's end (hand-labelled, %s): %d/%d = %.2f\n", filepath.Base(*truthF), open, labelled, ratio(float64(open), float64(labelled)))
			for _, st := range stale {
				fmt.Printf("    closed by then: %s\n", st)
			}
			for _, u := range unlabelled {
				fmt.Printf("    not labelled: %s\n", u)
			}
			named, days, missingDays := daysNamed(w.proj, texts[k])
			ok = ok && named == days
			fmt.Printf("  days named in the inject: %d/%d%s\n", named, days, map[bool]string{true: " (missing " + strings.Join(missingDays, ", ") + ")", false: ""}[len(missingDays) > 0])
		}
	}
	fmt.Println()
	return ok
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
