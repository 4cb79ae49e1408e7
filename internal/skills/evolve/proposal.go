package evolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ProposalWindow is how many of a skill's latest runs a proposal looks at.
const ProposalWindow = 10

// DefaultProposeAfter is how many bad verdicts and misses in the window
// raise a proposal when evolution.propose_after is not set.
const DefaultProposeAfter = 3

// maxProposals bounds the proposals file: a few lines per skill.
const maxProposals = 64 << 10

// ProposalsPath is the file holding each failing skill's proposal, one
// per skill name, beside the run journal.
func ProposalsPath(j runrec.Journal) string { return filepath.Join(j.Dir, "proposals.json") }

// RefreshProposal writes (or clears) the note the model reads in the next
// answer of the skill's verbs when the skill keeps failing: at least
// after (<= 0: [DefaultProposeAfter]) bad verdicts plus misses in its last
// [ProposalWindow] real runs (shadow arms and their children left out).
// memhook only says so; the model or a person writes the candidate.
func RefreshProposal(st *runrec.Store, j runrec.Journal, name string, after int) error {
	runs, err := st.Runs(runrec.Filter{})
	if err != nil {
		return err
	}
	sum := runrec.Summarize(latestRuns(runs, name, ProposalWindow))
	if after <= 0 {
		after = DefaultProposeAfter
	}
	props := readProposals(j)
	if sum.Bad+sum.Misses >= after {
		props[name] = fmt.Sprintf("skill %s: %d bad verdicts and %d misses (level 5, nothing found) in its last %d runs. "+
			"Write a second version beside it and let it compete in the shadow: save it to a file and run "+
			"`memhook skill candidate %s --from FILE`; the active version stays until measurements say otherwise.",
			name, sum.Bad, sum.Misses, sum.Runs, name)
	} else {
		delete(props, name)
	}
	data, _ := json.Marshal(props)
	return atomicfile.ReplaceUnsynced(ProposalsPath(j), data, 0o600)
}

// latestRuns are the newest n real runs that used the skill, newest first.
func latestRuns(runs []runrec.Run, name string, n int) []runrec.Run {
	var mine []runrec.Run
	for i := len(runs) - 1; i >= 0 && len(mine) < n; i-- {
		r := runs[i]
		if r.Kind == runrec.KindShadow || r.Parent != "" {
			continue
		}
		for _, s := range r.Skills {
			if s.Name == name {
				mine = append(mine, r)
				break
			}
		}
	}
	return mine
}

// ReadProposal is the skill's current proposal, "" when it has none.
func ReadProposal(j runrec.Journal, name string) string {
	return readProposals(j)[name]
}

// readProposals reads the proposals file; a missing, oversized or broken
// file reads as no proposals (the next refresh rewrites it).
func readProposals(j runrec.Journal) map[string]string {
	props := map[string]string{}
	if b, err := safefs.ReadFile(ProposalsPath(j), maxProposals); err == nil {
		json.Unmarshal(b, &props)
	}
	return props
}

// ErrNoRun means a verdict names a run the records do not hold.
var ErrNoRun = errors.New("no such run")

// GiveVerdict records a verdict on a run that exists, then refreshes the
// proposal of every skill the run used (after as in [RefreshProposal]).
// The error wraps [ErrNoRun] when the run is unknown.
func GiveVerdict(j runrec.Journal, v runrec.Verdict, after int) error {
	verdict, err := runrec.ParseVerdict(v.Verdict)
	if err != nil {
		return err
	}
	v.Verdict = verdict
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	run, ok, err := st.Get(v.Run)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("verdict: run %q: %w", v.Run, ErrNoRun)
	}
	if err := j.Verdict(v); err != nil {
		return err
	}
	for _, s := range run.Skills {
		if err := st.Sync(); err == nil {
			RefreshProposal(st, j, s.Name, after)
		}
	}
	return nil
}

// ShadowWanted says whether a recall run should start a shadow pair: it
// falls in the declared share, the day's budget is not zero, and the skill
// (whose active file is skillFile) has at least one candidate.
func ShadowWanted(runID string, share float64, budget int, skillFile string) bool {
	if skillFile == "" || !Sampled(runID, share) || budget <= 0 {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(filepath.Dir(skillFile), CandidatesDir))
	return err == nil && len(ents) > 0
}
