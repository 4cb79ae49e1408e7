package doctor

import (
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
)

// checkModelCalls shows what each user of model calls has spent of its
// daily budget today; a spent one is a warning, for it falls back or
// waits until tomorrow.
func checkModelCalls(rep *Report, env *Env) {
	user, eff := config.Load(env.Getenv, ""), env.Config(env.root)
	rows := []struct {
		use, name, setting string
		limit              int
	}{
		{claude.UseDistiller, "claude distiller", "distiller.daily_budget", eff.Distiller.DailyBudget},
		{claude.UseResearch, "extreme recall", "recall.extreme_daily_calls", user.Recall.ExtremeDailyCalls},
		{claude.UseEvolution, "skill evolution", "evolution.daily_budget", eff.Evolution.DailyBudget},
		{claude.UseNight, "night", "night.max_calls", user.Night.MaxCalls},
	}
	for _, r := range rows {
		used, _ := claude.DailyBudget(env.Paths.State, r.use, r.limit).Used(env.Now)
		level, hint := "ok", ""
		if used >= r.limit {
			level, hint = "warn", "the budget renews tomorrow; raise "+r.setting+" in "+filepath.Join("~", ".config", "cerebro", "config.toml")+" to spend more"
		}
		rep.Add(level, hint, "%s: %d of %d model calls spent today (%s)", r.name, used, r.limit, r.setting)
	}
}
