// Package verbrun records one run of a memory verb — recall, remember,
// relearn — in the project's run records: the request, what the answer
// was, the skill version that taught the verb; it takes the verdict the
// caller sent along, refreshes the skill's proposal after a miss and
// starts a shadow pair when the run falls in the declared share.
//
// Build a [Recorder] for the project and call [Recorder.Record] with the
// verb's answer; it returns the answer to print, carrying its run id.
// Recording never fails the verb: a problem is one line on Warn.
package verbrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/spawn"
)

// Recorder records the verbs of one project.
type Recorder struct {
	Project evolve.Project
	// Parent is $CEREBRO_RUN_PARENT: the shadow arm this verb runs inside.
	Parent string
	Warn   io.Writer
	// Memhook, Env and Nested start `memhook evolve shadow`: never when
	// Memhook is "" or inside a nested model call.
	Memhook string
	Env     []string
	Nested  bool
	// ShadowShare and ShadowBudget are evolution.shadow_share and
	// evolution.daily_budget.
	ShadowShare  float64
	ShadowBudget int
}

// Verb is one answered verb.
type Verb struct {
	Kind    string // runrec.KindRecall, KindRemember, KindRelearn
	Seconds float64
	Raw     blackbox.Raw // the request; nil for a verb without one
	Answer  any          // *blackbox.RecallAnswer, *RememberAnswer or *RelearnResult
}

// skillOf is the skill that teaches the model each verb.
var skillOf = map[string]string{
	runrec.KindRecall: evolve.InstructionSkill, runrec.KindRemember: evolve.InstructionSkill, runrec.KindRelearn: "relearn",
}

// Fields are what a verb's answer gains: the id a caller gives its
// verdict by, and a proposal when the skill behind the verb keeps failing.
type Fields struct {
	RunID    string `json:"run_id,omitempty"`
	Proposal string `json:"proposal,omitempty"`
}

// One wrapper per answer type: JSON drops fields that two embedded types
// share (params, error), so the answers are never embedded together.
type (
	recallOut struct {
		*blackbox.RecallAnswer
		Fields
	}
	rememberOut struct {
		*blackbox.RememberAnswer
		Fields
	}
	relearnOut struct {
		*blackbox.RelearnResult
		Fields
	}
)

// Record records v at now and returns its answer carrying the run's
// fields, or v.Answer as it is when it is not a verb's answer or the run
// could not be recorded.
func (r Recorder) Record(now time.Time, v Verb) any {
	run := runrec.Run{ID: runrec.NewID(now), Time: now, Kind: v.Kind, Seconds: v.Seconds, Parent: r.Parent}
	if v.Raw != nil {
		var text string
		json.Unmarshal(v.Raw["text"], &text)
		run.Request = text
	}
	out, params, fields := describe(&run, v.Answer)
	if out == nil {
		return v.Answer
	}
	name := skillOf[v.Kind]
	file := r.Project.SkillFile(name)
	if file != "" {
		run.Skills = []runrec.Skill{{Name: name, Version: evolve.FileVersion(file)}}
	}
	j := r.Project.Journal
	if raw, ok := v.Raw["verdict"]; ok && params != nil {
		params["verdict"] = r.callerVerdict(raw, now)
	}
	if err := j.Append(run); err != nil {
		fmt.Fprintf(r.Warn, "memhook: warning: %v\n", err)
		return v.Answer
	}
	if run.Miss() && name != "" {
		if st, err := runrec.OpenStore(j); err == nil {
			evolve.RefreshProposal(st, j, name, r.Project.ProposeAfter)
			st.Close()
		}
	}
	// The person's reference is taken at the memory's first use, from the
	// plugin's shipped instruction, before any edit can reach it.
	r.Project.Reference.EnsureInitial(r.Project.InstructionFiles(), now)
	fields.RunID = run.ID
	fields.Proposal = evolve.ReadProposal(j, name)
	if v.Kind == runrec.KindRecall && run.Parent == "" && file != "" {
		r.maybeShadow(run.ID, file)
	}
	return out
}

// describe fills what the run records of the answer and wraps it; out is
// nil for anything but a verb's answer.
func describe(run *runrec.Run, ans any) (out any, params map[string]blackbox.Fate, fields *Fields) {
	switch a := ans.(type) {
	case *blackbox.RecallAnswer:
		if a == nil {
			return nil, nil, nil
		}
		o := &recallOut{RecallAnswer: a}
		run.Depth, run.AnswerKind = a.DepthUsed, a.Kind
		for _, rep := range a.Report {
			var calls int
			if rep.Level == blackbox.LevelResearch && rep.Note != "" {
				fmt.Sscanf(rep.Note, "%d model calls", &calls)
				run.ModelCalls += calls
			}
		}
		return o, a.Params, &o.Fields
	case *blackbox.RememberAnswer:
		if a == nil {
			return nil, nil, nil
		}
		o := &rememberOut{RememberAnswer: a}
		run.AnswerKind, run.Error = "stored", a.Error
		return o, a.Params, &o.Fields
	case *blackbox.RelearnResult:
		if a == nil {
			return nil, nil, nil
		}
		o := &relearnOut{RelearnResult: a}
		run.AnswerKind, run.Error = "relearned", a.Error
		return o, nil, &o.Fields
	}
	return nil, nil, nil
}

// callerVerdict records the verdict a calling model sent with its next
// request: {"run": ID, "verdict": "good"|"bad", "note": TEXT}.
func (r Recorder) callerVerdict(raw json.RawMessage, now time.Time) blackbox.Fate {
	var v struct {
		Run     string `json:"run"`
		RunID   string `json:"run_id"`
		Verdict string `json:"verdict"`
		Note    string `json:"note"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return blackbox.Fate{Fate: blackbox.FateBadForm, Reason: `want {"run": RUN_ID, "verdict": "good"|"bad", "note": TEXT}`}
	}
	if v.Run == "" {
		v.Run = v.RunID
	}
	err := r.Project.GiveVerdict(runrec.Verdict{Run: v.Run, Time: now, Verdict: v.Verdict, Note: v.Note, Source: "caller"})
	if errors.Is(err, evolve.ErrNoRun) {
		err = fmt.Errorf("verdict: no run %q in this project's records", v.Run)
	}
	if err != nil {
		return blackbox.Fate{Fate: blackbox.FateBadForm, Reason: err.Error()}
	}
	return blackbox.Fate{Fate: blackbox.FateAccepted, Note: fmt.Sprintf("verdict %s recorded for run %s", v.Verdict, v.Run)}
}

// maybeShadow starts `memhook evolve shadow` in the background when the
// skill (its active file) has a candidate and this run falls in the
// declared share. It never waits for it: the caller's answer is the
// active version's alone.
func (r Recorder) maybeShadow(runID, file string) {
	if r.Nested || !evolve.ShadowWanted(runID, r.ShadowShare, r.ShadowBudget, file) || r.Memhook == "" {
		return
	}
	cmd := exec.Command(r.Memhook, "evolve", "shadow", runID, "--project", r.Project.Root)
	cmd.Dir = r.Project.Root
	cmd.Env = r.Env
	if _, err := spawn.Start(cmd); err != nil {
		fmt.Fprintf(r.Warn, "memhook: warning: start shadow run: %v\n", err)
	}
}
