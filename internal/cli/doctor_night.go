package cli

import (
	"github.com/cerebro-mem/cerebro/internal/longterm/lint"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// doctorNight reports the project's last night: when, its cost and
// problems, and the lint findings it kept.
func doctorNight(rep *doctorReport, l project.Layout) {
	last, found, kept := night.ReadLast(l.LongDir())
	if last == nil {
		// True of every project until its first night: information.
		rep.add("ok", "", "night pass: none yet (`memhook night` runs one now; `memhook schedule install` runs it every day)")
		return
	}
	level, hint := "ok", ""
	if len(last.Problems) > 0 {
		level, hint = "warn", "run `memhook night --project "+l.Root+"` to see the problems"
	}
	rep.add(level, hint, "last night %s: %d model calls, %d files written, %d problems", last.Date, last.Calls, len(last.Wrote), len(last.Problems))
	if kept {
		errs, warns := lint.Count(found)
		level := "ok"
		if errs > 0 {
			level = "warn"
		}
		rep.add(level, "see `memhook lint`", "lint at the last night: %d errors, %d warnings", errs, warns)
	}
}
