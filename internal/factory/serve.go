package factory

import (
	"context"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/config"
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
		Projects: f.sharedProjects,
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

// sharedProjects are the desk's registered projects a server may show
// besides its own: a project that keeps its memory to itself
// (share_across_projects = false) is not reachable through ?project=ID,
// as it answers no search across projects. Each project's settings are
// read afresh on every request: the person may opt out while the server
// runs, and the factory's cache is not for concurrent handlers.
func (f *Factory) sharedProjects() []serve.Project {
	var out []serve.Project
	for _, p := range serve.Registered(f.Paths.Registry()) {
		if config.Load(f.Getenv, p.Root).ShareAcrossProjects {
			out = append(out, p)
		}
	}
	return out
}
