package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

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
