package evolve

import (
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// ShadowOf finds what a shadow pair of the recorded run id needs: the
// run, which must be a recall with a skill (a shadow must never write
// memory), the skill where Claude Code loads it from (skillFile names its
// file, "" when there is none), and the candidate the run picks.
func ShadowOf(j runrec.Journal, id string, skillFile func(name string) string) (runrec.Run, skill.Ref, Candidate, error) {
	st, err := runrec.OpenStore(j)
	if err != nil {
		return runrec.Run{}, skill.Ref{}, Candidate{}, err
	}
	parent, ok, err := st.Get(id)
	st.Close()
	if err != nil {
		return parent, skill.Ref{}, Candidate{}, err
	}
	if !ok {
		return parent, skill.Ref{}, Candidate{}, fmt.Errorf("shadow: no run %q", id)
	}
	if parent.Kind != runrec.KindRecall || len(parent.Skills) == 0 {
		return parent, skill.Ref{}, Candidate{}, fmt.Errorf("shadow: run %s is a %s with no skill; only recalls are shadowed (a shadow must never write memory)", parent.ID, parent.Kind)
	}
	name := parent.Skills[0].Name
	file := skillFile(name)
	ref, ok := skill.Locate(file)
	if file == "" || !ok {
		return parent, ref, Candidate{}, fmt.Errorf("shadow: skill %s not found", name)
	}
	cs, err := Candidates(ref)
	if err != nil || len(cs) == 0 {
		return parent, ref, Candidate{}, fmt.Errorf("shadow: skill %s has no candidate", name)
	}
	return parent, ref, PickCandidate(cs, parent.ID), nil
}

// WriteItems prints a decision round for a person, one line a candidate.
func WriteItems(w io.Writer, items []Item, dryRun bool) {
	if len(items) == 0 {
		fmt.Fprintln(w, "no skill candidates to decide")
	}
	for _, it := range items {
		verb := it.Decision.Action
		if dryRun && verb != Wait {
			verb = "would " + verb
		}
		fmt.Fprintf(w, "%s/%s: %s — %s", it.Skill, it.Candidate, verb, it.Decision.Why)
		if it.Commit != "" {
			fmt.Fprintf(w, " (commit %.12s)", it.Commit)
		}
		fmt.Fprintln(w)
	}
}
