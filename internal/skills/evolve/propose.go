package evolve

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Added is what [Propose] wrote.
type Added struct {
	Candidate    Candidate `json:"candidate"`
	Commit       string    `json:"commit"`
	EvolvingCopy bool      `json:"evolving_copy"`
	Repo         string    `json:"repo"`
	File         string    `json:"-"` // the skill's file the candidate competes with
}

// ReadCandidateText reads a candidate's text from the file a person named,
// or from stdin for "-", bounded by [MaxSkillBytes].
func ReadCandidateText(from string, stdin io.Reader) ([]byte, error) {
	if from == "-" {
		return io.ReadAll(io.LimitReader(stdin, MaxSkillBytes+1))
	}
	if _, err := safefs.ArgumentPath(from); err != nil {
		return nil, err
	}
	return ReadSkill(from)
}

// Propose adds text as candidate id of the skill ref (see [AddCandidate]).
// With root set, a skill found only in the plugin (a cache a plugin update
// replaces) first gets its evolving copy in <root>/.claude/skills,
// committed with the candidate; root "" keeps the candidate beside ref.
func Propose(ref skill.Ref, root, id string, text []byte, now time.Time) (Added, error) {
	var also []string
	if root != "" {
		var err error
		if ref, also, err = EvolvingCopy(ref, filepath.Join(root, ".claude", "skills")); err != nil {
			return Added{}, fmt.Errorf("skill candidate %s: %w", ref.Name, err)
		}
	}
	c, res, err := AddCandidate(ref, id, text, now, also...)
	if err != nil {
		return Added{}, err
	}
	return Added{Candidate: c, Commit: res.Commit, Repo: res.Repo, EvolvingCopy: len(also) > 0, File: ref.File}, nil
}

// WriteText prints the candidate added for a person.
func (a Added) WriteText(w io.Writer) {
	c := a.Candidate
	fmt.Fprintf(w, "candidate %s of skill %s: %s (commit %.12s in %s)\n", c.ID, c.Skill, c.File, a.Commit, a.Repo)
	if a.EvolvingCopy {
		fmt.Fprintf(w, "the skill's evolving copy is now %s\n", a.File)
	}
}
