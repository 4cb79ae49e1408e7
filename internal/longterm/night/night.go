// Package night is the night pass over one project's long-term memory:
// one idempotent run per project and day that keeps memory consolidated
// without a person running commands.
//
//	rep, err := night.Run(ctx, night.Options{Store: longterm.New(root), Now: now,
//		CoreMaxChars: 2000, CompileAfterDays: 7, GitMode: "auto",
//		Model: nil /* or night.Claude{...} */, Budget: night.LoadBudget(...)})
//
// Deterministic steps always run and cost nothing: edits found uncommitted
// are committed, closed weeks, months and years are rolled up, the graph
// and index.md are rebuilt, lint runs and its findings are kept in
// .cerebro/night/lint.json, CORE.md is checked against its cap, and closed
// days older than CompileAfterDays are listed as ready to compile.
//
// With a Model, ready days are compiled into wiki/_private/ digests and
// archived, dated facts proposed for cards are written when the person's
// own reply that day states them (else they stay proposals in the digest),
// and a new compiled truth is proposed for each card whose facts moved,
// through the page-hash check. Every answer is cached per day (and per
// page state) in .cerebro/night/cache/, so a rerun costs no call; the
// [Budget] stops model steps at its numbers. Each change is one commit in
// the memory's own repository (see longterm.History).
package night

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Model answers one prompt, reporting what it cost. An error is the
// provider's or the transport's failure.
type Model interface {
	Ask(ctx context.Context, prompt string) (Answer, error)
}

// Options are one project's night.
type Options struct {
	Store            *longterm.Store
	Now              time.Time // the night's local date and time; its day is never closed
	DryRun           bool      // say what would run; write nothing, call nothing
	CoreMaxChars     int
	CompileAfterDays int    // closed days older than this many days are ready to compile
	GitMode          string // long.git
	Model            Model  // nil: deterministic steps only
	Budget           *Budget
	MaxDayChars      int    // a day longer than this goes to the model in parts (0: 60,000)
	Core             string // night.core: CorePropose (""), CoreApply or CoreOff
}

// Report is what one project's night did.
type Report struct {
	Project      string   `json:"project"`
	Date         string   `json:"date"`
	DryRun       bool     `json:"dry_run,omitempty"`
	Skipped      string   `json:"skipped,omitempty"` // why nothing ran
	Ran          []string `json:"ran"`
	Wrote        []string `json:"wrote"`    // files written, relative to the project's .claude/
	Rollups      []string `json:"rollups"`  // roll-ups written (or, in a dry run, to write)
	Ready        []string `json:"ready"`    // closed days ready to compile, still in daily/
	Compiled     []string `json:"compiled"` // days compiled and archived
	Facts        int      `json:"facts"`    // facts written to cards
	Proposals    int      `json:"proposals"`
	Truths       int      `json:"truths"`        // compiled truths replaced
	TruthPending []string `json:"truth_pending"` // pages whose proposal waits: a person edited them
	Links        int      `json:"links"`         // cards linked to a digest (and back)
	Descriptions int      `json:"descriptions"`  // card descriptions that grew by repetition, tidied
	CoreAdded    int      `json:"core_added"`    // CORE.md lines added (night.core = "apply")
	CoreProposed int      `json:"core_proposed"` // CORE.md lines left for `memhook core review`
	Calls        int      `json:"calls"`
	Tokens       int      `json:"tokens"`        // input tokens: as the provider reported, estimated where it did not
	OutputTokens int      `json:"output_tokens"` // as the provider reported
	Cached       int      `json:"cached"`        // answers taken from the cache
	BudgetStop   bool     `json:"budget_stopped,omitempty"`
	// UsageStop says which call's usage the provider did not report whole:
	// no call follows it this night.
	UsageStop string `json:"usage_stopped,omitempty"`
	// Failed is the provider failure that ended the model steps: the run
	// exits non-zero, the day waits and resumes at its saved step.
	Failed string `json:"failed,omitempty"`
	// Changed lists ready days whose earlier section changed after the
	// night read it, with the command that deletes their cache.
	Changed []DayChange `json:"changed,omitempty"`
	// OutsideBackup lists files the night wrote that git's ignore rules
	// keep out of the memory's history: they stay on disk, unbacked.
	OutsideBackup []string `json:"outside_backup,omitempty"`
	// Waiting says which closed roll-up periods wait, and for what.
	Waiting      []string `json:"waiting,omitempty"`
	LintErrors   int      `json:"lint_errors"`
	LintWarnings int      `json:"lint_warnings"`
	CoreChars    int      `json:"core_chars"`
	CoreMax      int      `json:"core_max"`
	Commits      []string `json:"commits"`
	History      string   `json:"history,omitempty"` // why nothing is committed
	Problems     []string `json:"problems"`
}

// The steps of a night as Report.Ran names them; a dry run adds what a
// model step would spend ("compile DAY: N call(s), M cached", "truth PAGE:
// 1 call").
const (
	StepCommitLeftovers = "commit-leftovers"
	StepReadyToCompile  = "ready-to-compile"
	StepCompile         = "compile"
	StepLinks           = "links"
	StepTruth           = "truth"
	StepCoreEdits       = "core-edits"
	StepRollups         = "rollups"
	StepIndex           = "index"
	StepGraph           = "graph"
	StepLint            = "lint"
	StepCoreCap         = "core-cap"
)

// Steps lists every step a night can run (a page naming them translates
// each).
var Steps = []string{StepCommitLeftovers, StepReadyToCompile, StepCompile, StepLinks, StepTruth, StepCoreEdits,
	StepRollups, StepIndex, StepGraph, StepLint, StepCoreCap}

func (r *Report) ran(step string) { r.Ran = append(r.Ran, step) }

// ranOnce notes a step that may run for several days once.
func (r *Report) ranOnce(step string) {
	for _, s := range r.Ran {
		if s == step {
			return
		}
	}
	r.ran(step)
}
func (r *Report) problem(err error)     { r.Problems = append(r.Problems, err.Error()) }
func (r *Report) wrote(paths ...string) { r.Wrote = append(r.Wrote, paths...) }

// Names under the memory's hidden state folder.
const (
	stateDir = ".cerebro/night"
	LintFile = stateDir + "/lint.json" // the last night's lint findings
	LastFile = stateDir + "/last.json" // the last night's report
)

// Run runs one project's night. A failing step is reported in
// Report.Problems and the next step still runs; the error is only for a
// night that could not start.
func Run(ctx context.Context, o Options) (*Report, error) {
	s := o.Store
	rep := &Report{Project: s.Project, Date: o.Now.Format(time.DateOnly), DryRun: o.DryRun,
		Ran: []string{}, Wrote: []string{}, Rollups: []string{}, Ready: []string{}, Compiled: []string{},
		TruthPending: []string{}, Commits: []string{}, Problems: []string{}, CoreMax: o.CoreMaxChars}
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		rep.Skipped = "long-term memory is not set up (`memhook long on`)"
		return rep, nil
	}
	if s.Project != "" && !(project.Layout{Root: s.Project}).LongActive() {
		rep.Skipped = "long-term memory is switched off (`memhook long on` switches it back)"
		return rep, nil
	}
	if o.MaxDayChars <= 0 {
		o.MaxDayChars = 60000
	}
	if o.Core == "" {
		o.Core = CorePropose
	}
	n := &run{o: o, s: s, rep: rep}
	if err := n.openHistory(); err != nil {
		rep.problem(err)
	}
	n.leftovers()
	n.rollups()
	if o.Model != nil {
		if n.stopped() {
			// The provider failed, or a call's usage went unreported, in
			// an earlier project of this night: no call is made here.
			if o.Budget != nil && o.Budget.Failed != "" {
				rep.Failed = o.Budget.Failed
			} else if o.Budget != nil {
				rep.UsageStop = o.Budget.Unaccounted
			}
		} else {
			n.compileDays(ctx)
			n.truths(ctx)
		}
	}
	n.descriptions()
	n.indexAndGraph()
	n.lint()
	n.core()
	n.ready()
	// Edits a person made while the night ran are committed too, so a
	// rerun finds nothing left.
	n.leftovers()
	n.outsideBackup()
	if rep.Failed != "" {
		rep.Problems = append(rep.Problems, "model steps stopped: "+rep.Failed+"; the day waits and the next night resumes at its saved step (no retry, no other model)")
	}
	if rep.UsageStop != "" {
		rep.Problems = append(rep.Problems, "model steps stopped: the provider did not report the usage of "+rep.UsageStop+"; no further call this night")
	}
	if !o.DryRun {
		if data, err := json.MarshalIndent(rep, "", "  "); err == nil {
			if err := writeState(s, LastFile, append(data, '\n')); err != nil {
				rep.problem(err)
			}
		}
	}
	return rep, nil
}

type run struct {
	o    Options
	s    *longterm.Store
	rep  *Report
	hist *longterm.History
}

func (n *run) openHistory() error {
	if n.o.DryRun {
		return nil
	}
	h, err := n.s.History(n.o.GitMode, n.o.Now)
	if err != nil {
		return fmt.Errorf("open the history of long-term memory: %w", err)
	}
	n.hist = h
	n.rep.History = h.Note
	return nil
}

// step runs fn between a snapshot and a commit, so its changes become one
// commit naming action.
func (n *run) step(action string, fn func() error) error {
	var before longterm.Snapshot
	if n.hist.Versioned() {
		var err error
		if before, err = n.hist.Snapshot(); err != nil {
			return err
		}
	}
	ferr := fn()
	if !n.hist.Versioned() {
		return ferr
	}
	h, _, err := n.hist.Commit(before, action, n.o.Now)
	if err != nil {
		n.rep.problem(err)
	} else if h != "" {
		n.rep.Commits = append(n.rep.Commits, h)
	}
	return ferr
}

func (n *run) leftovers() {
	if !n.hist.Versioned() {
		return
	}
	if len(n.rep.Ran) == 0 || n.rep.Ran[len(n.rep.Ran)-1] != StepCommitLeftovers && n.rep.Ran[0] != StepCommitLeftovers {
		n.rep.ran(StepCommitLeftovers)
	}
	h, paths, err := n.hist.CommitAll("night: commit edits found uncommitted", n.o.Now)
	if err != nil {
		n.rep.problem(err)
		return
	}
	if h != "" {
		n.rep.Commits = append(n.rep.Commits, h)
		for _, p := range paths {
			n.rep.wrote("memory_long/" + p + " (committed)")
		}
	}
}

// outsideBackup lists the files under memory_long the night wrote that
// the memory's repository ignores (its .gitignore, .git/info/exclude, the
// user's global excludes): written, kept on disk, never committed. The
// caches memhook itself keeps out of the history are not listed.
func (n *run) outsideBackup() {
	if n.o.DryRun || !n.hist.Versioned() {
		return
	}
	seen := map[string]bool{}
	var paths []string
	for _, w := range n.rep.Wrote {
		w = strings.TrimSuffix(w, " (committed)")
		rel, ok := strings.CutPrefix(w, "memory_long/")
		if !ok || seen[rel] {
			continue
		}
		seen[rel] = true
		paths = append(paths, rel)
	}
	out, err := n.hist.OutsideBackup(paths)
	if err != nil {
		n.rep.problem(err)
		return
	}
	for _, p := range out {
		n.rep.OutsideBackup = append(n.rep.OutsideBackup, "memory_long/"+p)
	}
}

func (n *run) rollups() {
	n.rep.ran(StepRollups)
	if n.o.DryRun {
		res, err := n.s.RollupPlan(n.o.Now)
		if err != nil {
			n.rep.problem(fmt.Errorf("plan roll-ups: %w", err))
			return
		}
		n.rep.Rollups = append(n.rep.Rollups, res.Written...)
		n.rep.Waiting = append(n.rep.Waiting, res.Waiting...)
		return
	}
	err := n.step("night rollup-days", func() error {
		res, err := n.s.RollupDays(n.o.Now)
		if err != nil {
			return err
		}
		n.rep.Rollups = append(n.rep.Rollups, res.Written...)
		n.rep.Waiting = append(n.rep.Waiting, res.Waiting...)
		for _, w := range res.Written {
			n.rep.wrote("memory_short/rollups/" + w)
		}
		return nil
	})
	if err != nil {
		n.rep.problem(fmt.Errorf("roll-ups: %w", err))
	}
}

func (n *run) indexAndGraph() {
	n.rep.ran(StepIndex)
	n.rep.ran(StepGraph)
	if n.o.DryRun {
		return
	}
	err := n.step("night index", func() error {
		if changed, err := n.s.RebuildIndex(); err != nil {
			return err
		} else if changed {
			n.rep.wrote("memory_long/" + longterm.IndexFile)
		}
		if changed, err := n.s.RebuildGraph(); err != nil {
			return err
		} else if changed {
			n.rep.wrote("memory_long/" + longterm.GraphFile)
		}
		return nil
	})
	if err != nil {
		n.rep.problem(fmt.Errorf("index and graph: %w", err))
	}
}

func (n *run) lint() {
	n.rep.ran(StepLint)
	found, err := n.s.Lint(longterm.LintOptions{CoreMaxChars: n.o.CoreMaxChars, Project: true})
	if err != nil {
		n.rep.problem(fmt.Errorf("lint: %w", err))
		return
	}
	if found == nil {
		found = []lint.Finding{}
	}
	n.rep.LintErrors, n.rep.LintWarnings = lint.Count(found)
	if n.o.DryRun {
		return
	}
	data, _ := json.MarshalIndent(found, "", "  ")
	if err := writeState(n.s, LintFile, append(data, '\n')); err != nil {
		n.rep.problem(err)
	}
}

func (n *run) core() {
	n.rep.ran(StepCoreCap)
	data, err := safefs.ReadFile(n.s.Path(longterm.CoreFile), maxFileBytes)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			n.rep.problem(fmt.Errorf("read CORE.md: %w", err))
		}
		return
	}
	n.rep.CoreChars = len([]rune(string(data)))
	if n.o.CoreMaxChars > 0 && n.rep.CoreChars > n.o.CoreMaxChars {
		n.rep.problem(fmt.Errorf("CORE.md is %d characters, over its cap of %d: shorten it with `memhook core set`", n.rep.CoreChars, n.o.CoreMaxChars))
	}
}

// readyDays are the closed days in daily/ the night may compile: older
// than CompileAfterDays, and never the latest closed day, which SessionStart
// injects as "the previous day".
func (n *run) readyDays() ([]longterm.Day, error) {
	days, err := n.s.CompileList(n.o.Now)
	if err != nil {
		return nil, err
	}
	if len(days) > 0 {
		days = days[:len(days)-1]
	}
	cut := n.o.Now.AddDate(0, 0, -n.o.CompileAfterDays).Format(time.DateOnly)
	var out []longterm.Day
	for _, d := range days {
		if d.Date < cut {
			out = append(out, d)
		}
	}
	return out, nil
}

func (n *run) ready() {
	n.rep.ran(StepReadyToCompile)
	days, err := n.readyDays()
	if err != nil {
		n.rep.problem(fmt.Errorf("list closed days: %w", err))
		return
	}
	for _, d := range days {
		n.rep.Ready = append(n.rep.Ready, d.Date)
	}
}

// writeState writes a file under the memory's hidden state folder only
// when its bytes change, so a rerun leaves it as it was.
func writeState(s *longterm.Store, rel string, data []byte) error {
	p := s.Path(rel)
	if old, err := safefs.ReadNote(p, s.NoteBytes); err == nil && string(old) == string(data) {
		return nil
	}
	if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := atomicfile.Write(p, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// maxFileBytes bounds every read of a day or page: a project folder is
// untrusted input, and a planted giant file must not take the night's
// memory.
const maxFileBytes = 8 << 20

func readJSON(p string, v any) bool {
	data, err := safefs.ReadFile(p, maxFileBytes)
	if err != nil {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
