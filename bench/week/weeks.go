package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/inject"
)

// The replayed week has two assignments of one dev set's sessions, and a
// rule that moves a few characters moves its figures by up to 0.05 either
// way (#40): too few weeks to tell a rule from a fit. -weeks builds many
// more from the daily files bench/distill wrote for each session of both
// dev sets (its -out folder), each session's sections moved to a day of
// a shuffled week, and builds the eighth day's inject of each in process,
// with the same weights as the replayed week. The second set is the one
// no rule was written for.
var (
	weeksDir = flag.String("weeks", "", "bench/distill's -out folder: score -n shuffled weeks of each dev set's daily sections instead of replaying")
	weeksN   = flag.Int("n", 20, "weeks per dev set for -weeks")
	facts2F  = flag.String("facts2", "bench/distill/facts-set2.json", "key facts, false and stale claims of the second dev set, for -weeks")
	staleF   = flag.String("stale", "bench/distill/stale-dev.json", "stale claims of the first dev set, for -weeks")
)

type claim struct {
	AnyOf [][]string `json:"any_of"`
}

type setFacts struct {
	File        string  `json:"file"`
	Facts       []fact  `json:"facts"`
	FalseClaims []claim `json:"false_claims"`
	StaleClaims []claim `json:"stale_claims"`
}

func runWeeks() {
	stale := map[string][]claim{}
	var sd struct {
		Transcripts map[string][]claim `json:"transcripts"`
	}
	if data, err := os.ReadFile(*staleF); err == nil {
		check(json.Unmarshal(data, &sd))
		stale = sd.Transcripts
	}
	fmt.Printf("%d shuffled weeks of each dev set's sessions (their daily sections from %s), eighth-day inject within %d characters\n", *weeksN, *weeksDir, *capChars)
	fmt.Printf("%-10s %9s %10s %9s %10s %6s %6s %8s %s\n", "", "weighted", "essential", "min–max", "yesterday", "false", "stale", "over cap", "(yesterday: the newest daily file alone, whole)")
	for _, set := range []struct{ name, dir, facts string }{{"dev set 1", "set1", *factsF}, {"dev set 2", "set2", *facts2F}} {
		var doc struct {
			Transcripts []setFacts `json:"transcripts"`
		}
		data, err := os.ReadFile(set.facts)
		check(err)
		check(json.Unmarshal(data, &doc))
		bodies := map[string]string{}
		var stems []string
		byStem := map[string]setFacts{}
		for _, t := range doc.Transcripts {
			stem := strings.TrimSuffix(t.File, ".jsonl")
			if len(t.StaleClaims) == 0 {
				t.StaleClaims = stale[t.File]
			}
			byStem[stem] = t
			data, err := os.ReadFile(filepath.Join(*weeksDir, set.dir, "daily", stem+".txt"))
			if err != nil || len(data) == 0 {
				continue // trivial: no section, nothing to score
			}
			text := string(data)
			if i := strings.Index(text, "\n## "); i >= 0 {
				bodies[stem] = text[i+1:]
				stems = append(stems, stem)
			}
		}
		sort.Strings(stems)
		var sumW, sumE, sumY float64
		lo, hi := 1.0, 0.0
		falses, stales, over := 0, 0, 0
		for w := range *weeksN {
			rng := rand.New(rand.NewPCG(uint64(w), 40))
			order := append([]string(nil), stems...)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			dir, err := os.MkdirTemp("", "cerebro-weeks-")
			check(err)
			dayOf, newest := writeWeek(dir, order, bodies, rng)
			text, err := inject.Build(inject.Options{Layout: project.Layout{Root: dir}, Now: monday.AddDate(0, 0, 7).Add(9 * time.Hour), MaxChars: *capChars})
			check(err)
			check(os.RemoveAll(dir))
			if utf8.RuneCountInString(text) > *capChars {
				over++
			}
			wt, es, f, s := scoreWeek(text, dayOf, byStem)
			y, _, _, _ := scoreWeek(newest, dayOf, byStem)
			sumW, sumE, sumY = sumW+wt, sumE+es, sumY+y
			lo, hi = min(lo, wt), max(hi, wt)
			falses, stales = falses+f, stales+s
		}
		n := float64(*weeksN)
		fmt.Printf("%-10s %9.3f %10.3f %9s %10.3f %6d %6d %8d\n", set.name, sumW/n, sumE/n, fmt.Sprintf("%.2f–%.2f", lo, hi), sumY/n, falses, stales, over)
	}
}

var replayHead = regexp.MustCompile(`(?m)^## \d\d:\d\d–\d\d:\d\d · session replay`)

// writeWeek spreads the sessions over seven days, each day one at least,
// and writes the daily files; it returns each session's day and the
// newest file's text.
func writeWeek(root string, order []string, bodies map[string]string, rng *rand.Rand) (map[string]int, string) {
	daily := filepath.Join(root, ".claude", "memory_short", "daily")
	check(os.MkdirAll(daily, 0o755))
	check(os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	sizes := []int{1, 1, 1, 1, 1, 1, 1}
	for range len(order) - 7 {
		sizes[rng.IntN(7)]++
	}
	dayOf := map[string]int{}
	at := 0
	var text string
	for d, size := range sizes {
		date := monday.AddDate(0, 0, d).Format(time.DateOnly)
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: daily\ndate: %s\nproject: proj\n---\n\n# %s\n\n", date, date)
		for k, stem := range order[at : at+size] {
			dayOf[stem] = d
			id := fmt.Sprintf("d%d%c%s", d+1, 'a'+k, digest(stem)[:29])
			minute := 1
			body := replayHead.ReplaceAllStringFunc(bodies[stem], func(string) string {
				h := fmt.Sprintf("## %02d:%02d–%02d:%02d · session %s", 8+3*k, minute, 8+3*k, minute+2, id[:8])
				minute += 3
				return h
			})
			b.WriteString(strings.TrimRight(strings.ReplaceAll(body, "session=replay", "session="+id), "\n") + "\n\n")
		}
		at += size
		text = b.String()
		check(os.WriteFile(filepath.Join(daily, date+".md"), []byte(text), 0o644))
	}
	return dayOf, text
}

// scoreWeek weighs the facts as score does (open facts and the last two
// days' done facts essential, weight 2), reading each keyword group as
// distill_score.py does, and counts the false and stale claims found.
func scoreWeek(text string, dayOf map[string]int, byStem map[string]setFacts) (weighted, essential float64, falses, stales int) {
	t := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	has := func(groups [][]string) bool {
		for _, g := range groups {
			ok := false
			for _, k := range g {
				if strings.Contains(t, strings.Join(strings.Fields(strings.ToLower(k)), " ")) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	var got, total, egot, etotal float64
	for stem, d := range dayOf {
		tf := byStem[stem]
		for _, x := range tf.Facts {
			w := float64(x.Weight)
			ess := x.Kind == "open" || (x.Kind == "done" && d >= 5)
			if ess {
				w = 2
			}
			found := has(x.AnyOf)
			total += w
			if found {
				got += w
			}
			if ess {
				etotal += w
				if found {
					egot += w
				}
			}
		}
		for _, c := range tf.FalseClaims {
			if has(c.AnyOf) {
				falses++
			}
		}
		for _, c := range tf.StaleClaims {
			if has(c.AnyOf) {
				stales++
			}
		}
	}
	return ratio(got, total), ratio(egot, etotal), falses, stales
}
