package blackbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// ClaudeResearch makes level 5's model calls through the shared runner:
// the prompt on stdin, the process group killed at the deadline, the child
// marked nested (so its hooks do nothing and a recall it makes never
// climbs to level 5 again).
type ClaudeResearch struct {
	Runner  claude.Runner // Command, Env, Dir; Timeout is set per call from what is left of the budget
	Memhook string        // this memhook, offered to the answering call for sub-questions
	Model   string        // optional --model
}

// Call implements [Researcher].
func (c ClaudeResearch) Call(ctx context.Context, prompt string, read bool) (string, error) {
	r := c.Runner
	if dl, ok := ctx.Deadline(); ok {
		r.Timeout = time.Until(dl)
		if r.Timeout <= 0 {
			return "", fmt.Errorf("no time left: %w", claude.ErrTimeout)
		}
	}
	// Claude Code lets a headless call use its read-only tools (Read, Grep,
	// Glob) without asking, so leaving them out of --allowedTools does not
	// keep them out: --tools does. Those tools read the repository as they
	// find it — a link out of it, a .env — past the safe file layer and the
	// secret guard, so the answering call reads memory only through
	// memhook's recall (which goes through both: a nested recall's answer
	// passes the guard) and every other call gets no tool at all.
	call := claude.Call{Prompt: prompt, Model: c.Model, Args: []string{"--tools", ""}}
	if read && c.Memhook != "" {
		call.Args = []string{"--tools", "Bash"}
		call.AllowedTools = "Bash(\"" + c.Memhook + "\" recall:*)"
		call.Prompt += "\n\nFor a sub-question you may run `\"" + c.Memhook + "\" recall --depth deep QUESTION`."
	}
	res, err := r.Run(ctx, call)
	return res.Output, err
}

// NoAnswer is what the answering call says when the research found nothing.
const NoAnswer = "NONE"

// MaxRephrasings bounds the rephrasings of the question the walk searches.
const MaxRephrasings = 10

const (
	rephraseMarker = "REPHRASE"
	maxEvidence    = 20
)

func rephrasePrompt(q string) string {
	return rephraseMarker + ": give up to 10 rephrasings of the question below, for a text search over a person's notes and to know " +
		"the same question when it is asked again in other words: the whole question said differently (at least two of them in the " +
		"other language — Russian or English), and other words for its key terms (synonyms, full names, titles, the other language). " +
		"One per line, no numbering, no commentary.\n\nQuestion: " + q
}

func answerPrompt(q string, evidence []Item, history []threadEntry, rejected []Claim) string {
	var b strings.Builder
	b.WriteString("You research one question for cerebro, the project's memory, and answer it for another model.\n")
	b.WriteString("Work from what memory's own walk found, below, and from memhook's recall of the project's memory when it is offered; you have no other tool.\n")
	b.WriteString("Answer in at most 5 sentences, naming the files or records each claim rests on. If you cannot find an answer, reply exactly " + NoAnswer + ".\n")
	if len(evidence) > 0 {
		b.WriteString("\nWhat memory's own walk found (the people the question is about, graph neighbours, vectors, text search over rephrasings):\n")
		for _, e := range evidence {
			fmt.Fprintf(&b, "- %s: %s\n", orUnknown(e.Cite), clip(e.Text, 500))
		}
	}
	b.WriteString(historyText(history))
	if len(rejected) > 0 {
		b.WriteString("\nConclusions the person rejected (they said these are not so; never offer them, whatever the evidence suggests):\n")
		for _, c := range rejected {
			fmt.Fprintf(&b, "- %s · %s · %s\n", c.Subject, orUnknown(c.Relation), c.Object)
		}
	}
	b.WriteString("\nQuestion: " + q)
	return b.String()
}

var listPrefix = lazyregexp.New(`^\s*(?:[-*•]|\d+[.)])\s*`)

// rephrasings reads the model's lines: bullets and numbers stripped,
// duplicates and the question itself dropped, at most MaxRephrasings.
func rephrasings(out, q string) []string {
	seen := map[string]bool{strings.ToLower(strings.TrimSpace(q)): true}
	var rs []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(listPrefix.ReplaceAllString(l, ""))
		if l == "" || len([]rune(l)) > 300 || seen[strings.ToLower(l)] {
			continue
		}
		seen[strings.ToLower(l)] = true
		rs = append(rs, l)
		if len(rs) == MaxRephrasings {
			break
		}
	}
	return rs
}

// research is level 5, the walk in the seed's order within the budget:
// the people the question is about (the rows of "my friends" in the
// tables), each of them and the question's entities through the graph
// with the passages naming them, vectors when a provider exists, up to ten rephrasings of
// the question from the model, a text search over each, and one answering
// call given what the walk found. Every step goes into steps.
func (b *Box) research(ctx context.Context, req RecallRequest, asked *[]string) ([]Item, string, []Step, error) {
	budget := time.Duration(b.ResearchSeconds) * time.Second
	if budget <= 0 {
		budget = 180 * time.Second
	}
	maxCalls := b.ResearchCalls
	if maxCalls <= 0 {
		maxCalls = 1
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	start := time.Now()
	var steps []Step
	var notes []string
	var evidence []Item
	seen := map[string]bool{}
	add := func(hits []Hit, min float64) []Item {
		var got []Item
		for _, h := range hits {
			key := fmt.Sprintf("%s:%d", h.Path, h.at) // a section once, whichever of its lines a rephrasing shows
			if h.Score < min || seen[key] || len(evidence) >= maxEvidence {
				continue
			}
			seen[key] = true
			it := Item{Fact: h.Fact(), Text: h.Text, Object: h.Object, Cite: h.Cite(), Scope: h.Scope, Score: h.Score, whole: h.section}
			evidence = append(evidence, it)
			got = append(got, it)
		}
		return got
	}

	// 1. The people the question is about ("my friends"): the rows of
	// that relation, or of that group, in the tables.
	people, pnote, err := b.peopleOf(req.Query)
	if err != nil {
		pnote = "error: " + err.Error()
	}
	var pfound []Item
	for _, c := range people {
		if len(evidence) >= maxEvidence {
			break
		}
		it := Item{Fact: c.ID, Data: c, Text: fmt.Sprintf("%s.%s[%s] = %s", c.Table, c.Kind, c.Key, c.Value), Cite: "table " + c.Table, Scope: Scope{Calendar: c.Calendar, Geo: c.Geo}}
		evidence = append(evidence, it)
		pfound = append(pfound, it)
	}
	steps = append(steps, Step{Level: LevelResearch, Store: "research: people", Query: req.Query, Found: nonNil(pfound), Note: pnote})
	notes = append(notes, fmt.Sprintf("people: %d", len(people)))

	// 2. Each of them, and the question's own entities, through the graph:
	// their neighbours, and the passages naming each in full.
	if g, err := kgraph.Load(b.LongDir); err != nil {
		notes = append(notes, "graph: "+err.Error())
	} else {
		var names []string
		nseen := map[string]bool{}
		name := func(n string) {
			if !nseen[strings.ToLower(n)] && len(names) < 30 {
				nseen[strings.ToLower(n)] = true
				names = append(names, n)
			}
		}
		entities := 0
		asks := []string{req.Query}
		for _, c := range people {
			name(c.Key)
			asks = append(asks, c.Key)
		}
		for _, q := range asks {
			c := g.Ask(q)
			entities += len(c.Entities)
			for _, e := range c.Entities {
				for _, r := range append(append([]kgraph.Ref{}, e.Neighbours...), e.Backlinks...) {
					name(r.Name)
				}
			}
		}
		var found []Item
		if b.Text != nil {
			for _, n := range names {
				hits, _ := b.Text.Search(ctx, n, 5)
				found = append(found, add(naming(hits, n), 0)...)
			}
		}
		steps = append(steps, Step{Level: LevelResearch, Store: "research: graph neighbours", Query: strings.Join(names, "; "), Found: nonNil(found),
			Note: fmt.Sprintf("%d people, %d graph entities, %d names searched", len(people), entities, len(names))})
		notes = append(notes, fmt.Sprintf("graph: %d entities, %d names, %d passages", entities, len(names), len(found)))
	}
	// 3. Vectors, when a provider exists.
	if b.Vector == nil {
		steps = append(steps, Step{Level: LevelResearch, Store: "research: vector", Query: req.Query, Found: []Item{}, Note: "skipped: " + b.VectorWhy})
		notes = append(notes, "vector: skipped")
	} else {
		hits, err := b.Vector.Search(ctx, req.Query, 5)
		found := add(hits, 0)
		note := ""
		if err != nil {
			note = "error: " + err.Error()
		}
		steps = append(steps, Step{Level: LevelResearch, Store: "research: vector", Query: req.Query, Found: nonNil(found), Note: note})
		notes = append(notes, fmt.Sprintf("vector: %d passages", len(found)))
	}
	// 4. Rephrasings from the model, when the budget leaves a call for the
	// answer; 5. a text search over each.
	calls := 0
	var lastErr error
	if maxCalls >= 2 {
		calls++
		out, err := b.Research.Call(ctx, rephrasePrompt(req.Query), false)
		rs := rephrasings(out, req.Query)
		note := fmt.Sprintf("%d rephrasings (1 model call)", len(rs))
		if err != nil {
			note, rs, lastErr = "error: "+err.Error(), nil, err
		}
		*asked = rs
		steps = append(steps, Step{Level: LevelResearch, Store: "research: rephrasings", Query: req.Query, Found: []Item{}, Note: note + ": " + strings.Join(rs, " | ")})
		total := 0
		for _, r := range rs {
			if b.Text == nil || ctx.Err() != nil {
				break
			}
			hits, err := b.Text.Search(ctx, r, 5)
			found := add(hits, MinCoverage)
			total += len(found)
			n := ""
			if err != nil {
				n = "error: " + err.Error()
			}
			steps = append(steps, Step{Level: LevelResearch, Store: "research: text search", Query: r, Found: nonNil(found), Note: n})
		}
		notes = append(notes, fmt.Sprintf("rephrasings: %d, text search over them: %d passages", len(rs), total))
	} else {
		steps = append(steps, Step{Level: LevelResearch, Store: "research: rephrasings", Query: req.Query, Found: []Item{}, Note: "skipped: a budget of 1 call leaves none for rephrasing"})
		notes = append(notes, "rephrasings: skipped (1-call budget)")
	}
	// 6. The answer, given what the walk found and the conclusions the
	// person rejected; a failed call is retried while calls and time
	// remain.
	den, _ := denied(b.LongDir)
	rejected := den.claims
	text := ""
	for calls < maxCalls && ctx.Err() == nil {
		calls++
		out, err := b.Research.Call(ctx, answerPrompt(req.Query, evidence, req.history, rejected), true)
		if err != nil {
			lastErr = err
			continue
		}
		lastErr = nil
		if t := strings.TrimSpace(out); t != NoAnswer {
			text = t
		}
		break
	}
	steps = append(steps, Step{Level: LevelResearch, Store: "research: answer", Query: req.Query, Found: []Item{}, Note: clip(orUnknown(text), 300)})
	note := strings.Join(notes, "; ") + fmt.Sprintf("; %d model calls, %.1f s (budget %d calls, %d s)", calls, time.Since(start).Seconds(), maxCalls, int(budget.Seconds()))
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, note, steps, fmt.Errorf("research stopped at its budget of %s after %d calls", budget, calls)
	}
	if text == "" {
		return nil, note, steps, lastErr
	}
	items := []Item{{Fact: shortHash("x-", text), Text: text, Cite: "claude -p research", whole: text}}
	return append(items, evidence...), note, steps, nil
}

// naming keeps the hits whose section holds every word of name: the
// passages naming it in full, whatever share of the memory's words it is.
func naming(hits []Hit, name string) []Hit {
	var out []Hit
	for _, h := range hits {
		have := map[string]bool{}
		for _, w := range terms(h.Heading + "\n" + h.section) {
			have[w] = true
		}
		all := true
		for _, w := range terms(name) {
			all = all && have[w]
		}
		if all {
			out = append(out, h)
		}
	}
	return out
}
