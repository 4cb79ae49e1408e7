package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/spf13/cobra"

	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// NightOptions are the inputs of `memhook night`.
type NightOptions struct {
	*Factory
	Project string
	All     bool
	Date    string // --now YYYY-MM-DD
	DryRun  bool
	JSON    bool
	Home    string
}

// nightBudgetFile keeps what the current night has spent, so runs on the
// same night share one budget.
const nightBudgetFile = "night-budget.json"

func newCmdNight(f *Factory) *cobra.Command {
	opts := &NightOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "night [--project DIR | --all] [--now DATE] [--dry-run]",
		Short: "Consolidate long-term memory: roll-ups, index, graph, lint, commits; compile days with a model when configured",
		Long: `night runs one idempotent pass per project and day. Without a model it rolls
up closed weeks, months and years, rebuilds the graph and index.md, runs lint
(findings kept for doctor), checks CORE.md's cap, lists closed days ready to
compile and commits edits found uncommitted. With night.model = "claude" it
also compiles ready days into wiki/_private/ digests and archives them, writes
dated facts the person stated that day, and proposes compiled truths — within
night.max_calls and night.max_tokens, with a per-day cache so a rerun costs
nothing. Each project's run adds a line to the desk's night.log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return nightRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", "", "a directory inside the project (default: the current one)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered with the org desk")
	cmd.Flags().StringVar(&opts.Date, "now", "", "the night's date, YYYY-MM-DD (default today); that day is never closed")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would run; write nothing and call no model")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the reports as JSON")
	cmd.Flags().StringVar(&opts.Home, "home", "", "the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.AddCommand(newCmdNightForget(f))
	return cmd
}

// validate checks the flags before anything is read or created.
func (opts *NightOptions) validate() error {
	if opts.All && opts.Project != "" {
		return usagef("pass one of them", "night: --all and --project exclude each other")
	}
	if opts.Date != "" {
		if _, err := parseDateFlag("night", "now", opts.Date); err != nil {
			return err
		}
	}
	return nil
}

func nightRun(opts *NightOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if opts.Home != "" {
		home, err := filepath.Abs(opts.Home)
		if err != nil {
			return fmt.Errorf("night: resolve --home: %w", err)
		}
		if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
			return withHint(fmt.Errorf("night: desk %s is not a folder", home), "pass --home with the desk folder ($CEREBRO_HOME, default ~/cerebro)")
		}
		opts.Paths.Home = home
	}
	now := opts.Now()
	if opts.Date != "" {
		d, _ := parseDateFlag("night", "now", opts.Date) // checked by validate
		// The night of a date runs at its end: that date is "today".
		now = d.Add(23*time.Hour + 59*time.Minute)
	}
	user := opts.Config("")
	deskDir := opts.Paths.DeskShortDir()
	budget := night.LoadBudget(filepath.Join(deskDir, nightBudgetFile), now.Format(time.DateOnly), user.Night.MaxCalls, user.Night.MaxTokens)
	day := claude.DailyBudget(opts.Paths.State, claude.UseNight, user.Night.MaxCalls)
	budget.Day = &day
	if opts.DryRun {
		budget = night.LoadBudget("", now.Format(time.DateOnly), user.Night.MaxCalls, user.Night.MaxTokens)
	}

	roots, err := opts.projectRoots("night", opts.All, opts.Project)
	if err != nil {
		return err
	}
	quiet := opts.All && !opts.Terminal && !opts.JSON
	var reports []*night.Report
	failed := 0
	providerFailed := false
	for i, root := range roots {
		if opts.All && opts.Terminal {
			fmt.Fprintf(opts.Err, "night [%d/%d] %s …\n", i+1, len(roots), root)
		}
		rep, err := nightProject(opts, root, now, budget)
		if err != nil {
			failed++
			rep = &night.Report{Project: root, Date: now.Format(time.DateOnly), Problems: []string{err.Error()}}
			if !opts.JSON {
				fmt.Fprintf(opts.Err, "memhook: error: night %s: %v\n", root, err)
			}
		}
		reports = append(reports, rep)
		if rep.Failed != "" {
			providerFailed = true
		}
		if !opts.DryRun {
			// The line is stamped with when the run happened; date= is the night's.
			if lerr := night.AppendLog(deskDir, opts.Now(), rep); lerr != nil && !quiet {
				fmt.Fprintf(opts.Err, "memhook: warning: %v\n", lerr)
			}
		}
		if !opts.JSON && !quiet {
			night.WriteText(opts.Out, rep)
		}
	}
	if opts.JSON {
		if opts.All {
			return printObject(opts.Out, reports, nil)
		}
		return printObject(opts.Out, reports[0], nil)
	}
	if providerFailed && !opts.JSON {
		fmt.Fprintln(opts.Err, "memhook: error: night: the model provider failed; the unfinished days wait and the next night resumes at their saved step")
		fmt.Fprintln(opts.Err, "memhook: hint: fix the provider (see the problem above and `memhook doctor`); keep .cerebro/night/cache/: deleting it loses the progress")
	}
	if failed > 0 || providerFailed {
		// Every project has had its turn; the exit code tells the
		// scheduler that some failed.
		return &exitError{code: 1}
	}
	return nil
}

// nightProject runs one project's night with its own settings (the model
// choice may differ per project; the budget is the night's).
func nightProject(opts *NightOptions, root string, now time.Time, budget *night.Budget) (rep *night.Report, err error) {
	defer func() {
		// One project's failure never stops the others.
		if r := recover(); r != nil {
			err = fmt.Errorf("night stopped by an internal error: %v", r)
		}
	}()
	if fi, serr := os.Stat(root); serr != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project folder %s is not reachable", root)
	}
	eff := opts.Config(root)
	store := longterm.New(root)
	store.GitUser = opts.gitUser()
	store.NoteBytes, store.IngestBytes = eff.Limits.NoteBytes, eff.Limits.IngestBytes
	// A project may narrow step 4 (propose, off), never switch off the
	// person's review of CORE.md: config.Policy keeps "apply" the user's.
	core := eff.Night.Core
	o := night.Options{
		Store: store, Now: now, DryRun: opts.DryRun,
		CoreMaxChars: eff.Long.CoreMaxChars, CompileAfterDays: eff.Night.CompileAfterDays,
		GitMode: eff.Long.Git, Budget: budget, MaxDayChars: eff.Night.MaxDayChars, Core: core,
	}
	switch eff.Night.Model {
	case "":
	case "claude":
		if claude.Nested(opts.Environ()) {
			// A model call from inside cerebro's own claude run would
			// recurse; the deterministic steps still run.
			fmt.Fprintln(opts.Err, "memhook: warning: night: inside a nested claude run, model steps are skipped")
			break
		}
		o.Model = night.Claude{Model: eff.Night.ClaudeModel, Runner: claude.Runner{
			Command: eff.Night.Command, Timeout: time.Duration(eff.Night.TimeoutSeconds) * time.Second,
			Env: opts.Environ(), Dir: root, Guard: shortterm.PromptGuard(eff),
		}}
	default:
		return nil, withHint(fmt.Errorf("night.model = %q: want \"\" or \"claude\"", eff.Night.Model), "set night.model in "+eff.UserFile+" or the project's .claude/cerebro.toml")
	}
	return night.Run(context.Background(), o)
}

// gitUser is where git keeps the user's settings (the global excludes
// count in every history cerebro commits).
func (f *Factory) gitUser() gitrepo.UserDirs {
	home := f.Getenv("HOME")
	if home == "" {
		home = f.Getenv("USERPROFILE")
	}
	return gitrepo.UserDirs{Home: home, ConfigHome: f.Getenv("XDG_CONFIG_HOME")}
}

// projectRoots is the one project a command runs for, or with all every
// project the desk's registry lists.
func (f *Factory) projectRoots(cmdName string, all bool, dir string) ([]string, error) {
	if !all {
		root, err := f.projectRoot(dir)
		if err != nil {
			return nil, err
		}
		return []string{root}, nil
	}
	reg, err := registry.Read(f.Paths.Registry())
	if err != nil {
		return nil, withHint(fmt.Errorf("%s: %w", cmdName, err), "see `memhook registry` to repair the registry")
	}
	var roots []string
	for _, p := range reg.Projects {
		roots = append(roots, p.Path)
	}
	return roots, nil
}
