package evolve

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// BlindPair is a shadow pair as its judge sees it: the request and the two
// answers, without saying which is the candidate's.
type BlindPair struct {
	Pair    string `json:"pair"`
	Skill   string `json:"skill"`
	Request string `json:"request"`
	Answer1 string `json:"answer_1"`
	Answer2 string `json:"answer_2"`
	runs    [2]string
}

// Unjudged lists the complete pairs (both arms ran without error) that
// lack a verdict on either arm, in the order they were recorded. The order
// of the two answers is fixed per pair (a hash of its id) and unrelated to
// which arm gave which.
func Unjudged(st *runrec.Store) ([]BlindPair, error) {
	runs, err := st.Runs(runrec.Filter{Kind: runrec.KindShadow})
	if err != nil {
		return nil, err
	}
	arms := map[string][2]*runrec.Run{}
	var order []string
	for i := range runs {
		r := &runs[i]
		a, seen := arms[r.Pair]
		if !seen {
			order = append(order, r.Pair)
		}
		if r.Arm == runrec.ArmActive {
			a[0] = r
		} else {
			a[1] = r
		}
		arms[r.Pair] = a
	}
	var out []BlindPair
	for _, id := range order {
		a := arms[id]
		if a[0] == nil || a[1] == nil || a[0].Error != "" || a[1].Error != "" || (a[0].Verdict != "" && a[1].Verdict != "") {
			continue
		}
		first, second := a[0], a[1]
		if candidateFirst(id) {
			first, second = second, first
		}
		name := ""
		if len(first.Skills) > 0 {
			name = first.Skills[0].Name
		}
		out = append(out, BlindPair{Pair: id, Skill: name, Request: first.Request, Answer1: first.Answer, Answer2: second.Answer, runs: [2]string{first.ID, second.ID}})
	}
	return out, nil
}

// candidateFirst says whether the candidate's answer is shown first.
func candidateFirst(pair string) bool {
	h := fnv.New32a()
	h.Write([]byte(pair))
	return h.Sum32()%2 == 1
}

// JudgeVerdicts turns a judge's choice (1, 2, both or neither; b and n
// for short) into the verdicts of answer 1's run and answer 2's.
func JudgeVerdicts(choice string) ([2]string, error) {
	switch strings.ToLower(strings.TrimSpace(choice)) {
	case "1":
		return [2]string{runrec.Good, runrec.Bad}, nil
	case "2":
		return [2]string{runrec.Bad, runrec.Good}, nil
	case "b", "both":
		return [2]string{runrec.Good, runrec.Good}, nil
	case "n", "neither":
		return [2]string{runrec.Bad, runrec.Bad}, nil
	}
	return [2]string{}, fmt.Errorf("judge: %q: want 1, 2, both or neither", choice)
}

// Judge records a judge's choice on a blind pair as verdicts on both its
// runs, source "judge".
func (p BlindPair) Judge(j runrec.Journal, choice string, now time.Time) error {
	v, err := JudgeVerdicts(choice)
	if err != nil {
		return err
	}
	for i, id := range p.runs {
		if err := j.Verdict(runrec.Verdict{Run: id, Time: now, Verdict: v[i], Source: "judge"}); err != nil {
			return err
		}
	}
	return nil
}
