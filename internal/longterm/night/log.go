package night

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// LogFile is the desk's night log: one line per project and run.
const LogFile = "night.log"

// AppendLog adds the report's line to the desk's night log in dir: one
// line per project and run, stamped with when it ran (date= is the
// night's), in key=value pairs a person can grep.
func AppendLog(dir string, now time.Time, r *Report) error {
	line := fmt.Sprintf("%s date=%s project=%q ran=%s calls=%d tokens=%d output_tokens=%d cached=%d wrote=%d commits=%d compiled=%d facts=%d proposals=%d truths=%d truth_pending=%d links=%d core_added=%d core_proposed=%d rollups=%d ready=%d lint_errors=%d lint_warnings=%d problems=%d",
		now.UTC().Format(time.RFC3339), r.Date, r.Project, strings.Join(r.Ran, ","), r.Calls, r.Tokens, r.OutputTokens, r.Cached,
		len(r.Wrote), len(r.Commits), len(r.Compiled), r.Facts, r.Proposals, r.Truths, len(r.TruthPending),
		r.Links, r.CoreAdded, r.CoreProposed, len(r.Rollups), len(r.Ready), r.LintErrors, r.LintWarnings, len(r.Problems))
	if r.BudgetStop {
		line += " budget=stopped"
	}
	if r.UsageStop != "" {
		line += fmt.Sprintf(" usage=unreported usage_call=%q", r.UsageStop)
	}
	if r.Failed != "" {
		line += fmt.Sprintf(" failed=%q", r.Failed)
	}
	for _, c := range r.Changed {
		line += fmt.Sprintf(" changed=%q", c.String())
	}
	if len(r.OutsideBackup) > 0 {
		line += fmt.Sprintf(" outside_backup=%q", strings.Join(r.OutsideBackup, ","))
	}
	if r.Skipped != "" {
		line += fmt.Sprintf(" skipped=%q", r.Skipped)
	}
	if len(r.Problems) > 0 {
		line += fmt.Sprintf(" first_problem=%q", r.Problems[0])
	}
	if err := safefs.MkdirAll(dir); err != nil {
		return fmt.Errorf("night log: %w", err)
	}
	if err := atomicfile.Append(filepath.Join(dir, LogFile), []byte(line+"\n"), 0o644); err != nil {
		return fmt.Errorf("night log: %w", err)
	}
	return nil
}
