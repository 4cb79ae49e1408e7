package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/spawn"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"
)

// processStart is when this memhook started: a verb's run record counts
// its seconds from here, start-up included, as the caller waited for it.
var processStart = time.Now()

// runJournal is where a project's run records live (state dir: data, not
// definitions).
func (f *Factory) runJournal(root string) runrec.Journal {
	return runrec.Journal{Dir: f.Paths.Runs(project.ID(root))}
}

// verbSkill is the skill that teaches the model each verb.
var verbSkill = map[string]string{
	runrec.KindRecall: evolve.InstructionSkill, runrec.KindRemember: evolve.InstructionSkill, runrec.KindRelearn: "relearn",
}

// pluginRoot is the plugin's folder, the one owner of that answer
// (doctor, commands, evolve, the skills and serve ask it): the checkout
// holding this memhook (bin/memhook's parent, links resolved), else
// CLAUDE_PLUGIN_ROOT; either only when it holds the plugin manifest. ""
// when neither does.
func (f *Factory) pluginRoot() string {
	var candidates []string
	if f.Executable != "" {
		if exe, err := filepath.EvalSymlinks(f.Executable); err == nil {
			candidates = append(candidates, filepath.Dir(filepath.Dir(exe)))
		}
	}
	if r := f.Getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		candidates = append(candidates, filepath.Clean(r))
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, ".claude-plugin", "plugin.json")); err == nil {
			return c
		}
	}
	return ""
}

// skillDirs are the skills folders of a project, the evolving copy first:
// <project>/.claude/skills (a plugin update never touches it), then the
// plugin's own (a cache Claude Code may replace).
func (f *Factory) skillDirs(root string) []string {
	dirs := []string{filepath.Join(root, ".claude", "skills")}
	if p := f.pluginRoot(); p != "" {
		dirs = append(dirs, filepath.Join(p, "skills"))
	}
	return dirs
}

// skillFile is the file Claude Code loads for the skill, the evolving copy
// first; "" when there is none.
func (f *Factory) skillFile(root, name string) string {
	for _, d := range f.skillDirs(root) {
		p := filepath.Join(d, name, "SKILL.md")
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// runFields are what a verb's answer gains: the id a caller gives its
// verdict by, and a proposal when the skill behind the verb keeps failing.
type runFields struct {
	RunID    string `json:"run_id,omitempty"`
	Proposal string `json:"proposal,omitempty"`
}

// One wrapper per answer type: JSON drops fields that two embedded types
// share (params, error), so the answers are never embedded together.
type (
	recallOut struct {
		*blackbox.RecallAnswer
		runFields
	}
	rememberOut struct {
		*blackbox.RememberAnswer
		runFields
	}
	relearnOut struct {
		*blackbox.RelearnResult
		runFields
	}
)

// recordVerb records a recall, remember or relearn run, takes the verdict a
// caller sent along with this request, starts a shadow run when this recall
// falls in the declared share, and returns the answer carrying its run id.
// Recording never fails the verb: a problem is one line on stderr.
func (f *Factory) recordVerb(kind, dir string, raw blackbox.Raw, ans any) any {
	return f.recordVerbSince(processStart, kind, dir, raw, ans)
}

// recordVerbSince is recordVerb for a verb that started at start: the MCP
// server answers many in one process.
func (f *Factory) recordVerbSince(start time.Time, kind, dir string, raw blackbox.Raw, ans any) any {
	root, err := f.projectRoot(dir)
	if err != nil || ans == nil {
		return ans
	}
	now := f.Now()
	j := f.runJournal(root)
	run := runrec.Run{ID: runrec.NewID(now), Time: now, Kind: kind, Seconds: time.Since(start).Seconds(),
		Parent: f.Getenv(evolve.ParentEnv)}
	if raw != nil {
		var text string
		json.Unmarshal(raw["text"], &text)
		run.Request = text
	}
	fields := &runFields{}
	var out any
	var params map[string]blackbox.Fate
	switch a := ans.(type) {
	case *blackbox.RecallAnswer:
		if a == nil {
			return ans
		}
		o := &recallOut{RecallAnswer: a}
		out, params, fields = o, a.Params, &o.runFields
		run.Depth, run.AnswerKind = a.DepthUsed, a.Kind
		for _, r := range a.Report {
			var calls int
			if r.Level == blackbox.LevelResearch && r.Note != "" {
				fmt.Sscanf(r.Note, "%d model calls", &calls)
				run.ModelCalls += calls
			}
		}
	case *blackbox.RememberAnswer:
		if a == nil {
			return ans
		}
		o := &rememberOut{RememberAnswer: a}
		out, params, fields = o, a.Params, &o.runFields
		run.AnswerKind = "stored"
		if a.Error != "" {
			run.Error = a.Error
		}
	case *blackbox.RelearnResult:
		if a == nil {
			return ans
		}
		o := &relearnOut{RelearnResult: a}
		out, fields = o, &o.runFields
		run.AnswerKind = "relearned"
		if a.Error != "" {
			run.Error = a.Error
		}
	default:
		return ans
	}
	name := verbSkill[kind]
	file := f.skillFile(root, name)
	if file != "" {
		run.Skills = []runrec.Skill{{Name: name, Version: evolve.FileVersion(file)}}
	}
	if v, ok := raw["verdict"]; ok && params != nil {
		params["verdict"] = f.callerVerdict(j, root, v, now)
	}
	if err := j.Append(run); err != nil {
		fmt.Fprintf(f.Err, "memhook: warning: %v\n", err)
		return ans
	}
	if run.Miss() && name != "" {
		if st, err := runrec.OpenStore(j); err == nil {
			f.refreshProposal(st, j, root, name)
			st.Close()
		}
	}
	// The person's reference is taken at the memory's first use, from the
	// plugin's shipped instruction, before any edit can reach it.
	f.reference().EnsureInitial(f.instructionFiles(root), now)
	fields.RunID = run.ID
	fields.Proposal = readProposal(j, name)
	if kind == runrec.KindRecall && run.Parent == "" && file != "" {
		f.maybeShadow(root, run.ID, name)
	}
	return out
}

// callerVerdict records the verdict a calling model sent with its next
// request: {"run": ID, "verdict": "good"|"bad", "note": TEXT}.
func (f *Factory) callerVerdict(j runrec.Journal, root string, raw json.RawMessage, now time.Time) blackbox.Fate {
	var v struct {
		Run     string `json:"run"`
		RunID   string `json:"run_id"`
		Verdict string `json:"verdict"`
		Note    string `json:"note"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return blackbox.Fate{Fate: blackbox.FateBadForm, Reason: `want {"run": RUN_ID, "verdict": "good"|"bad", "note": TEXT}`}
	}
	if v.Run == "" {
		v.Run = v.RunID
	}
	if err := f.giveVerdict(j, root, v.Run, v.Verdict, v.Note, "caller", now); err != nil {
		return blackbox.Fate{Fate: blackbox.FateBadForm, Reason: err.Error()}
	}
	return blackbox.Fate{Fate: blackbox.FateAccepted, Note: fmt.Sprintf("verdict %s recorded for run %s", v.Verdict, v.Run)}
}

// giveVerdict records a verdict on a run that exists, then refreshes the
// skill's proposal.
func (f *Factory) giveVerdict(j runrec.Journal, root, id, verdict, note, source string, now time.Time) error {
	if _, err := runrec.ParseVerdict(verdict); err != nil {
		return err
	}
	st, err := runrec.OpenStore(j)
	if err != nil {
		return err
	}
	defer st.Close()
	run, ok, err := st.Get(id)
	if err != nil {
		return err
	}
	if !ok {
		return withHint(fmt.Errorf("verdict: no run %q in this project's records", id), "list the runs with `memhook runs`")
	}
	if err := j.Verdict(runrec.Verdict{Run: id, Time: now, Verdict: verdict, Note: note, Source: source}); err != nil {
		return err
	}
	for _, s := range run.Skills {
		if err := st.Sync(); err == nil {
			f.refreshProposal(st, j, root, s.Name)
		}
	}
	return nil
}

// proposalWindow is how many of a skill's latest runs a proposal looks at.
const proposalWindow = 10

// refreshProposal writes (or clears) the note the model reads in the next
// answer of the skill's verbs when the skill keeps failing: memhook says
// so, the model or a person writes the candidate.
func (f *Factory) refreshProposal(st *runrec.Store, j runrec.Journal, root, name string) {
	runs, err := st.Runs(runrec.Filter{})
	if err != nil {
		return
	}
	var mine []runrec.Run
	for i := len(runs) - 1; i >= 0 && len(mine) < proposalWindow; i-- {
		r := runs[i]
		if r.Kind == runrec.KindShadow || r.Parent != "" {
			continue
		}
		for _, s := range r.Skills {
			if s.Name == name {
				mine = append(mine, r)
				break
			}
		}
	}
	sum := runrec.Summarize(mine)
	limit := 3
	if eff, err := f.Config(root); err == nil && eff.Evolution.ProposeAfter > 0 {
		limit = eff.Evolution.ProposeAfter
	}
	props := map[string]string{}
	b, _ := safefs.ReadFile(proposalsPath(j), 64<<10)
	json.Unmarshal(b, &props)
	if sum.Bad+sum.Misses >= limit {
		props[name] = fmt.Sprintf("skill %s: %d bad verdicts and %d misses (level 5, nothing found) in its last %d runs. "+
			"Write a second version beside it and let it compete in the shadow: save it to a file and run "+
			"`memhook skill candidate %s --from FILE`; the active version stays until measurements say otherwise.",
			name, sum.Bad, sum.Misses, sum.Runs, name)
	} else {
		delete(props, name)
	}
	data, _ := json.Marshal(props)
	atomicfile.ReplaceUnsynced(proposalsPath(j), data, 0o600)
}

func proposalsPath(j runrec.Journal) string { return filepath.Join(j.Dir, "proposals.json") }

func readProposal(j runrec.Journal, name string) string {
	b, err := safefs.ReadFile(proposalsPath(j), 64<<10)
	if err != nil {
		return ""
	}
	props := map[string]string{}
	json.Unmarshal(b, &props)
	return props[name]
}

// maybeShadow starts `memhook evolve shadow` in the background when the
// skill has a candidate and this run falls in the declared share. It never
// waits for it: the caller's answer is the active version's alone.
func (f *Factory) maybeShadow(root, runID, name string) {
	if f.Getenv(NestedEnv) != "" {
		return
	}
	eff, err := f.Config(root)
	if err != nil || !evolve.Sampled(runID, eff.Evolution.ShadowShare) || eff.Evolution.DailyBudget <= 0 {
		return
	}
	if ents, err := os.ReadDir(filepath.Join(filepath.Dir(f.skillFile(root, name)), evolve.CandidatesDir)); err != nil || len(ents) == 0 {
		return
	}
	if f.Executable == "" {
		return
	}
	cmd := exec.Command(f.Executable, "evolve", "shadow", runID, "--project", root)
	cmd.Dir = root
	cmd.Env = f.Environ()
	if _, err := spawn.Start(cmd); err != nil {
		fmt.Fprintf(f.Err, "memhook: warning: start shadow run: %v\n", err)
	}
}

// VerdictOptions are the inputs of `memhook verdict`.
type VerdictOptions struct {
	*Factory
	Run, Verdict, Note, Project, Source string
}

func newCmdVerdict(f *Factory, runF func(*VerdictOptions) error) *cobra.Command {
	opts := &VerdictOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "verdict RUN_ID good|bad [WHY...]",
		Short: "Judge a memory run from outside: good or bad (a run without a verdict is unfinished)",
		Long: `Record the verdict of the person or calling model on one run (recall answers
carry their run_id). Self-assessment is never a verdict: a run nobody judged
stays unfinished and counts as neither success nor failure.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Run, opts.Verdict = args[0], args[1]
			if opts.Note == "" {
				opts.Note = strings.Join(args[2:], " ") // the slash command passes its words as they come
			}
			if runF != nil {
				return runF(opts)
			}
			return verdictRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Note, "note", "", "why")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Source, "source", "person", "who judges: person or caller")
	return cmd
}

// validate checks the verdict and --source before the records are opened.
func (opts *VerdictOptions) validate() error {
	if err := checkChoice("verdict", "source", opts.Source, []string{"person", "caller"}); err != nil {
		return err
	}
	if _, err := runrec.ParseVerdict(opts.Verdict); err != nil {
		return checkArgChoice("verdict", "verdict", opts.Verdict, []string{runrec.Good, runrec.Bad})
	}
	return nil
}

func verdictRun(opts *VerdictOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	v, _ := runrec.ParseVerdict(opts.Verdict) // checked by validate
	if err := opts.giveVerdict(opts.runJournal(root), root, opts.Run, v, opts.Note, opts.Source, opts.Now()); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "verdict %s recorded for run %s\n", v, opts.Run)
	return nil
}

// RunsOptions are the inputs of `memhook runs`.
type RunsOptions struct {
	*Factory
	Project string
	Kind    string
	Limit   int
	JSON    bool
}

func newCmdRuns(f *Factory, runF func(*RunsOptions) error) *cobra.Command {
	opts := &RunsOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the memory's run records with their verdicts; unjudged runs are unfinished",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only this kind: recall, remember, relearn, turn, shadow")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many runs, newest (0: all)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

// validate checks --kind and --limit before the records are opened.
func (opts *RunsOptions) validate() error {
	if opts.Kind != "" {
		kinds := []string{runrec.KindRecall, runrec.KindRemember, runrec.KindRelearn, runrec.KindTurn, runrec.KindShadow}
		if err := checkChoice("runs", "kind", opts.Kind, kinds); err != nil {
			return err
		}
	}
	return checkMinFlag("runs", "limit", opts.Limit, 0)
}

func runsRun(opts *RunsOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	root, err := opts.projectRoot(opts.Project)
	if err != nil {
		return err
	}
	st, err := runrec.OpenStore(opts.runJournal(root))
	if err != nil {
		return err
	}
	defer st.Close()
	all, err := st.Runs(runrec.Filter{Kind: opts.Kind})
	if err != nil {
		return err
	}
	sum := runrec.Summarize(all)
	shown := all
	if opts.Limit > 0 && len(shown) > opts.Limit {
		shown = shown[len(shown)-opts.Limit:]
	}
	for i := range shown {
		shown[i].Answer = "" // a shadow answer is for the judge, not for listings
	}
	if opts.JSON {
		return printObject(opts.Out, map[string]any{"summary": sum, "runs": shown}, nil)
	}
	fmt.Fprintf(opts.Out, "%d runs: %d good, %d bad, %d unfinished (no verdict), %d misses\n", sum.Runs, sum.Good, sum.Bad, sum.Unfinished, sum.Misses)
	for _, r := range shown {
		v := r.Verdict
		if v == "" {
			v = "unfinished"
		}
		var skills []string
		for _, s := range r.Skills {
			n := s.Name
			if s.Candidate != "" {
				n += "@" + s.Candidate
			}
			skills = append(skills, n)
		}
		fmt.Fprintf(opts.Out, "%s  %s  %-8s depth %d  %d calls  %5.1fs  %-10s %-10s %s  %s\n", r.ID, r.Time.Format("2006-01-02 15:04"),
			r.Kind, r.Depth, r.ModelCalls, r.Seconds, orDash(r.AnswerKind), v, strings.Join(skills, ","), clipLine(r.Request, 60))
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
