package factory

import (
	"context"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
)

// ServerOptions wire the web application to memory the way the commands
// open it: the same box, search, rollup and skills, for the project at
// root it is started for (its skills from skillsDir too, when given) and
// for each project of the desk's registry. The caller sets where it
// listens (Addr, Limits).
func (f *Factory) ServerOptions(root, skillsDir string) serve.Options {
	return serve.Options{
		Now: f.Now, Log: f.Err,
		Start:    serve.Project{ID: project.ID(root), Name: filepath.Base(root), Root: root},
		Projects: func() []serve.Project { return serve.Registered(f.Paths.Registry()) },
		SkillsDirs: func(r string) []serve.SkillsDir {
			if r == root {
				return serve.SkillsDirsOf(f.SkillDirs(r), skillsDir)
			}
			return serve.SkillsDirsOf(f.SkillDirs(r), "")
		},
		Rules: func(r string) evolve.Rules {
			return EvolveRules(f.Config(r).Evolution)
		},
		Runs: f.Runs,
		// The same path as `memhook verdict RUN_ID good|bad`: the run must
		// exist and the skill's proposal is refreshed.
		Verdict: func(r, run, verdict string) error {
			return f.GiveVerdict(r, run, verdict, "", "person", f.Now())
		},
		OpenBox: f.OpenBox,
		Desk:    f.Paths.Home,
		Search: func(ctx context.Context, q serve.SearchQuery) (*search.Response, error) {
			// `memhook search --scope SCOPE`: the indexes caught up within
			// the budget, then searched.
			m, _, err := f.OpenMemory(q.Root, "", string(search.Scope(q.Scope)))
			if err != nil {
				return nil, err
			}
			return m.Query(ctx, q.Text, q.Limit, f.Now(), nil)
		},
		Rollup: func() *rollup.Report { return rollup.Collect(f.RollupOptions(f.Now())) },
	}
}
