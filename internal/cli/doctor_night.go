package cli

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/night"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// doctorNight reports the project's last night: when, its cost and
// problems, and the lint findings it kept.
func doctorNight(rep *doctorReport, l project.Layout) {
	var last night.Report
	data, err := os.ReadFile(filepath.Join(l.LongDir(), filepath.FromSlash(night.LastFile)))
	if err != nil || json.Unmarshal(data, &last) != nil {
		rep.add("warn", "run `memhook night` (or `memhook schedule install` to run it every day)", "no night pass has run for this project yet")
		return
	}
	level, hint := "ok", ""
	if len(last.Problems) > 0 {
		level, hint = "warn", "run `memhook night --project "+l.Root+"` to see the problems"
	}
	rep.add(level, hint, "last night %s: %d model calls, %d files written, %d problems", last.Date, last.Calls, len(last.Wrote), len(last.Problems))
	var found []lint.Finding
	if data, err := os.ReadFile(filepath.Join(l.LongDir(), filepath.FromSlash(night.LintFile))); err == nil && json.Unmarshal(data, &found) == nil {
		errs, warns := lint.Count(found)
		level := "ok"
		if errs > 0 {
			level = "warn"
		}
		rep.add(level, "see `memhook lint`", "lint at the last night: %d errors, %d warnings", errs, warns)
	}
}
