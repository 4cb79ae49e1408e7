package doctor

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// doctorNight reports the project's last night: when, its cost and
// problems, the days it could not write and why, the files it left outside
// the git backup, and the lint findings it kept; then the CORE.md lines
// waiting for review.
func doctorNight(rep *Report, l project.Layout) {
	last, found, kept := night.ReadLast(l.LongDir())
	if last == nil {
		// True of every project until its first night: information.
		rep.Add("ok", "", "night pass: none yet (`memhook night` runs one now; `memhook schedule install` runs it every day)")
	} else {
		level, hint := "ok", ""
		if len(last.Problems) > 0 {
			level, hint = "warn", "run `memhook night --project "+l.Root+"` to see the problems"
		}
		rep.Add(level, hint, "last night %s: %d model calls (%d input, %d output tokens), %d files written, %d problems", last.Date, last.Calls, last.Tokens, last.OutputTokens, len(last.Wrote), len(last.Problems))
		if last.Failed != "" {
			rep.Add("warn", "fix the provider; keep .claude/memory_long/.cerebro/night/cache/ (the next night resumes from it)", "the last night stopped on a provider failure, the day waits at its saved step: %s", last.Failed)
		}
		if last.UsageStop != "" {
			rep.Add("warn", "a night makes no call after one whose cost is unknown; check `claude -p --output-format json` reports usage", "the last night stopped: the provider did not report the usage of %s", last.UsageStop)
		}
		for _, c := range last.Changed {
			rep.Add("warn", "run `"+c.Command+"` to have the night read the day again", "%s", c.String())
		}
		if len(last.OutsideBackup) > 0 {
			rep.Add("warn", "git's ignore rules (.gitignore, .git/info/exclude, your global excludes) keep them out of memory's history; they stay on disk", "outside the git backup: %s", strings.Join(last.OutsideBackup, ", "))
		}
		if kept {
			errs, warns := lint.Count(found)
			level := "ok"
			if errs > 0 {
				level = "warn"
			}
			rep.Add(level, "see `memhook lint`", "lint at the last night: %d errors, %d warnings", errs, warns)
		}
	}
	if ps, err := longterm.New(l.Root).CoreProposals(); err == nil && len(ps) > 0 {
		rep.Add("warn", "run `memhook core review` to add or drop them", "%d CORE.md line(s) proposed by the night wait for review", len(ps))
	}
}
