package evolve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// Project is one project's skills as Claude Code loads them, its run
// records and the person's reference copy: what every skills command of
// memhook starts from. Build one per project root and call its methods.
type Project struct {
	Root       string
	PluginRoot string // the plugin's folder; "" when unknown
	Journal    runrec.Journal
	Reference  Reference
	// ProposeAfter is evolution.propose_after (0: [DefaultProposeAfter]).
	ProposeAfter int
}

// Dirs are the skills folders of the project, the evolving copy first:
// <project>/.claude/skills (a plugin update never touches it), then the
// plugin's own (a cache Claude Code may replace).
func (p Project) Dirs() []string {
	dirs := []string{filepath.Join(p.Root, ".claude", "skills")}
	if p.PluginRoot != "" {
		dirs = append(dirs, filepath.Join(p.PluginRoot, "skills"))
	}
	return dirs
}

// SkillFile is the file Claude Code loads for the skill, the evolving copy
// first; "" when there is none.
func (p Project) SkillFile(name string) string {
	for _, d := range p.Dirs() {
		if f := regularFile(filepath.Join(d, name, "SKILL.md")); f != "" {
			return f
		}
	}
	return ""
}

// InstructionFiles are the memory instruction files Claude Code loads for
// the project, the plugin's own (the shipped one) first.
func (p Project) InstructionFiles() []string {
	var out []string
	dirs := p.Dirs()
	for i := len(dirs) - 1; i >= 0; i-- {
		if f := regularFile(filepath.Join(dirs[i], InstructionSkill, "SKILL.md")); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func regularFile(p string) string {
	if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

// Decide runs one decision round over the project's candidates (see
// [Round]), then refreshes the proposals of the verbs' skills.
func (p Project) Decide(rules Rules, now time.Time, dryRun bool) ([]Item, error) {
	st, err := runrec.OpenStore(p.Journal)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	runs, err := st.Runs(runrec.Filter{})
	if err != nil {
		return nil, err
	}
	items, err := Round(WithCandidates(p.Dirs()), runs, rules, p.Journal, now, dryRun)
	if err != nil {
		return nil, err
	}
	if err := st.Sync(); err == nil {
		for _, name := range []string{InstructionSkill, "relearn"} {
			RefreshProposal(st, p.Journal, name, p.ProposeAfter)
		}
	}
	return items, nil
}

// GiveVerdict records a verdict on one of the project's runs (see
// [GiveVerdict]); the error wraps [ErrNoRun] when the run is unknown.
func (p Project) GiveVerdict(v runrec.Verdict) error {
	return GiveVerdict(p.Journal, v, p.ProposeAfter)
}

// Shadow runs the shadow pair of the recorded recall runID with sh (its
// Journal is the project's; its Runner.Command is looked up on PATH)
// and logs how it went in log: it runs in the background, where nobody
// reads its output. Inside a nested model call (nested) it refuses.
func (p Project) Shadow(ctx context.Context, sh Shadow, runID string, log *runlog.Log, nested bool) (pair Pair, err error) {
	start := sh.Now()
	defer func() {
		e := runlog.Entry{Time: start, Event: "shadow", Project: p.Root, Level: "info", MS: float64(sh.Now().Sub(start).Milliseconds())}
		if err != nil {
			e.Level, e.Message = "warn", err.Error()
		} else {
			e.Message = "shadow pair of run " + runID
		}
		log.Write(e)
	}()
	if nested {
		return Pair{}, errors.New("shadow: refused inside a nested model call")
	}
	parent, ref, c, err := ShadowOf(p.Journal, runID, p.SkillFile)
	if err != nil {
		return Pair{}, err
	}
	command, err := exec.LookPath(sh.Runner.Command)
	if err != nil {
		return Pair{}, fmt.Errorf("shadow: find %s: %w", sh.Runner.Command, err)
	}
	sh.Runner.Command = command
	sh.Journal = p.Journal
	return sh.Run(ctx, parent, ref, c)
}

// Decisions are the promotions and removals, newest first, at most limit
// (0: all).
func (p Project) Decisions(limit int) ([]runrec.Decision, error) {
	st, err := runrec.OpenStore(p.Journal)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Decisions(limit)
}

// Pairs are the project's shadow pairs that wait for a verdict.
func (p Project) Pairs() ([]BlindPair, error) {
	st, err := runrec.OpenStore(p.Journal)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return Unjudged(st)
}

// ErrNoPair means a judge named a pair that does not wait for a verdict.
var ErrNoPair = errors.New("no unjudged pair")

// JudgePair records choice (1, 2, both or neither) on the unjudged pair id.
func (p Project) JudgePair(id, choice string, now time.Time) error {
	pairs, err := p.Pairs()
	if err != nil {
		return err
	}
	for _, bp := range pairs {
		if bp.Pair == id {
			return bp.Judge(p.Journal, choice, now)
		}
	}
	return fmt.Errorf("evolve judge: %w %q", ErrNoPair, id)
}
