package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/verbrun"
)

// processStart is when this memhook started: a verb's run record counts
// its seconds from here, start-up included, as the caller waited for it.
var processStart = time.Now()

// skills is the project's skills, run records and reference, as evolve
// works with them.
func (f *Factory) skills(root string) evolve.Project {
	return evolve.Project{Root: root, PluginRoot: f.pluginRoot(), Journal: f.runJournal(root),
		Reference: f.reference(), ProposeAfter: f.Config(root).Evolution.ProposeAfter}
}

// runJournal is where a project's run records live (state dir: data, not
// definitions).
func (f *Factory) runJournal(root string) runrec.Journal {
	return runrec.Journal{Dir: f.Paths.Runs(project.ID(root))}
}

// reference is the person's copy, in the state dir.
func (f *Factory) reference() evolve.Reference {
	return evolve.Reference{Dir: filepath.Join(f.Paths.State, "instruction")}
}

// recordVerb records a recall, remember or relearn run (package verbrun)
// and returns the answer carrying its run id.
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
	ev := f.Config(root).Evolution
	rec := verbrun.Recorder{Project: f.skills(root), Parent: f.Getenv(evolve.ParentEnv), Warn: f.Err,
		Memhook: f.Executable, Env: f.Environ(), Nested: f.Getenv(claude.NestedEnv) != "",
		ShadowShare: ev.ShadowShare, ShadowBudget: ev.DailyBudget}
	return rec.Record(f.Now(), verbrun.Verb{Kind: kind, Seconds: time.Since(start).Seconds(), Raw: raw, Answer: ans})
}

// giveVerdict records a verdict on a run that exists; evolve refreshes the
// skill's proposal.
func (f *Factory) giveVerdict(j runrec.Journal, root, id, verdict, note, source string, now time.Time) error {
	p := f.skills(root)
	p.Journal = j
	err := p.GiveVerdict(runrec.Verdict{Run: id, Time: now, Verdict: verdict, Note: note, Source: source})
	if errors.Is(err, evolve.ErrNoRun) {
		return withHint(fmt.Errorf("verdict: no run %q in this project's records", id), "list the runs with `memhook runs`")
	}
	return err
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
