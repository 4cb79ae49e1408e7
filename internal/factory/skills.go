package factory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// pluginRoot is the plugin's folder, the one owner of that answer
// (doctor, commands, evolve, the skills and serve ask it through
// [Factory.PluginRoot]): the checkout holding the memhook at executable
// (bin/memhook's parent, links resolved), else CLAUDE_PLUGIN_ROOT; either
// only when it holds the plugin manifest. "" when neither does.
func pluginRoot(executable string, getenv func(string) string) string {
	var candidates []string
	if executable != "" {
		if exe, err := filepath.EvalSymlinks(executable); err == nil {
			candidates = append(candidates, filepath.Dir(filepath.Dir(exe)))
		}
	}
	if r := getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		candidates = append(candidates, filepath.Clean(r))
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, ".claude-plugin", "plugin.json")); err == nil {
			return c
		}
	}
	return ""
}

// SkillDirs are the skills folders of a project, the evolving copy first
// (evolve.Project.Dirs).
func (f *Factory) SkillDirs(root string) []string {
	return evolve.Project{Root: root, PluginRoot: f.PluginRoot()}.Dirs()
}

// SkillFile is the file Claude Code loads for the skill, the evolving copy
// first; "" when there is none.
func (f *Factory) SkillFile(root, name string) string {
	return evolve.Project{Root: root, PluginRoot: f.PluginRoot()}.SkillFile(name)
}

// Skills is the project's skills, run records and reference, as evolve
// works with them.
func (f *Factory) Skills(root string) evolve.Project {
	return evolve.Project{Root: root, PluginRoot: f.PluginRoot(), Journal: f.RunJournal(root),
		Reference: f.Reference(), ProposeAfter: f.Config(root).Evolution.ProposeAfter}
}

// RunJournal is where a project's run records live (state dir: data, not
// definitions).
func (f *Factory) RunJournal(root string) runrec.Journal {
	return runrec.Journal{Dir: f.Paths.Runs(project.ID(root))}
}

// Reference is the person's copy, in the state dir.
func (f *Factory) Reference() evolve.Reference {
	return evolve.Reference{Dir: filepath.Join(f.Paths.State, "instruction")}
}

// EvolveRules are the decision numbers of the evolution settings.
func EvolveRules(eff config.Evolution) evolve.Rules {
	return evolve.Rules{MinVerdicts: eff.MinVerdicts, Margin: eff.Margin, PriceSlack: eff.PriceSlack, MaxPairs: eff.MaxPairs, TrialDays: eff.TrialDays}
}

// GiveVerdict records a verdict on a run of the project at root that
// exists; evolve refreshes the skill's proposal.
func (f *Factory) GiveVerdict(root, id, verdict, note, source string, now time.Time) error {
	err := f.Skills(root).GiveVerdict(runrec.Verdict{Run: id, Time: now, Verdict: verdict, Note: note, Source: source})
	if errors.Is(err, evolve.ErrNoRun) {
		return hint.Wrap(fmt.Errorf("verdict: no run %q in this project's records", id), "list the runs with `memhook runs`")
	}
	return err
}

// SkillHook is a session's turn as the skills record it (evolve.SkillHook),
// logging to log as the hook's own entries. root is the session's project,
// "" when it could not be resolved: the hook then commits skill edits but
// records no turn.
func (f *Factory) SkillHook(root, session string, log *runlog.Log) evolve.SkillHook {
	h := evolve.SkillHook{Reference: f.Reference(), PluginRoot: f.PluginRoot, Now: f.Now(),
		Log: func(event, level, project, msg string) {
			log.Write(runlog.Entry{Time: f.Now(), Event: event, Session: session, Project: project, Level: level, Message: msg})
		}}
	if root == "" || session == "" || strings.ContainsAny(session, `/\.`) {
		return h
	}
	h.Turn = runrec.Turn{Journal: f.RunJournal(root), Marker: f.Paths.OpenTurn(project.ID(root), session), Session: session,
		Version: func(name string) string {
			if file := f.SkillFile(root, name); file != "" {
				return evolve.FileVersion(file)
			}
			return ""
		}}
	h.TurnOK = true
	return h
}

// Shadow is how a shadow run of the project at root calls the model: its
// runner, its share of the day's evolution budget and what the run sees
// of the plugin (its folder pluginRoot, the state dir).
func (f *Factory) Shadow(root, pluginRoot string) evolve.Shadow {
	eff := f.Config(root)
	return evolve.Shadow{
		Runner: claude.Runner{Command: eff.Distiller.Command, Timeout: time.Duration(eff.Evolution.TimeoutSeconds) * time.Second, Env: f.Environ(), Dir: root, Guard: shortterm.PromptGuard(eff)},
		Calls:  claude.DailyBudget(f.Paths.State, claude.UseEvolution, eff.Evolution.DailyBudget), Memhook: f.Executable, Now: f.Now,
		Vars: map[string]string{"CLAUDE_PLUGIN_ROOT": pluginRoot, "CLAUDE_PLUGIN_DATA": f.Paths.State},
	}
}

// Nested reports whether this process runs inside one of cerebro's own
// model calls, where what only a person may do is refused.
func (f *Factory) Nested() bool {
	return f.Getenv(claude.NestedEnv) != "" || claude.Nested(f.Environ())
}

// ListRuns lists the run records of the project at root that pass
// filter, the newest limit of them (0: all), with their verdicts.
func (f *Factory) ListRuns(root string, filter runrec.Filter, limit int) (runrec.Listing, error) {
	st, err := runrec.OpenStore(f.RunJournal(root))
	if err != nil {
		return runrec.Listing{}, err
	}
	defer st.Close()
	return st.List(filter, limit)
}

// Runs is every run record of the project at root.
func (f *Factory) Runs(root string) ([]runrec.Run, error) {
	st, err := runrec.OpenStore(f.RunJournal(root))
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Runs(runrec.Filter{})
}

// FindSkill looks the skill name up in skillsDir when given, else in the
// skills folders of the project holding dir ([Factory.SkillDirs]). root is
// that project, "" when skillsDir named the folder.
func (f *Factory) FindSkill(skillsDir, dir, name string) (ref skill.Ref, root string, err error) {
	dirs := []string{skillsDir}
	if skillsDir == "" {
		if root, err = f.ProjectRoot(dir); err != nil {
			return skill.Ref{}, "", err
		}
		dirs = f.SkillDirs(root)
	}
	if ref, err = skill.Find(dirs, name); err != nil {
		return ref, root, hint.Wrap(err, "name the skills folder with --skills-dir")
	}
	return ref, root, nil
}
