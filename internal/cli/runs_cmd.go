package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/spawn"
)

// processStart is when this memhook started: a verb's run record counts
// its seconds from here, start-up included, as the caller waited for it.
var processStart = time.Now()

// runJournal is where a project's run records live (state dir: data, not
// definitions).
func (f *Factory) runJournal(root string) runrec.Journal {
	return runrec.Journal{Dir: f.Paths.Runs(project.ID(root))}
}

// verbSkill is the skill that teaches the model each verb.
var verbSkill = map[string]string{
	runrec.KindRecall: evolve.InstructionSkill, runrec.KindRemember: evolve.InstructionSkill, runrec.KindRelearn: "relearn",
}

// runFields are what a verb's answer gains: the id a caller gives its
// verdict by, and a proposal when the skill behind the verb keeps failing.
type runFields struct {
	RunID    string `json:"run_id,omitempty"`
	Proposal string `json:"proposal,omitempty"`
}

// One wrapper per answer type: JSON drops fields that two embedded types
// share (params, error), so the answers are never embedded together.
type (
	recallOut struct {
		*blackbox.RecallAnswer
		runFields
	}
	rememberOut struct {
		*blackbox.RememberAnswer
		runFields
	}
	relearnOut struct {
		*blackbox.RelearnResult
		runFields
	}
)

// recordVerb records a recall, remember or relearn run, takes the verdict a
// caller sent along with this request, starts a shadow run when this recall
// falls in the declared share, and returns the answer carrying its run id.
// Recording never fails the verb: a problem is one line on stderr.
func (f *Factory) recordVerb(kind, dir string, raw blackbox.Raw, ans any) any {
	return f.recordVerbSince(processStart, kind, dir, raw, ans)
}

// recordVerbSince is recordVerb for a verb that started at start: the MCP
// server answers many in one process.
func (f *Factory) recordVerbSince(start time.Time, kind, dir string, raw blackbox.Raw, ans any) any {
	root, err := f.projectRoot(dir)
	if err != nil || ans == nil {
		return ans
	}
	now := f.Now()
	j := f.runJournal(root)
	run := runrec.Run{ID: runrec.NewID(now), Time: now, Kind: kind, Seconds: time.Since(start).Seconds(),
		Parent: f.Getenv(evolve.ParentEnv)}
	if raw != nil {
		var text string
		json.Unmarshal(raw["text"], &text)
		run.Request = text
	}
	fields := &runFields{}
	var out any
	var params map[string]blackbox.Fate
	switch a := ans.(type) {
	case *blackbox.RecallAnswer:
		if a == nil {
			return ans
		}
		o := &recallOut{RecallAnswer: a}
		out, params, fields = o, a.Params, &o.runFields
		run.Depth, run.AnswerKind = a.DepthUsed, a.Kind
		for _, r := range a.Report {
			var calls int
			if r.Level == blackbox.LevelResearch && r.Note != "" {
				fmt.Sscanf(r.Note, "%d model calls", &calls)
				run.ModelCalls += calls
			}
		}
	case *blackbox.RememberAnswer:
		if a == nil {
			return ans
		}
		o := &rememberOut{RememberAnswer: a}
		out, params, fields = o, a.Params, &o.runFields
		run.AnswerKind = "stored"
		if a.Error != "" {
			run.Error = a.Error
		}
	case *blackbox.RelearnResult:
		if a == nil {
			return ans
		}
		o := &relearnOut{RelearnResult: a}
		out, fields = o, &o.runFields
		run.AnswerKind = "relearned"
		if a.Error != "" {
			run.Error = a.Error
		}
	default:
		return ans
	}
	name := verbSkill[kind]
	file := f.skillFile(root, name)
	if file != "" {
		run.Skills = []runrec.Skill{{Name: name, Version: evolve.FileVersion(file)}}
	}
	if v, ok := raw["verdict"]; ok && params != nil {
		params["verdict"] = f.callerVerdict(j, root, v, now)
	}
	if err := j.Append(run); err != nil {
		fmt.Fprintf(f.Err, "memhook: warning: %v\n", err)
		return ans
	}
	if run.Miss() && name != "" {
		if st, err := runrec.OpenStore(j); err == nil {
			f.refreshProposal(st, j, root, name)
			st.Close()
		}
	}
	// The person's reference is taken at the memory's first use, from the
	// plugin's shipped instruction, before any edit can reach it.
	f.reference().EnsureInitial(f.instructionFiles(root), now)
	fields.RunID = run.ID
	fields.Proposal = evolve.ReadProposal(j, name)
	if kind == runrec.KindRecall && run.Parent == "" && file != "" {
		f.maybeShadow(root, run.ID, name)
	}
	return out
}

// callerVerdict records the verdict a calling model sent with its next
// request: {"run": ID, "verdict": "good"|"bad", "note": TEXT}.
func (f *Factory) callerVerdict(j runrec.Journal, root string, raw json.RawMessage, now time.Time) blackbox.Fate {
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
	if err := f.giveVerdict(j, root, v.Run, v.Verdict, v.Note, "caller", now); err != nil {
		return blackbox.Fate{Fate: blackbox.FateBadForm, Reason: err.Error()}
	}
	return blackbox.Fate{Fate: blackbox.FateAccepted, Note: fmt.Sprintf("verdict %s recorded for run %s", v.Verdict, v.Run)}
}

// giveVerdict records a verdict on a run that exists; evolve refreshes the
// skill's proposal.
func (f *Factory) giveVerdict(j runrec.Journal, root, id, verdict, note, source string, now time.Time) error {
	err := evolve.GiveVerdict(j, runrec.Verdict{Run: id, Time: now, Verdict: verdict, Note: note, Source: source}, f.proposeAfter(root))
	if errors.Is(err, evolve.ErrNoRun) {
		return withHint(fmt.Errorf("verdict: no run %q in this project's records", id), "list the runs with `memhook runs`")
	}
	return err
}

// proposeAfter is the project's evolution.propose_after (0: evolve's
// default).
func (f *Factory) proposeAfter(root string) int {
	return f.Config(root).Evolution.ProposeAfter
}

// refreshProposal rewrites the skill's proposal by the project's threshold.
func (f *Factory) refreshProposal(st *runrec.Store, j runrec.Journal, root, name string) {
	evolve.RefreshProposal(st, j, name, f.proposeAfter(root))
}

// maybeShadow starts `memhook evolve shadow` in the background when the
// skill has a candidate and this run falls in the declared share. It never
// waits for it: the caller's answer is the active version's alone.
func (f *Factory) maybeShadow(root, runID, name string) {
	if f.Getenv(claude.NestedEnv) != "" {
		return
	}
	eff := f.Config(root)
	if !evolve.ShadowWanted(runID, eff.Evolution.ShadowShare, eff.Evolution.DailyBudget, f.skillFile(root, name)) {
		return
	}
	if f.Executable == "" {
		return
	}
	cmd := exec.Command(f.Executable, "evolve", "shadow", runID, "--project", root)
	cmd.Dir = root
	cmd.Env = f.Environ()
	if _, err := spawn.Start(cmd); err != nil {
		fmt.Fprintf(f.Err, "memhook: warning: start shadow run: %v\n", err)
	}
}
