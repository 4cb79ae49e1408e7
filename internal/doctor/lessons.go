package doctor

import (
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
)

// doctorLessons says what the project's lessons hold and what their
// reminders did (docs/lessons.md).
func doctorLessons(rep *Report, env *Env, root string) {
	cfg := env.Config(root)
	l, err := lessons.List(root, lessons.RecordFor(env.Paths.State, project.ID(root)), cfg.Lessons.RetireAfter, cfg.Lessons.Enforce)
	if err != nil {
		rep.Add("warn", "`memhook lessons` shows the file; fix or delete the lines it cannot read (the hooks skip them meanwhile)", "lessons: %v", err)
		return
	}
	if len(l.Rows) == 0 && len(l.Enforced) == 0 {
		rep.Add("ok", "", "lessons: none yet (the flush writes them from failures and their fixes)")
		return
	}
	var shown, heeded, repeated, retired int
	for _, r := range l.Rows {
		shown, heeded, repeated = shown+r.Stat.Shown, heeded+r.Stat.Heeded, repeated+r.Stat.Repeated
		if r.Retired {
			retired++
		}
	}
	state := "on"
	if !cfg.Lessons.Remind {
		state = "off (lessons.remind)"
	}
	rep.Add("ok", "", "lessons %s: %d (%d retired), reminders %s: shown %d, heeded %d, repeated anyway %d; %d enforced by your settings (`memhook lessons` lists them)",
		l.File, len(l.Rows), retired, state, shown, heeded, repeated, len(l.Enforced))
}
