package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"

	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// openBox wires a project's memory behind the two verbs: the tables'
// journal in the project, their cache and the offers in the state dir.
func (f *Factory) openBox(dir string) (*blackbox.Box, func(), error) {
	root, err := f.projectRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	eff, err := f.Config(root)
	if err != nil {
		return nil, nil, err
	}
	lay := project.Layout{Root: root}
	long := lay.LongDir()
	state := filepath.Join(f.Paths.Indexes(), project.ID(root))
	st, err := tables.Open(filepath.Join(long, blackbox.TablesDir, "journal.jsonl"), filepath.Join(state, "tables.db"))
	if err != nil {
		return nil, nil, withHint(fmt.Errorf("open the relational store: %w", err), "the cache is rebuilt from the journal: delete "+filepath.Join(state, "tables.db")+" and retry")
	}
	scan := blackbox.MarkdownScan{Base: root, Dirs: []string{long, lay.ShortDir()},
		Skip: []string{"raw", "graph", blackbox.TablesDir, blackbox.DenialsDir}, SkipFiles: blackbox.GeneratedFiles}
	box := &blackbox.Box{
		Root: root, LongDir: long, Tables: st, Text: scan,
		VectorWhy:       "no embedding provider configured",
		ResearchCalls:   eff.Recall.ExtremeMaxCalls,
		ResearchSeconds: eff.Recall.ExtremeSeconds,
		Nested:          f.Getenv(NestedEnv) != "",
		OffersPath:      filepath.Join(state, "offers.jsonl"),
		ThreadsDir:      filepath.Join(state, "threads"),
		NoteBytes:       eff.Limits.NoteBytes,
	}
	// Level 2 goes through the FTS5 indexes when they can be set up; the
	// plain scan stays as the fallback.
	setup, serr := f.memoryRoots(root, "", string(search.ScopeProject))
	if serr == nil {
		box.Text = &indexedText{f: f, setup: setup, scan: scan}
		box.Across = &deskText{indexedText: indexedText{f: f, scan: scan}, root: root}
	} else {
		box.AcrossWhy = "the memory indexes cannot be set up: " + serr.Error()
	}
	box.VectorMin = eff.Recall.VectorMinScore
	if lay.LongActive() {
		box.Chronicle = longterm.New(root).Log
	}
	switch {
	case eff.Embedding.Provider == "":
	case serr != nil:
		box.VectorWhy = "the embedding provider cannot be set up: " + serr.Error()
	default:
		box.Vector = &vectorText{indexedText{f: f, setup: setup, scan: scan}}
	}
	cmd, lookErr := exec.LookPath(eff.Distiller.Command)
	if lookErr == nil && eff.Recall.ExtremeMaxCalls > 0 {
		box.Research, box.ResearchWhy = f.researchBudget(blackbox.ClaudeResearch{
			Runner:  claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)},
			Memhook: f.Executable, Model: eff.Distiller.Model,
		})
	}
	switch {
	case box.Nested:
		box.NamerWhy = "a nested call (CEREBRO_NESTED) makes no model call"
	case lookErr == nil:
		box.Namer, box.NamerWhy = f.namingBudget(blackbox.ClaudeResearch{
			Runner: claude.Runner{Command: cmd, Dir: root, Env: f.Environ(), Guard: shortterm.PromptGuard(eff)}, Model: eff.Distiller.Model,
		})
	}
	return box, func() { st.Close() }, nil
}

// requestFlags are the parameters both verbs take as flags; a flag the
// caller set becomes a key of the request, so it gets a fate like any other.
type requestFlags struct {
	Request string
	Project string
	Params  []string
	strs    map[string]*string
}

func (r *requestFlags) bind(cmd *cobra.Command, names map[string]string) {
	r.strs = map[string]*string{}
	for name, usage := range names {
		r.strs[name] = cmd.Flags().String(name, "", usage)
	}
	cmd.Flags().StringVar(&r.Request, "request", "", "read the request as a JSON object from FILE (- for stdin)")
	cmd.Flags().StringArrayVar(&r.Params, "param", nil, "any parameter as KEY=VALUE (VALUE read as JSON when it parses); repeatable")
	cmd.Flags().StringVar(&r.Project, "project", ".", "a directory of the project")
	// The answer is always one JSON object; --json is still accepted (and
	// hidden) so that callers written against the old flag keep working.
	cmd.Flags().Bool("json", true, "")
	_ = cmd.Flags().MarkHidden("json")
}

// raw assembles the request: the JSON request first, then the text
// argument, then flags and --param, later ones winning.
func (r *requestFlags) raw(cmd *cobra.Command, in io.Reader, args []string, extra map[string]any) (blackbox.Raw, error) {
	req := blackbox.Raw{}
	if r.Request != "" {
		var data []byte
		var err error
		if r.Request == "-" {
			data, err = io.ReadAll(io.LimitReader(in, 4<<20))
		} else {
			data, err = safefs.ReadArgument(r.Request, 4<<20)
		}
		if err != nil {
			return nil, fmt.Errorf("read request: %w", err)
		}
		if req, err = blackbox.DecodeRaw(data); err != nil {
			return nil, err
		}
	}
	set := func(k string, v any) {
		b, _ := json.Marshal(v)
		req[k] = b
	}
	if len(args) > 0 {
		set("text", strings.Join(args, " "))
	}
	for name, p := range r.strs {
		if cmd.Flags().Changed(name) {
			set(name, *p)
		}
	}
	for k, v := range extra {
		set(k, v)
	}
	for _, kv := range r.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: want KEY=VALUE", kv)
		}
		if json.Valid([]byte(v)) {
			req[k] = json.RawMessage(v)
		} else {
			set(k, v)
		}
	}
	return req, nil
}

// validate checks the values given as the verb's own flags (--depth,
// --limit, --claim, …) against the request contract, before anything is
// opened: a bad value there is the person's typo, an error (exit 2) with
// a did-you-mean for choices. Values sent as JSON (--request, --param)
// keep the contract's fates (bad_form) in the answer object, since a
// calling model reads those. extra holds the typed flags that were set.
func (r *requestFlags) validate(cmd *cobra.Command, verb string, extra map[string]any) error {
	probe := blackbox.Raw{"text": json.RawMessage(`"flag check"`)}
	var given []string
	for name, p := range r.strs {
		if cmd.Flags().Changed(name) {
			b, _ := json.Marshal(*p)
			probe[name] = b
			given = append(given, name)
		}
	}
	for k, v := range extra {
		b, _ := json.Marshal(v)
		probe[k] = b
		given = append(given, k)
	}
	if len(given) == 0 {
		return nil
	}
	var fates map[string]blackbox.Fate
	var err error
	if verb == blackbox.VerbRecall {
		_, fates, err = blackbox.ParseRecall(probe, blackbox.Caps{})
	} else {
		_, fates, err = blackbox.ParseRemember(probe)
	}
	if err != nil {
		return nil // the whole request is judged again, with its text, by the run
	}
	// Every bad value on one line, in the contract's order.
	order := map[string]int{}
	for i, p := range blackbox.Params(verb) {
		order[p.Name] = i
	}
	slices.SortFunc(given, func(a, b string) int { return order[a] - order[b] })
	// A fate that only follows from another value's (a --key without a
	// usable table because --kind is bad) is left out when a cause is named.
	consequence := func(f blackbox.Fate) bool {
		return strings.Contains(f.Reason, "bad_form") || strings.Contains(f.Reason, "needs a usable")
	}
	causes := 0
	for _, name := range given {
		if f := fates[name]; f.Fate == blackbox.FateBadForm && !consequence(f) {
			causes++
		}
	}
	var problems []string
	hint := ""
	for _, name := range given {
		f := fates[name]
		if f.Fate != blackbox.FateBadForm || (causes > 0 && consequence(f)) {
			continue
		}
		raw := string(probe[name])
		value := strings.Trim(raw, `"`)
		p, _ := blackbox.Lookup(verb, name)
		if p.Kind == blackbox.KindChoice {
			var values []string
			for _, c := range p.Choices {
				values = append(values, c.Value)
			}
			err := checkChoice(verb, name, value, values)
			var u *usageError
			if errors.As(err, &u) {
				problems = append(problems, strings.TrimPrefix(u.Error(), verb+": "))
				if hint == "" || !strings.HasPrefix(hint, "did you mean") {
					hint = u.Hint()
				}
			}
			continue
		}
		problems = append(problems, fmt.Sprintf("--%s %s: %s", name, raw, f.Reason))
		if hint == "" && p.Default != "" {
			hint = "for example --" + name + " " + p.Default
		}
	}
	if len(problems) == 0 {
		return nil
	}
	if hint == "" {
		hint = "see `memhook " + verb + " --help`"
	}
	return usagef(hint, "%s: %s", verb, strings.Join(problems, "; "))
}

// printObject writes the answer object; on failure the object carries the
// error, so a calling model always reads one JSON object.
func printObject(w io.Writer, v any, err error) error {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(v); encErr != nil && err == nil {
		return encErr
	}
	return err
}
