package night

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
)

// BudgetFile, in the desk's private short-term folder, keeps what the
// current night has spent, so runs on the same night share one budget.
const BudgetFile = "night-budget.json"

// SharedBudget is the night's shared budget (night.max_calls and
// night.max_tokens), read from the desk folder deskDir, its calls also
// taken from the user's daily count of night calls in the state dir. A
// dry run gets a budget of its own that it never saves.
func SharedBudget(deskDir, state string, now time.Time, maxCalls, maxTokens int, dryRun bool) *Budget {
	date := now.Format(time.DateOnly)
	if dryRun {
		return LoadBudget("", date, maxCalls, maxTokens)
	}
	b := LoadBudget(filepath.Join(deskDir, BudgetFile), date, maxCalls, maxTokens)
	day := claude.DailyBudget(state, claude.UseNight, maxCalls)
	b.Day = &day
	return b
}

// Batch is one night over one or more projects.
type Batch struct {
	Roots   []string
	Now     time.Time        // the night's date and time
	Clock   func() time.Time // stamps the night log's lines
	DryRun  bool             // also: no night log line
	DeskDir string           // where the night log is
	// Options makes a project's options (its own settings: the model
	// choice may differ per project; Now, DryRun and the budget are the
	// batch's).
	Options func(root string) (Options, error)
	Budget  *Budget
	// Index, when set, brings a project's search index up to date after
	// its night (what the night wrote, and what no flush indexed), so that
	// no search waits on it; its failure is a warning.
	Index func(ctx context.Context, root string) error
	// Progress, Out, Err and Warn may be nil: a "[i/n] root" line per
	// project, each report as text, a project's error, a night log that
	// could not be written.
	Progress, Out, Err, Warn io.Writer
}

// Outcome is what a batch did.
type Outcome struct {
	Reports  []*Report
	Failed   int  // projects whose night stopped with an error
	Provider bool // the model provider failed in some project
}

// Run runs every project's night in turn; one project's failure, even a
// panic, never stops the next.
func (b Batch) Run(ctx context.Context) Outcome {
	var out Outcome
	for i, root := range b.Roots {
		if b.Progress != nil {
			fmt.Fprintf(b.Progress, "night [%d/%d] %s …\n", i+1, len(b.Roots), root)
		}
		rep, err := b.one(ctx, root)
		if err != nil {
			out.Failed++
			rep = &Report{Project: root, Date: b.Now.Format(time.DateOnly), Problems: []string{err.Error()}}
			writef(b.Err, "memhook: error: night %s: %v\n", root, err)
		}
		out.Reports = append(out.Reports, rep)
		if rep.Failed != "" {
			out.Provider = true
		}
		if !b.DryRun {
			// The line is stamped with when the run happened; date= is the night's.
			if lerr := AppendLog(b.DeskDir, b.Clock(), rep); lerr != nil {
				writef(b.Warn, "memhook: warning: %v\n", lerr)
			}
		}
		if b.Out != nil {
			WriteText(b.Out, rep)
		}
		if b.Index != nil && !b.DryRun {
			if ierr := b.Index(ctx, root); ierr != nil {
				writef(b.Warn, "memhook: warning: index %s: %v\n", root, ierr)
			}
		}
	}
	return out
}

func (b Batch) one(ctx context.Context, root string) (rep *Report, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("night stopped by an internal error: %v", r)
		}
	}()
	if fi, serr := os.Stat(root); serr != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not reachable", root)
	}
	o, err := b.Options(root)
	if err != nil {
		return nil, err
	}
	o.Now, o.DryRun, o.Budget = b.Now, b.DryRun, b.Budget
	return Run(ctx, o)
}

func writef(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}

// At is when the night of date runs: the date's last minute, so that the
// date is "today" and never closed.
func At(date time.Time) time.Time { return date.Add(23*time.Hour + 59*time.Minute) }

// PrintTo sets where the batch prints for a front end writing to out and
// errw. With json, out carries the reports alone (the caller prints
// them) and errw the warnings. A batch over every project (all) off a
// terminal — the daily job — prints nothing but its errors; on a
// terminal it shows its progress.
func (b *Batch) PrintTo(out, errw io.Writer, all, terminal, json bool) {
	quiet := all && !terminal && !json
	if all && terminal {
		b.Progress = errw
	}
	if !json {
		b.Err = errw
	}
	if !quiet {
		b.Warn = errw
	}
	if !json && !quiet {
		b.Out = out
	}
}

// Troubled reports whether some project's night failed or the provider
// did: every project has had its turn, and the exit code tells the
// scheduler.
func (o Outcome) Troubled() bool { return o.Failed > 0 || o.Provider }

// WriteProviderFailure says, after a provider failure, that the work
// waits and what keeps it.
func WriteProviderFailure(w io.Writer) {
	fmt.Fprintln(w, "memhook: error: night: the model provider failed; the unfinished days wait and the next night resumes at their saved step")
	fmt.Fprintln(w, "memhook: hint: fix the provider (see the problem above and `memhook doctor`); keep .cerebro/night/cache/: deleting it loses the progress")
}
