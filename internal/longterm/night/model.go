package night

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Answer is a model's reply to one prompt with what it cost.
type Answer struct {
	Text  string
	Usage claude.Usage
	// UsageErr says why Usage is not the provider's complete count; nil
	// when it is. The text is usable either way, but no call may follow.
	UsageErr error
}

// Claude is the [Model] of `night.model = "claude"`: one bounded headless
// `claude -p --output-format json` per prompt, through the shared runner,
// with no tools. The JSON result carries the usage the budget counts.
type Claude struct {
	Runner claude.Runner
	Model  string // optional --model
}

// Ask sends the prompt on stdin and returns the answer and its usage. Any
// error is the provider's or the transport's: the night ends with it,
// without a retry or another model.
func (c Claude) Ask(ctx context.Context, prompt string) (Answer, error) {
	res, err := c.Runner.RunJSON(ctx, claude.Call{Prompt: prompt, Model: c.Model})
	if err != nil {
		return Answer{}, err
	}
	return Answer{Text: guardAnswer(res.Answer.Answer, c.Runner.Guard), Usage: res.Usage, UsageErr: res.UsageErr}, nil
}

// guardAnswer passes a model's answer through the secret guard its
// prompt passed, before the night caches or writes any of it: a model
// may repeat a secret an older note still holds. The JSON object's
// strings are guarded one by one, so a marker never breaks the object;
// an answer without one is guarded whole.
func guardAnswer(out string, guard func(string) string) string {
	if guard == nil {
		return out
	}
	i, j := strings.Index(out, "{"), strings.LastIndex(out, "}")
	if i >= 0 && j > i {
		dec := json.NewDecoder(strings.NewReader(out[i : j+1]))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			if g, err := secrets.GuardValue(v, guard); err == nil {
				if data, err := json.Marshal(g); err == nil {
					return guard(out[:i]) + string(data) + guard(out[j+1:])
				}
			}
		}
	}
	return guard(out)
}

// Markers the prompts start with; a stand-in model in tests tells the
// requests apart by them.
const (
	DayRequest   = "cerebro night: compile one day"
	TruthRequest = "cerebro night: compiled truth"
	CoreRequest  = "cerebro night: CORE edits"
)

const dayInstructions = DayRequest + `

You compile one closed day of a project's short-term memory (a daily file of session notes, below between <day> tags) into its long-term memory. Reply with ONE JSON object and nothing else:

{"digest": "...", "facts": [{"page": "wiki/Page.md", "text": "...", "time": "HH:MM"}], "cards": ["wiki/Page.md"]}

- digest: Markdown worth keeping from this day: facts learned, decisions with their reasons, lessons, what stays open. Bullet lists under ### headings; no # or ## headings; under 3000 characters; in the language of the day.
- facts: dated facts for the card pages listed below, only facts the person (the user, whose words are the items under "### Asked") stated themselves that day, one line each, with the time of the section they come from. Use only listed pages. An empty list is a good answer.
- cards: the listed card pages this day is about (they get a link to the day's digest, and it to them). An empty list is a good answer.

Example: {"digest": "### Decided\n- Releases leave on Fridays.", "facts": [{"page": "wiki/Releases.md", "text": "releases leave on Fridays", "time": "10:15"}], "cards": ["wiki/Releases.md"]}
`

const truthInstructions = TruthRequest + `

You keep the "Compiled truth" of one long-term memory page: a short present-tense summary of what is true now, built from the page's dated facts (a newer fact wins over an older one) and its text. Reply with ONE JSON object and nothing else:

{"truth": "..."}

- truth: Markdown, at most 12 lines, no # or ## headings, in the language of the page.
`

type proposedFact struct {
	Page string `json:"page"`
	Text string `json:"text"`
	Time string `json:"time"`
}

type dayAnswer struct {
	Digest string         `json:"digest"`
	Facts  []proposedFact `json:"facts"`
	Cards  []string       `json:"cards"`
}

type truthCache struct {
	Page     string `json:"page"`
	PageHash string `json:"page_hash"`
	Answer   string `json:"answer"`
}

func cachePath(s *longterm.Store, name string) string {
	return s.Path(stateDir + "/cache/" + name)
}

// parseAnswer reads the JSON object in a model's answer, leniently: text
// around the outermost braces is ignored.
func parseAnswer(out string, v any) error {
	i, j := strings.Index(out, "{"), strings.LastIndex(out, "}")
	if i < 0 || j < i {
		return errors.New("the answer holds no JSON object")
	}
	if err := json.Unmarshal([]byte(out[i:j+1]), v); err != nil {
		return fmt.Errorf("the answer's JSON does not parse: %w", err)
	}
	return nil
}

// ProviderFailure is a model call that failed on the provider's or the
// transport's side (no answer, a cut stream, a connection error, a
// timeout). The night ends with it: the day waits, nothing is retried
// and no other model is tried.
type ProviderFailure struct{ Err error }

func (e *ProviderFailure) Error() string { return "the model call failed: " + e.Err.Error() }
func (e *ProviderFailure) Unwrap() error { return e.Err }

// stopped reports whether no model call may be made any more in this
// run.
func (n *run) stopped() bool {
	b := n.o.Budget
	return n.rep.Failed != "" || b != nil && (b.Failed != "" || b.Unaccounted != "")
}

// ask returns the model's answer to prompt, or ok=false when no call was
// made: the budget refuses it, an earlier call's usage was not reported,
// or the provider failed earlier in the run. An error is a
// [*ProviderFailure].
func (n *run) ask(ctx context.Context, prompt string) (Answer, bool, error) {
	b := n.o.Budget
	if b != nil && !b.Allow(prompt) {
		switch {
		case b.Failed != "":
			n.rep.Failed = b.Failed
		case b.Unaccounted != "":
			n.rep.UsageStop = b.Unaccounted
		default:
			n.rep.BudgetStop = true
		}
		return Answer{}, false, nil
	}
	if n.rep.Failed != "" {
		return Answer{}, false, nil
	}
	est := EstimateTokens(prompt)
	if b != nil {
		b.Reserve(est)
		if err := b.Save(); err != nil {
			n.rep.problem(err)
		}
	}
	n.rep.Calls++
	a, err := n.o.Model.Ask(ctx, prompt)
	if err != nil {
		n.rep.Tokens += est
		f := &ProviderFailure{Err: err}
		n.rep.Failed = f.Error()
		if b != nil {
			b.Failed = n.rep.Failed
		}
		return Answer{}, true, f
	}
	if a.UsageErr != nil {
		n.rep.Tokens += est
		why := fmt.Sprintf("call %d of the night (%s, %s): %v", n.rep.Calls, n.s.Project, n.rep.Date, a.UsageErr)
		n.rep.UsageStop = why
		if b != nil {
			b.Unaccounted = why
		}
	} else {
		n.rep.Tokens += a.Usage.Input()
		n.rep.OutputTokens += a.Usage.OutputTokens
		if b != nil {
			b.Settle(est, a.Usage)
		}
	}
	if b != nil {
		if err := b.Save(); err != nil {
			n.rep.problem(err)
		}
	}
	return a, true, nil
}

// cards are the pages facts may go to: wiki pages outside wiki/_private/,
// without pending proposals and redirects.
func cards(v *wiki.Vault) []*wiki.Page {
	var out []*wiki.Page
	for _, p := range v.Pages {
		if !strings.HasPrefix(p.Path, longterm.WikiDir+"/") || strings.HasPrefix(p.Path, longterm.PrivateDir+"/") ||
			strings.HasSuffix(p.Path, ".truth-pending.md") || p.Type == "redirect" || p.Type == "truth-pending" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// demote turns # and ## headings of model text into ###, so a digest keeps
// the page's own structure.
func demote(text string) string {
	lines := strings.Split(text, "\n")
	fence := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if !fence && (strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ")) {
			lines[i] = "### " + strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
	}
	return strings.Join(lines, "\n")
}

const truthStateFile = stateDir + "/truth.json"

// truths proposes a new compiled truth for every card whose facts changed
// since its last proposal.
func (n *run) truths(ctx context.Context) {
	if n.rep.BudgetStop || n.stopped() {
		return
	}
	v, err := n.s.LoadVault()
	if err != nil {
		n.rep.problem(fmt.Errorf("truth: %w", err))
		return
	}
	state := map[string]string{}
	readJSON(n.s.Path(truthStateFile), &state)
	ranStep := false
	for _, p := range cards(v) {
		data, err := safefs.ReadFile(n.s.Path(p.Path), maxFileBytes)
		if err != nil || len(longterm.Facts(data)) == 0 {
			continue
		}
		fh := longterm.FactsHash(data)
		if state[p.Path] == fh {
			continue
		}
		if !ranStep {
			n.rep.ran(StepTruth)
			ranStep = true
		}
		if n.o.DryRun {
			n.rep.ran(StepTruth + " " + p.Path + ": 1 call")
			continue
		}
		ok, err := n.truth(ctx, p.Path, data)
		if err != nil {
			n.rep.problem(fmt.Errorf("truth %s: %w", p.Path, err))
		}
		if !ok || n.stopped() {
			break
		}
		state[p.Path] = fh
		body, _ := json.MarshalIndent(state, "", "  ")
		if err := writeState(n.s, truthStateFile, append(body, '\n')); err != nil {
			n.rep.problem(err)
		}
	}
}

// truth asks for and sets one page's truth; ok=false when no call could
// be made or the call failed on the provider's side.
func (n *run) truth(ctx context.Context, page string, data []byte) (bool, error) {
	hash := longterm.Hash(data)
	cname := "truth-" + longterm.Hash([]byte(page))[:16] + ".json"
	var c truthCache
	out := ""
	if readJSON(cachePath(n.s, cname), &c) && c.Page == page && c.PageHash == hash {
		out = c.Answer
		n.rep.Cached++
	} else {
		prompt := fmt.Sprintf("%s\n<page path=%q>\n%s\n</page>\n", truthInstructions, page, strings.TrimRight(string(data), "\n"))
		a, ok, err := n.ask(ctx, prompt)
		if !ok {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		out = a.Text
		body, _ := json.MarshalIndent(truthCache{Page: page, PageHash: hash, Answer: out}, "", "  ")
		if err := writeState(n.s, stateDir+"/cache/"+cname, append(body, '\n')); err != nil {
			return true, err
		}
	}
	var a struct {
		Truth string `json:"truth"`
	}
	if err := parseAnswer(out, &a); err != nil {
		return true, err
	}
	if strings.TrimSpace(a.Truth) == "" {
		return true, nil
	}
	err := n.step("night truth "+page, func() error {
		return n.s.TruthSet(page, []byte(a.Truth), hash, n.o.Now)
	})
	var conflict *longterm.TruthConflictError
	switch {
	case errors.As(err, &conflict):
		n.rep.TruthPending = append(n.rep.TruthPending, page)
		n.rep.wrote("memory_long/" + conflict.Pending)
		return true, nil
	case err != nil:
		return true, err
	}
	n.rep.Truths++
	n.rep.wrote("memory_long/" + page)
	return true, nil
}
