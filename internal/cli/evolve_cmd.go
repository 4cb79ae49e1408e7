package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/spf13/cobra"

	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// EvolveOptions are the inputs of `memhook evolve` and its sub-commands.
type EvolveOptions struct {
	*Factory
	Action  string // decide, shadow, judge, log
	Project string
	Run     string // shadow: the real run to shadow
	Pair    string // judge: the pair judged
	Better  string // judge: 1, 2, both or neither
	List    bool   // judge: list the unjudged pairs
	DryRun  bool
	Limit   int
	JSON    bool
	All     bool   // decide in every project registered on the desk
	Home    string // the desk, with --all
}

func newCmdEvolve(f *Factory) *cobra.Command {
	run := func(opts *EvolveOptions) error {
		return evolveRun(opts)
	}
	opts := &EvolveOptions{Factory: f, Action: "decide"}
	cmd := &cobra.Command{
		Use:   "evolve",
		Short: "Decide every skill candidate: promote, remove or wait, by outside verdicts and price (docs/skills.md)",
		Long: `A candidate version of a skill (<skills>/<name>/candidates/<id>/SKILL.md) runs in
the shadow of real recalls beside the active version. memhook evolve promotes
it when it won on verdicts (evolution.min_verdicts judged pairs, leading by
evolution.margin) at no higher price, removes it when it lost or its trial ran
out, and otherwise waits. Each promotion or removal is one commit of the skill
and a record that ` + "`memhook evolve log`" + ` shows.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return run(opts) },
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be decided, change nothing")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every project registered on the desk (the daily job)")
	cmd.Flags().StringVar(&opts.Home, "home", "", "with --all: the desk folder (default $CEREBRO_HOME or ~/cerebro)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")

	shadow := &EvolveOptions{Factory: f, Action: "shadow"}
	shadowCmd := &cobra.Command{
		Use:   "shadow RUN_ID",
		Short: "Run a candidate and the active version on a recorded request (started in the background by recall)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			shadow.Run = args[0]
			return run(shadow)
		},
	}
	shadowCmd.Flags().StringVar(&shadow.Project, "project", ".", "a directory of the project")

	judge := &EvolveOptions{Factory: f, Action: "judge"}
	judgeCmd := &cobra.Command{
		Use:   "judge",
		Short: "Judge shadow pairs blind: two answers to one request, in random order, pick the better",
		Long: `Show each unjudged shadow pair — the request and two answers, the active
version's and the candidate's, in an order fixed per pair but unrelated to which
is which — and record your choice as verdicts on both runs. Without a terminal,
list the pairs with --list --json and judge one with --pair ID --better 1|2|both|neither.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return run(judge) },
	}
	judgeCmd.Flags().StringVar(&judge.Project, "project", ".", "a directory of the project")
	judgeCmd.Flags().BoolVar(&judge.List, "list", false, "list the unjudged pairs and stop")
	judgeCmd.Flags().StringVar(&judge.Pair, "pair", "", "the pair to judge")
	judgeCmd.Flags().StringVar(&judge.Better, "better", "", "1, 2, both or neither")
	judgeCmd.Flags().BoolVar(&judge.JSON, "json", false, "print JSON")

	logOpts := &EvolveOptions{Factory: f, Action: "log"}
	logCmd := &cobra.Command{
		Use:   "log",
		Short: "List promotions and removals, newest first, with the figures behind each",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return run(logOpts) },
	}
	logCmd.Flags().StringVar(&logOpts.Project, "project", ".", "a directory of the project")
	logCmd.Flags().IntVar(&logOpts.Limit, "limit", 20, "at most this many (0: all)")
	logCmd.Flags().BoolVar(&logOpts.JSON, "json", false, "print JSON")

	cmd.AddCommand(shadowCmd, judgeCmd, logCmd)
	return cmd
}

// validate checks the flags of the action before any record is read.
func (opts *EvolveOptions) validate() error {
	switch opts.Action {
	case "judge":
		if opts.Pair != "" {
			if _, err := judgeVerdicts(opts.Better); err != nil {
				return checkChoice("evolve judge", "better", opts.Better, []string{"1", "2", "both", "neither"})
			}
		}
	case "log":
		return checkMinFlag("evolve log", "limit", opts.Limit, 0)
	}
	return nil
}

func evolveRun(opts *EvolveOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	if opts.All && opts.Action == "decide" {
		return opts.decideAll()
	}
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	j := opts.runJournal(root)
	switch opts.Action {
	case "shadow":
		return opts.shadowRun(root, j)
	case "judge":
		return opts.judgeRun(j)
	case "log":
		return opts.evolveLog(j)
	}
	return opts.decideRun(root, j)
}

// evolveRules reads the decision numbers from the configuration.
func evolveRules(eff config.Evolution) evolve.Rules {
	return evolve.Rules{MinVerdicts: eff.MinVerdicts, Margin: eff.Margin, PriceSlack: eff.PriceSlack, MaxPairs: eff.MaxPairs, TrialDays: eff.TrialDays}
}

// skillsWithCandidates lists the skills of the project that have
// candidates, each in the folder Claude Code loads it from.
func (f *Factory) skillsWithCandidates(root string) []skill.Ref {
	var out []skill.Ref
	seen := map[string]bool{}
	for _, d := range f.skillDirs(root) {
		for _, name := range skillNames(d) {
			if seen[name] {
				continue
			}
			ref, err := skill.Named(d, name)
			if err != nil {
				continue
			}
			seen[name] = true
			if cs, _ := evolve.Candidates(ref); len(cs) > 0 {
				out = append(out, ref)
			}
		}
	}
	return out
}

// evolveItem is one candidate's decision, for printing.
type evolveItem struct {
	Skill     string          `json:"skill"`
	Candidate string          `json:"candidate"`
	Decision  evolve.Decision `json:"decision"`
	Commit    string          `json:"commit,omitempty"`
}

func (opts *EvolveOptions) decideRun(root string, j runrec.Journal) error {
	eff, err := opts.Config(root)
	if err != nil {
		return err
	}
	rules := evolveRules(eff.Evolution)
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(runrec.Filter{})
	if err != nil {
		return err
	}
	refs := opts.skillsWithCandidates(root)
	var items []evolveItem
	now := opts.Now()
	for _, ref := range refs {
		cs, err := evolve.Candidates(ref)
		if err != nil {
			return err
		}
		promoted := false
		for _, c := range cs {
			d := evolve.Decide(runs, c, rules, now)
			if promoted && d.Action == evolve.Promote {
				d.Action, d.Why = evolve.Wait, "another candidate was just promoted; its pairs ran against the previous version"
			}
			it := evolveItem{Skill: ref.Name, Candidate: c.ID, Decision: d}
			if d.Action != evolve.Wait && !opts.DryRun {
				rec, err := evolve.Apply(ref, c, d, j, now)
				if err != nil {
					return fmt.Errorf("evolve %s/%s: %w", ref.Name, c.ID, err)
				}
				it.Commit = rec.Commit
				promoted = promoted || d.Action == evolve.Promote
			}
			items = append(items, it)
		}
	}
	if err := st.Sync(); err == nil {
		for _, name := range []string{evolve.InstructionSkill, "relearn"} {
			opts.refreshProposal(st, j, root, name)
		}
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"decisions": items, "dry_run": opts.DryRun, "rules": rules}, nil)
	}
	if len(items) == 0 {
		fmt.Fprintln(opts.Out, "no skill candidates to decide")
	}
	for _, it := range items {
		verb := it.Decision.Action
		if opts.DryRun && verb != evolve.Wait {
			verb = "would " + verb
		}
		fmt.Fprintf(opts.Out, "%s/%s: %s — %s", it.Skill, it.Candidate, verb, it.Decision.Why)
		if it.Commit != "" {
			fmt.Fprintf(opts.Out, " (commit %.12s)", it.Commit)
		}
		fmt.Fprintln(opts.Out)
	}
	return nil
}

// decideAll decides the candidates of every registered project; a project
// that fails is reported and the next one still runs.
func (opts *EvolveOptions) decideAll() error {
	paths := opts.Paths
	if opts.Home != "" {
		paths.Home = opts.Home
	}
	reg, err := registry.Read(paths.Registry())
	if err != nil {
		return err
	}
	var failed []string
	for _, p := range reg.Projects {
		if st, err := os.Stat(p.Path); err != nil || !st.IsDir() {
			continue // the rollup reports unreachable projects
		}
		fmt.Fprintf(opts.Out, "%s (%s):\n", p.Name, p.Path)
		if err := opts.decideRun(p.Path, opts.runJournal(p.Path)); err != nil {
			fmt.Fprintf(opts.Out, "  error: %v\n", err)
			failed = append(failed, p.Name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("evolve: failed in %s", strings.Join(failed, ", "))
	}
	return nil
}

// shadowRun runs one pair for a recorded recall. It runs in the background
// (recall starts it detached), never inside a hook; its answers go to the
// records only. Problems go to the log, since nobody reads its output.
func (opts *EvolveOptions) shadowRun(root string, j runrec.Journal) (err error) {
	log := runlog.Open(opts.Paths.Logs(), 1<<20)
	start := opts.Now()
	defer func() {
		e := runlog.Entry{Time: start, Event: "shadow", Project: root, Level: "info", MS: float64(opts.Now().Sub(start).Milliseconds())}
		if err != nil {
			e.Level, e.Message = "warn", err.Error()
		} else {
			e.Message = "shadow pair of run " + opts.Run
		}
		log.Write(e)
	}()
	if opts.Getenv(NestedEnv) != "" || claude.Nested(opts.Environ()) {
		return errors.New("shadow: refused inside a nested model call")
	}
	eff, err := opts.Config(root)
	if err != nil {
		return err
	}
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	parent, ok, err := st.Get(opts.Run)
	st.Close()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("shadow: no run %q", opts.Run)
	}
	if parent.Kind != runrec.KindRecall || len(parent.Skills) == 0 {
		return fmt.Errorf("shadow: run %s is a %s with no skill; only recalls are shadowed (a shadow must never write memory)", parent.ID, parent.Kind)
	}
	name := parent.Skills[0].Name
	file := opts.skillFile(root, name)
	ref, ok := skill.Locate(file)
	if file == "" || !ok {
		return fmt.Errorf("shadow: skill %s not found", name)
	}
	cs, err := evolve.Candidates(ref)
	if err != nil || len(cs) == 0 {
		return fmt.Errorf("shadow: skill %s has no candidate", name)
	}
	h := fnv.New32a()
	h.Write([]byte(parent.ID))
	c := cs[int(h.Sum32())%len(cs)]
	command, err := exec.LookPath(eff.Distiller.Command)
	if err != nil {
		return fmt.Errorf("shadow: find %s: %w", eff.Distiller.Command, err)
	}
	sh := evolve.Shadow{
		Runner:  claude.Runner{Command: command, Timeout: time.Duration(eff.Evolution.TimeoutSeconds) * time.Second, Env: opts.Environ(), Dir: root, Guard: shortterm.PromptGuard(eff)},
		Journal: j, Budget: eff.Evolution.DailyBudget, Memhook: opts.Executable, Now: opts.Now,
		Vars: map[string]string{"CLAUDE_PLUGIN_ROOT": opts.pluginRoot(), "CLAUDE_PLUGIN_DATA": opts.Paths.State},
	}
	p, err := sh.Run(context.Background(), parent, ref, c)
	if err != nil {
		return err
	}
	return printObject(opts.Out, p, nil)
}

// blindPair is a pair as the judge sees it: which answer is the candidate's
// is not shown.
type blindPair struct {
	Pair    string `json:"pair"`
	Skill   string `json:"skill"`
	Request string `json:"request"`
	Answer1 string `json:"answer_1"`
	Answer2 string `json:"answer_2"`
	runs    [2]string
}

// unjudged lists complete pairs without a verdict on both arms; the order of
// the two answers is fixed per pair (a hash of its id) and unrelated to arm.
func unjudged(st *runrec.Store) ([]blindPair, error) {
	runs, err := st.Runs(runrec.Filter{Kind: runrec.KindShadow})
	if err != nil {
		return nil, err
	}
	arms := map[string][2]*runrec.Run{}
	var order []string
	for i := range runs {
		r := &runs[i]
		a, seen := arms[r.Pair]
		if !seen {
			order = append(order, r.Pair)
		}
		if r.Arm == runrec.ArmActive {
			a[0] = r
		} else {
			a[1] = r
		}
		arms[r.Pair] = a
	}
	var out []blindPair
	for _, id := range order {
		a := arms[id]
		if a[0] == nil || a[1] == nil || a[0].Error != "" || a[1].Error != "" || (a[0].Verdict != "" && a[1].Verdict != "") {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(id))
		first, second := a[0], a[1]
		if h.Sum32()%2 == 1 {
			first, second = second, first
		}
		name := ""
		if len(first.Skills) > 0 {
			name = first.Skills[0].Name
		}
		out = append(out, blindPair{Pair: id, Skill: name, Request: first.Request, Answer1: first.Answer, Answer2: second.Answer, runs: [2]string{first.ID, second.ID}})
	}
	return out, nil
}

// judgeVerdicts turns a choice into the verdicts of the two runs.
func judgeVerdicts(choice string) ([2]string, error) {
	switch strings.ToLower(strings.TrimSpace(choice)) {
	case "1":
		return [2]string{runrec.Good, runrec.Bad}, nil
	case "2":
		return [2]string{runrec.Bad, runrec.Good}, nil
	case "b", "both":
		return [2]string{runrec.Good, runrec.Good}, nil
	case "n", "neither":
		return [2]string{runrec.Bad, runrec.Bad}, nil
	}
	return [2]string{}, fmt.Errorf("judge: %q: want 1, 2, both or neither", choice)
}

func (opts *EvolveOptions) judgeRun(j runrec.Journal) error {
	if opts.Getenv("CLAUDECODE") != "" || opts.Getenv(NestedEnv) != "" {
		return withHint(errors.New("evolve judge: refused inside Claude Code: a blind pair is judged by a person, never by the model that ran it"), "run it in your own terminal")
	}
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	pairs, err := unjudged(st)
	if err != nil {
		return err
	}
	record := func(p blindPair, choice string) error {
		v, err := judgeVerdicts(choice)
		if err != nil {
			return err
		}
		for i, id := range p.runs {
			if err := j.Verdict(runrec.Verdict{Run: id, Time: opts.Now(), Verdict: v[i], Source: "judge"}); err != nil {
				return err
			}
		}
		return nil
	}
	switch {
	case opts.List:
		if opts.JSON {
			return printObject(opts.Out, map[string]any{"pairs": pairs}, nil)
		}
		for _, p := range pairs {
			fmt.Fprintf(opts.Out, "%s  %s  %s\n", p.Pair, p.Skill, clipLine(p.Request, 70))
		}
		return nil
	case opts.Pair != "":
		for _, p := range pairs {
			if p.Pair == opts.Pair {
				if err := record(p, opts.Better); err != nil {
					return err
				}
				fmt.Fprintf(opts.Out, "pair %s judged: %s\n", p.Pair, opts.Better)
				return nil
			}
		}
		return withHint(fmt.Errorf("evolve judge: no unjudged pair %q", opts.Pair), "list them with `memhook evolve judge --list`")
	}
	if len(pairs) == 0 {
		fmt.Fprintln(opts.Out, "no shadow pairs wait for a verdict")
		return nil
	}
	in := bufio.NewScanner(opts.In)
	judged := 0
	for i, p := range pairs {
		fmt.Fprintf(opts.Out, "\n— pair %d of %d (skill %s) —\nRequest: %s\n\n[1]\n%s\n\n[2]\n%s\n\nWhich answer is better? 1, 2, b(oth good), n(either), s(kip), q(uit): ",
			i+1, len(pairs), p.Skill, p.Request, p.Answer1, p.Answer2)
		if !in.Scan() {
			break
		}
		choice := strings.TrimSpace(in.Text())
		if choice == "q" {
			break
		}
		if choice == "s" || choice == "" {
			continue
		}
		if err := record(p, choice); err != nil {
			fmt.Fprintf(opts.Out, "%v — skipped\n", err)
			continue
		}
		judged++
	}
	fmt.Fprintf(opts.Out, "\n%d pairs judged\n", judged)
	return nil
}

func (opts *EvolveOptions) evolveLog(j runrec.Journal) error {
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	ds, err := st.Decisions(opts.Limit)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"decisions": ds}, nil)
	}
	if len(ds) == 0 {
		fmt.Fprintln(opts.Out, "no candidate was promoted or removed yet")
	}
	for _, d := range ds {
		fmt.Fprintf(opts.Out, "%s  %s/%s  %s  commit %.12s\n  %s\n", d.Time.Format("2006-01-02 15:04"), d.Skill, d.Candidate, d.Action, d.Commit, d.Why)
	}
	return nil
}

// skillNames lists the folders of dir that hold a SKILL.md, sorted.
func skillNames(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*", "SKILL.md"))
	var out []string
	for _, p := range m {
		out = append(out, filepath.Base(filepath.Dir(p)))
	}
	sort.Strings(out)
	return out
}
