package evolve

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
)

// Rules are the numbers a decision is taken by.
type Rules struct {
	MinVerdicts int     // judged pairs needed before any verdict-based decision
	Margin      float64 // share of judged pairs the candidate's good verdicts must lead by
	PriceSlack  float64 // the candidate may cost this fraction more (calls, tokens, depth)
	MaxPairs    int     // trial length in pairs run
	TrialDays   int     // trial length in days since the candidate was written
}

// DefaultRules are the documented defaults (docs/skills.md).
func DefaultRules() Rules {
	return Rules{MinVerdicts: 5, Margin: 0.2, PriceSlack: 0.25, MaxPairs: 30, TrialDays: 30}
}

// Actions.
const (
	Promote = "promote"
	Remove  = "remove"
	Wait    = "wait"
)

// Decision is what to do with a candidate, and the figures behind it.
type Decision struct {
	Action  string  `json:"action"`
	Why     string  `json:"why"`
	Pairs   int     `json:"pairs"`  // shadow pairs run
	Judged  int     `json:"judged"` // pairs with a verdict on both arms
	CandWin int     `json:"candidate_good"`
	ActWin  int     `json:"active_good"`
	Cand    Price   `json:"candidate_price"`
	Act     Price   `json:"active_price"`
	Age     float64 `json:"age_days"`
}

// Price is the mean cost of one arm's runs. Calls, tokens and depth are
// counts and weigh in the decision; seconds are shown and never weighed:
// the two arms run one after the other, so their wall time differs with
// the machine's load as much as with the skill text.
type Price struct {
	Calls   float64 `json:"model_calls"`
	Tokens  float64 `json:"tokens"` // over the pairs whose both arms reported tokens
	Seconds float64 `json:"seconds"`
	Depth   float64 `json:"depth"`
}

// Figures is the decision as the map a record keeps.
func (d Decision) Figures() map[string]any {
	return map[string]any{
		"pairs": d.Pairs, "judged": d.Judged, "candidate_good": d.CandWin, "active_good": d.ActWin,
		"candidate_price": d.Cand, "active_price": d.Act, "age_days": d.Age,
	}
}

// Decide weighs a candidate on the shadow runs: promote when, over at least
// MinVerdicts judged pairs, its share of good verdicts leads the active's
// by Margin and its price (model calls, tokens, depth) is within
// PriceSlack of the active's; remove when
// it trails on verdicts or its trial (MaxPairs or TrialDays) ran out;
// otherwise wait. runs are all shadow runs and their nested children.
func Decide(runs []runrec.Run, c Candidate, r Rules, now time.Time) Decision {
	depth := map[string]int{} // arm run -> deepest level its recalls reached
	for _, x := range runs {
		if x.Parent != "" && x.Kind != runrec.KindShadow && x.Depth > depth[x.Parent] {
			depth[x.Parent] = x.Depth
		}
	}
	type pair struct{ act, cand *runrec.Run }
	pairs := map[string]*pair{}
	for i := range runs {
		x := &runs[i]
		if x.Kind != runrec.KindShadow || x.Pair == "" || len(x.Skills) == 0 || x.Skills[0].Name != c.Skill {
			continue
		}
		p := pairs[x.Pair]
		if p == nil {
			p = &pair{}
			pairs[x.Pair] = p
		}
		if x.Arm == runrec.ArmCandidate && x.Skills[0].Candidate == c.ID {
			p.cand = x
		} else if x.Arm == runrec.ArmActive {
			p.act = x
		}
	}
	d := Decision{Age: now.Sub(c.Since).Hours() / 24}
	var n, withTokens float64
	for _, p := range pairs {
		if p.act == nil || p.cand == nil {
			continue
		}
		d.Pairs++
		if p.act.Error == "" && p.cand.Error == "" {
			n++
			d.Act.Calls += float64(p.act.ModelCalls)
			d.Cand.Calls += float64(p.cand.ModelCalls)
			d.Act.Seconds += p.act.Seconds
			d.Cand.Seconds += p.cand.Seconds
			d.Act.Depth += float64(depth[p.act.ID])
			d.Cand.Depth += float64(depth[p.cand.ID])
			if p.act.Tokens > 0 && p.cand.Tokens > 0 {
				withTokens++
				d.Act.Tokens += float64(p.act.Tokens)
				d.Cand.Tokens += float64(p.cand.Tokens)
			}
		}
		if p.act.Verdict == "" || p.cand.Verdict == "" {
			continue
		}
		d.Judged++
		if p.act.Verdict == runrec.Good {
			d.ActWin++
		}
		if p.cand.Verdict == runrec.Good {
			d.CandWin++
		}
	}
	if n > 0 {
		for _, pr := range []*Price{&d.Act, &d.Cand} {
			pr.Calls, pr.Seconds, pr.Depth = pr.Calls/n, pr.Seconds/n, pr.Depth/n
			if withTokens > 0 {
				pr.Tokens /= withTokens
			}
		}
	}
	lead := 0.0
	if d.Judged > 0 {
		lead = float64(d.CandWin-d.ActWin) / float64(d.Judged)
	}
	cheapEnough := d.Cand.Calls <= d.Act.Calls*(1+r.PriceSlack) &&
		d.Cand.Tokens <= d.Act.Tokens*(1+r.PriceSlack) &&
		d.Cand.Depth <= d.Act.Depth*(1+r.PriceSlack)
	price := fmt.Sprintf("calls %.1f/%.1f, tokens %.0f/%.0f, depth %.1f/%.1f; seconds %.1f/%.1f, not weighed",
		d.Cand.Calls, d.Act.Calls, d.Cand.Tokens, d.Act.Tokens, d.Cand.Depth, d.Act.Depth, d.Cand.Seconds, d.Act.Seconds)
	switch {
	case d.Judged >= r.MinVerdicts && lead >= r.Margin && cheapEnough:
		d.Action = Promote
		d.Why = fmt.Sprintf("won on verdicts: good %d of %d judged pairs against %d (lead %.2f ≥ %.2f) at no higher price (%s)",
			d.CandWin, d.Judged, d.ActWin, lead, r.Margin, price)
	case d.Judged >= r.MinVerdicts && lead < 0:
		d.Action = Remove
		d.Why = fmt.Sprintf("lost on verdicts: good %d of %d judged pairs against the active version's %d", d.CandWin, d.Judged, d.ActWin)
	case r.MaxPairs > 0 && d.Pairs >= r.MaxPairs:
		d.Action = Remove
		d.Why = fmt.Sprintf("trial ran out: %d pairs run (limit %d) without winning (good %d of %d judged against %d; price ok: %v)", d.Pairs, r.MaxPairs, d.CandWin, d.Judged, d.ActWin, cheapEnough)
	case r.TrialDays > 0 && d.Age >= float64(r.TrialDays):
		d.Action = Remove
		d.Why = fmt.Sprintf("trial ran out: %.0f days (limit %d) without winning (good %d of %d judged against %d)", d.Age, r.TrialDays, d.CandWin, d.Judged, d.ActWin)
	case d.Judged >= r.MinVerdicts && lead >= r.Margin:
		d.Action = Wait
		d.Why = fmt.Sprintf("won on verdicts but costs more (%s; slack %.0f%%)", price, r.PriceSlack*100)
	default:
		d.Action = Wait
		d.Why = fmt.Sprintf("%d of %d judged pairs needed; good %d against %d", d.Judged, r.MinVerdicts, d.CandWin, d.ActWin)
	}
	return d
}

// Apply carries out a promote or remove decision as one commit of the
// skill and records it in the journal. Promotion copies the candidate's
// text over the active file and deletes the candidate; removal deletes the
// candidate. Git keeps both texts.
func Apply(ref skill.Ref, c Candidate, d Decision, j runrec.Journal, now time.Time) (runrec.Decision, error) {
	rec := runrec.Decision{Time: now, Skill: ref.Name, Candidate: c.ID, Action: d.Action, Why: d.Why, Figures: d.Figures()}
	if d.Action != Promote && d.Action != Remove {
		return rec, fmt.Errorf("apply %s to candidate %s: nothing to do", d.Action, c.ID)
	}
	dir := filepath.Dir(c.File)
	var files []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	msg := fmt.Sprintf("skill %s: %s candidate %s — %s", ref.Name, d.Action, c.ID, d.Why)
	if d.Action == Promote {
		text, err := ReadSkill(c.File)
		if err != nil {
			return rec, fmt.Errorf("promote %s: %w", c.ID, err)
		}
		if err := atomicfile.Write(ref.File, text, 0o644); err != nil {
			return rec, fmt.Errorf("promote %s: %w", c.ID, err)
		}
		files = append(files, ref.File)
	}
	if err := os.RemoveAll(dir); err != nil {
		return rec, fmt.Errorf("%s candidate %s: %w", d.Action, c.ID, err)
	}
	res, err := skill.CommitFiles(ref, files, msg, now)
	if err != nil {
		return rec, err
	}
	rec.Commit = res.Commit
	return rec, j.Decide(rec)
}
