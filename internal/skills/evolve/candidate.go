// Package evolve treats a skill as a hypothesis with a rival: candidate
// versions live beside the active one (<skills>/<name>/candidates/<id>/
// SKILL.md), run in the shadow of real requests (a bounded claude -p per
// arm, the answers recorded, never returned), and replace the active
// version only when outside verdicts say they won and the records say they
// did not cost more; a loser is removed. Every change is one commit of the
// skill and one decision record.
//
//	c, res, err := evolve.AddCandidate(ref, "", text, now)   // committed
//	pair, err := evolve.Shadow{...}.Run(ctx, parent, ref, c)  // background only
//	d := evolve.Judge(runs, c, evolve.DefaultRules(), now)    // promote, remove or wait
//	err = evolve.Apply(ref, c, d, journal, now)               // one commit + record
//	items, err := evolve.Round(refs, runs, rules, journal, now, false) // every candidate, one promotion per skill
//
// A failing skill gets a proposal, the note its verbs' next answer carries
// ([RefreshProposal], refreshed by [GiveVerdict]); a judge sees shadow
// pairs blind ([Unjudged], [BlindPair.Judge]).
//
// memhook never writes skill text itself: a candidate's text comes from the
// model or a person; evolution only copies it over the active file or
// deletes it.
package evolve

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// CandidatesDir is the folder under a skill holding its candidates.
const CandidatesDir = "candidates"

// MaxSkillBytes bounds every skill file evolution reads: a repository is
// hostile input.
const MaxSkillBytes = 256 << 10

// Candidate is one rival version of a skill.
type Candidate struct {
	Skill string    `json:"skill"`
	ID    string    `json:"id"`
	File  string    `json:"file"`
	Since time.Time `json:"since"` // when it was written (the file's time)
}

var idRE = lazyregexp.New(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// CandidateFile is where candidate id of the skill lives.
func CandidateFile(ref skill.Ref, id string) string {
	return filepath.Join(ref.Dir(), CandidatesDir, id, "SKILL.md")
}

// AddCandidate writes text as a candidate of the skill and commits it,
// together with the files in also (an evolving copy just made). An empty
// id is made from the time.
func AddCandidate(ref skill.Ref, id string, text []byte, now time.Time, also ...string) (Candidate, skill.Result, error) {
	if id == "" {
		id = "c" + now.UTC().Format("20060102-150405")
	}
	if !idRE.MatchString(id) {
		return Candidate{}, skill.Result{}, fmt.Errorf("candidate id %q: want lower-case letters, digits, '.', '_' or '-'", id)
	}
	if len(text) == 0 || len(text) > MaxSkillBytes {
		return Candidate{}, skill.Result{}, fmt.Errorf("candidate text: want 1 to %d bytes, got %d", MaxSkillBytes, len(text))
	}
	f := CandidateFile(ref, id)
	if _, err := os.Lstat(f); err == nil {
		return Candidate{}, skill.Result{}, fmt.Errorf("candidate %s of skill %s already exists (%s)", id, ref.Name, f)
	}
	if err := atomicfile.Write(f, text, 0o644); err != nil {
		return Candidate{}, skill.Result{}, fmt.Errorf("write candidate: %w", err)
	}
	c := Candidate{Skill: ref.Name, ID: id, File: f, Since: now}
	res, err := skill.CommitFiles(ref, append([]string{f}, also...), fmt.Sprintf("skill %s: candidate %s", ref.Name, id), now)
	return c, res, err
}

// Candidates lists the skill's candidates, oldest first.
func Candidates(ref skill.Ref) ([]Candidate, error) {
	dir := filepath.Join(ref.Dir(), CandidatesDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list candidates of %s: %w", ref.Name, err)
	}
	var out []Candidate
	for _, e := range ents {
		if !e.IsDir() || !idRE.MatchString(e.Name()) {
			continue
		}
		f := filepath.Join(dir, e.Name(), "SKILL.md")
		st, err := os.Lstat(f)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		out = append(out, Candidate{Skill: ref.Name, ID: e.Name(), File: f, Since: st.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out, nil
}

// ReadSkill reads a skill file, bounded, refusing anything but a regular
// file.
func ReadSkill(path string) ([]byte, error) {
	return safefs.ReadFile(path, MaxSkillBytes)
}

// Version is git's object id of content: the id `git hash-object` prints,
// naming one version of a file whether or not it was committed.
func Version(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// FileVersion is [Version] of a skill file, "" when it cannot be read.
func FileVersion(path string) string {
	b, err := ReadSkill(path)
	if err != nil {
		return ""
	}
	return Version(b)
}
