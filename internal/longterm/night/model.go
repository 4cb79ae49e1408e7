package night

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/wiki"
	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// Claude is the [Model] of `night.model = "claude"`: one bounded headless
// `claude -p` per prompt, through the shared runner, with no tools.
type Claude struct {
	Runner claude.Runner
	Model  string // optional --model
}

// Ask sends the prompt on stdin and returns the answer.
func (c Claude) Ask(ctx context.Context, prompt string) (string, error) {
	res, err := c.Runner.Run(ctx, claude.Call{Prompt: prompt, Model: c.Model})
	if err != nil {
		return "", err
	}
	if res.Truncated {
		return "", errors.New("the answer was cut at the output limit")
	}
	return res.Output, nil
}

// Markers the prompts start with; a stand-in model in tests tells the two
// requests apart by them.
const (
	DayRequest   = "cerebro night: compile one day"
	TruthRequest = "cerebro night: compiled truth"
)

const dayInstructions = DayRequest + `

You compile one closed day of a project's short-term memory (a daily file of session notes, below between <day> tags) into its long-term memory. Reply with ONE JSON object and nothing else:

{"digest": "...", "facts": [{"page": "wiki/Page.md", "text": "...", "time": "HH:MM"}]}

- digest: Markdown worth keeping from this day: facts learned, decisions with their reasons, lessons, what stays open. Bullet lists under ### headings; no # or ## headings; under 3000 characters; in the language of the day.
- facts: dated facts for the card pages listed below, only facts the person (the user, whose words are the items under "### Asked") stated themselves that day, one line each, with the time of the section they come from. Use only listed pages. An empty list is a good answer.

Example: {"digest": "### Decided\n- Releases leave on Fridays.", "facts": [{"page": "wiki/Releases.md", "text": "releases leave on Fridays", "time": "10:15"}]}
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
}

// dayCache is the per-day cache: the answer of every part of the day, valid
// while the day file has DayHash.
type dayCache struct {
	Day     string   `json:"day"`
	DayHash string   `json:"day_hash"`
	Answers []string `json:"answers"` // by part; "" not asked yet
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

// ask returns the model's answer to prompt, or ok=false when the budget
// refuses the call.
func (n *run) ask(ctx context.Context, prompt string) (string, bool, error) {
	b := n.o.Budget
	if b != nil && !b.Allow(prompt) {
		n.rep.BudgetStop = true
		return "", false, nil
	}
	if b != nil {
		b.Spend(prompt)
		if err := b.Save(); err != nil {
			n.rep.problem(err)
		}
	}
	n.rep.Calls++
	n.rep.Tokens += EstimateTokens(prompt)
	out, err := n.o.Model.Ask(ctx, prompt)
	return out, true, err
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

const maxCardsListed = 150

func dayPrompt(day string, part, parts int, text string, cs []*wiki.Page) string {
	var b strings.Builder
	b.WriteString(dayInstructions)
	b.WriteString("\nCard pages:\n")
	if len(cs) == 0 {
		b.WriteString("(none yet: leave facts empty)\n")
	}
	for i, p := range cs {
		if i == maxCardsListed {
			fmt.Fprintf(&b, "(and %d more not listed)\n", len(cs)-i)
			break
		}
		fmt.Fprintf(&b, "- %s", p.Path)
		if p.Title != "" && p.Title != p.Name {
			fmt.Fprintf(&b, " — %s", oneLine(p.Title))
		}
		if d, ok := p.Meta["description"].(string); ok && strings.TrimSpace(d) != "" {
			fmt.Fprintf(&b, " — %s", oneLine(d))
		}
		b.WriteString("\n")
	}
	if parts > 1 {
		fmt.Fprintf(&b, "\nThis is part %d of %d of the day.\n", part+1, parts)
	}
	fmt.Fprintf(&b, "\n<day date=\"%s\">\n%s\n</day>\n", day, strings.TrimRight(text, "\n"))
	return b.String()
}

// splitDay cuts a day between its sections (as [daily.Parse] reads them)
// into parts of at most max characters; a single longer section is its
// own part, and the frontmatter and title go with the first section.
func splitDay(data []byte, max int) []string {
	d := daily.Parse(data)
	units := []string{d.Preamble}
	for i, sec := range d.Sections {
		if i == 0 {
			units[0] += sec.Raw
			continue
		}
		units = append(units, sec.Raw)
	}
	var parts []string
	var cur strings.Builder
	curN := 0
	for _, u := range units {
		n := utf8.RuneCountInString(u)
		if curN > 0 && curN+n > max {
			parts = append(parts, cur.String())
			cur.Reset()
			curN = 0
		}
		cur.WriteString(u)
		curN += n
	}
	if curN > 0 || len(parts) == 0 {
		parts = append(parts, cur.String())
	}
	return parts
}

var hhmm = lazyregexp.New(`^([01]\d|2[0-3]):[0-5]\d$`)

func (n *run) compileDays(ctx context.Context) {
	days, err := n.readyDays()
	if err != nil {
		n.rep.problem(fmt.Errorf("list closed days: %w", err))
		return
	}
	if len(days) == 0 {
		return
	}
	n.rep.ran("compile")
	for _, d := range days {
		if n.rep.BudgetStop {
			return
		}
		if err := n.compileDay(ctx, d); err != nil {
			n.rep.problem(fmt.Errorf("compile %s: %w", d.Date, err))
		}
	}
}

func (n *run) compileDay(ctx context.Context, d longterm.Day) error {
	data, err := readBounded(d.Path)
	if err != nil {
		return err
	}
	v, err := n.s.LoadVault()
	if err != nil {
		return err
	}
	cs := cards(v)
	parts := splitDay(data, n.o.MaxDayChars)
	cp := cachePath(n.s, d.Date+".json")
	var c dayCache
	if !readJSON(cp, &c) || c.DayHash != longterm.Hash(data) || len(c.Answers) != len(parts) {
		c = dayCache{Day: d.Date, DayHash: longterm.Hash(data), Answers: make([]string, len(parts))}
	}
	if n.o.DryRun {
		cached := 0
		for _, a := range c.Answers {
			if a != "" {
				cached++
			}
		}
		n.rep.ran(fmt.Sprintf("compile %s: %d call(s), %d cached", d.Date, len(parts)-cached, cached))
		return nil
	}
	var answers []dayAnswer
	for i, part := range parts {
		if c.Answers[i] != "" {
			var a dayAnswer
			if parseAnswer(c.Answers[i], &a) == nil {
				n.rep.Cached++
				answers = append(answers, a)
				continue
			}
		}
		out, ok, err := n.ask(ctx, dayPrompt(d.Date, i, len(parts), part, cs))
		if !ok {
			return nil // the budget stops here; the day waits for the next night
		}
		if err != nil {
			return fmt.Errorf("model call: %w", err)
		}
		var a dayAnswer
		if err := parseAnswer(out, &a); err != nil {
			return err
		}
		c.Answers[i] = out
		body, _ := json.MarshalIndent(c, "", "  ")
		if err := writeState(n.s, stateDir+"/cache/"+d.Date+".json", append(body, '\n')); err != nil {
			return err
		}
		answers = append(answers, a)
	}
	return n.step("night compile "+d.Date, func() error { return n.applyDay(d, data, answers, cs) })
}

// applyDay writes what the model said about a day: facts that pass the
// owner check go to their cards, the rest stay proposals in the digest;
// the digest is written to wiki/_private/ and the day is archived.
func (n *run) applyDay(d longterm.Day, data []byte, answers []dayAnswer, cs []*wiki.Page) error {
	isCard := map[string]bool{}
	for _, p := range cs {
		isCard[strings.ToLower(p.Path)] = true
	}
	var digest []string
	var written, proposed []string
	seen := map[string]bool{}
	for _, a := range answers {
		if t := strings.TrimSpace(a.Digest); t != "" {
			digest = append(digest, t)
		}
		for _, f := range a.Facts {
			page := strings.TrimSpace(f.Page)
			text := oneLine(f.Text)
			if page == "" || text == "" || seen[strings.ToLower(page)+"\x00"+text] {
				continue
			}
			seen[strings.ToLower(page)+"\x00"+text] = true
			if !strings.HasSuffix(strings.ToLower(page), ".md") {
				page += ".md"
			}
			if !isCard[strings.ToLower(page)] {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: no such card page", page, text))
				continue
			}
			reply, ok := OwnerEvidence(data, text)
			if !ok {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: the person's replies of %s do not state it", page, text, d.Date))
				continue
			}
			at := reply.Time
			if at == "" && hhmm.MatchString(f.Time) {
				at = f.Time
			}
			res, err := n.s.FactAdd(page, text, "daily/"+d.Date, at, n.o.Now)
			if err != nil {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: %s", page, text, oneLine(err.Error())))
				continue
			}
			if !res.Already {
				n.rep.Facts++
				n.rep.wrote("memory_long/" + res.Page)
			}
			written = append(written, fmt.Sprintf("- [[%s]]: %s", strings.TrimSuffix(res.Page, path.Ext(res.Page)), strings.TrimPrefix(res.Line, "- ")))
		}
	}
	n.rep.Proposals += len(proposed)
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntype: digest\ndate: %q\ndescription: %q\n---\n\n# Digest %s\n\nCompiled by the night pass from [[daily/%s]].\n\n",
		d.Date, "night digest of "+d.Date, d.Date, d.Date)
	if len(digest) == 0 {
		b.WriteString("_Nothing worth keeping, by the model's reading._\n")
	} else {
		b.WriteString(demote(strings.Join(digest, "\n\n")) + "\n")
	}
	if len(written) > 0 {
		b.WriteString("\n## Facts written\n\n" + strings.Join(written, "\n") + "\n")
	}
	if len(proposed) > 0 {
		b.WriteString("\n## Proposed facts\n\nThe model proposed these; they wait for a person (`memhook fact add`).\n\n" + strings.Join(proposed, "\n") + "\n")
	}
	rel := longterm.PrivateDir + "/digest-" + d.Date + ".md"
	res, err := n.s.WritePage(rel, []byte(b.String()), n.o.Now)
	if err != nil {
		return err
	}
	if res.Changed {
		n.rep.wrote("memory_long/" + rel)
	}
	if _, err := n.s.CompileDone([]string{d.Date}, n.o.Now); err != nil {
		return err
	}
	n.rep.Compiled = append(n.rep.Compiled, d.Date)
	n.rep.wrote("memory_short/daily/_archive/" + d.Date + ".md")
	return nil
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
	if n.rep.BudgetStop {
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
		data, err := readBounded(n.s.Path(p.Path))
		if err != nil || len(longterm.Facts(data)) == 0 {
			continue
		}
		fh := longterm.FactsHash(data)
		if state[p.Path] == fh {
			continue
		}
		if !ranStep {
			n.rep.ran("truth")
			ranStep = true
		}
		if n.o.DryRun {
			n.rep.ran("truth " + p.Path + ": 1 call")
			continue
		}
		ok, err := n.truth(ctx, p.Path, data)
		if err != nil {
			n.rep.problem(fmt.Errorf("truth %s: %w", p.Path, err))
		}
		if !ok {
			break
		}
		state[p.Path] = fh
		body, _ := json.MarshalIndent(state, "", "  ")
		if err := writeState(n.s, truthStateFile, append(body, '\n')); err != nil {
			n.rep.problem(err)
		}
	}
}

// truth asks for and sets one page's truth; ok=false when the budget
// stopped it.
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
		var ok bool
		var err error
		out, ok, err = n.ask(ctx, prompt)
		if !ok {
			return false, nil
		}
		if err != nil {
			return true, fmt.Errorf("model call: %w", err)
		}
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
