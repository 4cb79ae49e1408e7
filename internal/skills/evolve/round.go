package evolve

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"sort"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// Item is one candidate's decision in a round.
type Item struct {
	Skill     string   `json:"skill"`
	Candidate string   `json:"candidate"`
	Decision  Decision `json:"decision"`
	Commit    string   `json:"commit,omitempty"` // "" on a wait or a dry run
}

// Round decides every candidate of the skills refs name on the recorded
// runs and, unless dryRun, applies each promotion and removal (one commit
// and one record each). At most one candidate per skill is promoted in a
// round: the others' pairs ran against the version it replaced, so they
// wait for pairs against the new one.
func Round(refs []skill.Ref, runs []runrec.Run, rules Rules, j runrec.Journal, now time.Time, dryRun bool) ([]Item, error) {
	var items []Item
	for _, ref := range refs {
		cs, err := Candidates(ref)
		if err != nil {
			return items, err
		}
		promoted := false
		for _, c := range cs {
			d := Decide(runs, c, rules, now)
			if promoted && d.Action == Promote {
				d.Action, d.Why = Wait, "another candidate was just promoted; its pairs ran against the previous version"
			}
			it := Item{Skill: ref.Name, Candidate: c.ID, Decision: d}
			if d.Action != Wait && !dryRun {
				rec, err := Apply(ref, c, d, j, now)
				if err != nil {
					return items, fmt.Errorf("evolve %s/%s: %w", ref.Name, c.ID, err)
				}
				it.Commit = rec.Commit
				promoted = promoted || d.Action == Promote
			}
			items = append(items, it)
		}
	}
	return items, nil
}

// PickCandidate is the candidate a shadow pair of the run races: spread
// over the candidates by a hash of the run id, so one run always picks the
// same. cs must not be empty.
func PickCandidate(cs []Candidate, runID string) Candidate {
	h := fnv.New32a()
	h.Write([]byte(runID))
	return cs[int(h.Sum32())%len(cs)]
}

// WithCandidates lists the skills that have candidates, each from the
// first of dirs (skills folders, the one Claude Code loads first leading)
// that holds it.
func WithCandidates(dirs []string) []skill.Ref {
	var out []skill.Ref
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, name := range skillNames(d) {
			if seen[name] {
				continue
			}
			ref, err := skill.Named(d, name)
			if err != nil {
				continue
			}
			seen[name] = true
			if cs, _ := Candidates(ref); len(cs) > 0 {
				out = append(out, ref)
			}
		}
	}
	return out
}

// skillNames lists the folders of dir that hold a SKILL.md, sorted.
func skillNames(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*", "SKILL.md"))
	var out []string
	for _, p := range m {
		out = append(out, filepath.Base(filepath.Dir(p)))
	}
	sort.Strings(out)
	return out
}
