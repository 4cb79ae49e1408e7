package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

var (
	decision = phrases(
		"decided", "decide to", "we'll use", "we will use", "we'll go with", "let's go with",
		"let's use", "let's keep", "going with", "go with", "agreed", "settled on", "we chose",
		"i chose", "chose", "opted for", "the decision", "decision:", "instead of", "rather than",
		"in favor of", "in favour of", "trade-off", "tradeoff", "we'll keep", "keep it as",
		"решили", "решено", "будем", "выбрали", "договорились", "остановимся на", "остановились на",
		"используем", "вместо",
	)
)

// decisionCore are the markers that name a decision outright, as opposed
// to an alternative named in passing ("instead of").
var decisionCore = phrases(
	"decided", "decide to", "we'll use", "we will use", "we'll go with", "let's go with",
	"let's use", "let's keep", "going with", "agreed", "settled on", "chose", "opted for",
	"the decision", "decision:", "решили", "решено", "выбрали", "договорились",
)

// decidedList: decisions with their reasons from the dialogue, the options
// the user picked when asked, a plan they approved and the reasons they
// gave for refusing a step.
func decidedList(sc sentenceCache, turns []turn, items []transcript.Item, skip map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] && !skip[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	var lastPlan string
	for _, t := range turns {
		if t.chore {
			continue
		}
		if t.ask != nil && t.request() != "" {
			// A request that states a choice ("keep the name, but…").
			for _, s := range sc.of(t.ask.Text) {
				if decision.in(s.words) && !isQuestion(s.text) {
					add(s.text)
				}
			}
		}
		for _, r := range t.replies {
			for _, tool := range r.Tools {
				if tool.Name == "ExitPlanMode" {
					lastPlan = planTitle(tool.Target)
				}
			}
			for _, s := range sc.of(r.Text) {
				if isQuestion(s.text) || strings.HasSuffix(s.text, ":") || !decision.in(s.words) {
					continue
				}
				if planning.prefix(s.words) && !reasoned(s.words) {
					continue
				}
				if isDone(s) && !decisionCore.in(s.words) {
					continue // work done, its alternative named: an outcome
				}
				add(stripFiller(s.text))
			}
		}
		for _, w := range t.words {
			switch w.Kind {
			case transcript.KindAnswer:
				for _, qa := range answers(w.Text) {
					add("chose: " + qa)
				}
			case transcript.KindDeclined:
				add("user declined a step: " + w.Text)
			case transcript.KindPlanApproved:
				if lastPlan != "" {
					add("plan approved: " + lastPlan)
				}
			}
		}
	}
	return capKeepEnds(out, maxDecided, " earlier decisions")
}

// reasoned: a sentence that gives its reason or its alternative.
func reasoned(ws []string) bool {
	return phrases("instead of", "rather than", "because", "since", "so that", "вместо", "потому что").in(ws)
}

// answers splits `"Q1"="A1", "Q2"="A2"` into "Q1 → A1" lines.
func answers(text string) []string {
	var out []string
	// The transcript reader appends the picked options' descriptions
	// after the pairs: ` (label: description; …)`.
	desc := map[string]string{}
	if i := strings.LastIndex(text, `"`); i >= 0 {
		if tail := strings.TrimSpace(text[i+1:]); strings.HasPrefix(tail, "(") && strings.HasSuffix(tail, ")") {
			for _, part := range strings.Split(tail[1:len(tail)-1], "; ") {
				if label, d, ok := strings.Cut(part, ": "); ok {
					desc[label] = d
				}
			}
		}
	}
	for _, m := range answerPair().FindAllStringSubmatch(text, -1) {
		a := oneLine(m[2])
		if d := desc[m[2]]; d != "" {
			a += " (" + oneLine(d) + ")"
		}
		out = append(out, shorten(oneLine(m[1]), 90)+" → "+a)
	}
	if len(out) == 0 && strings.TrimSpace(text) != "" {
		out = append(out, oneLine(text))
	}
	return out
}

var answerPair = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]+)"="([^"]*)"`) })

// planTitle is a plan's heading or first line.
func planTitle(plan string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(plan), "\n")
	line = strings.TrimSpace(strings.TrimLeft(line, "# "))
	line = strings.TrimPrefix(strings.TrimPrefix(line, "Plan:"), "План:")
	return strings.TrimSpace(strings.TrimSuffix(line, " …"))
}

var (
	// Markers of a lesson: an error's cause, a limit found.
	lessonMarkers = phrases(
		"the issue is", "the issue was", "the problem is", "the problem was", "root cause", "caused by",
		"the cause", "turns out", "turned out", "the reason is", "the reason was", "because",
		"can't", "cannot", "couldn't", "doesn't support", "does not support", "not supported",
		"isn't supported", "not allowed", "requires", "needs to be", "blocked", "permission",
		"approval", "limitation", "limit", "only works", "doesn't work", "does not work",
		"didn't work", "failed", "fails", "failing", "is slow", "takes", "deprecated", "by default",
		"note that", "important", "the fix", "the catch", "gotcha", "no installer",
		"потому что", "из-за", "причина", "не работает", "нельзя", "не поддерживает", "оказалось",
	)
	errorName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Z][A-Za-z]*(?:Error|Exception)\b`) })
)

// learnedList: lessons stated in the dialogue (an error and its cause, a
// limit found) and what a hook said when it blocked a turn.
func learnedList(sc sentenceCache, turns []turn, skip map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] && !skip[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, t := range turns {
		if t.chore {
			continue
		}
		for _, r := range t.replies {
			n := 0
			for _, s := range sc.of(r.Text) {
				if n >= 2 || isQuestion(s.text) || strings.HasSuffix(s.text, ":") || len(s.words) < 5 ||
					planning.prefix(s.words) || filler.prefix(s.words) && len(s.words) < 6 {
					continue
				}
				if lessonMarkers.in(s.words) || errorName().MatchString(s.text) {
					add(stripFiller(s.text))
					n++
				}
			}
		}
		for _, r := range t.replies {
			for _, f := range findings(r.Text) {
				add(f)
			}
		}
		for _, w := range t.words {
			if w.Kind == transcript.KindHookFeedback {
				add("a Stop hook blocked the turn: " + w.Text)
			}
		}
	}
	return capKeepEnds(out, maxLearned, " earlier lessons")
}

var (
	// Markers of work left over, taken from any reply: written as a
	// marker (TODO:, FIXME) or as a phrase, never a topic word.
	openStrong = phrases(
		"still need", "still needs", "not yet", "left to do", "remaining work", "follow-up:",
		"still failing", "still fails", "ready to push", "ready to commit", "ready to merge",
		"needs review", "not implemented", "not done",
		"осталось", "ещё нужно", "еще нужно", "пока не", "не забыть", "не сделано", "доделать",
	)
	todoMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:TODO|FIXME|TBD|XXX):?\s`) })
	// Markers of a next step, taken only from the reply the segment ends on:
	// earlier ones were usually carried out in the next turn.
	openNext = phrases(
		"next step", "next steps", "you may want", "you might want", "consider", "would you like",
		"want me to", "should i", "shall i", "fail", "failing", "failed",
		"нужно", "надо", "следующий шаг", "дальше", "потом", "стоит",
	)
	checkbox = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*[-*]\s+\[ \]\s+(.+)$`) })
)

func openList(sc sentenceCache, turns []turn, items []transcript.Item) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	// The reply the segment ends on, housekeeping aside.
	var last transcript.Item
	hasLast := false
	for i := len(turns) - 1; i >= 0 && !hasLast; i-- {
		if turns[i].chore {
			continue
		}
		last, hasLast = turns[i].answer()
	}
	for _, t := range turns {
		if t.chore {
			continue
		}
		for _, it := range t.replies {
			final := hasLast && it.ID == last.ID
			for _, s := range sc.of(it.Text) {
				switch {
				case isDone(s) && !openStrong.in(s.words),
					planning.prefix(s.words), strings.HasSuffix(s.text, ":"):
				case final && isQuestion(s.text):
					add(s.text)
				case (openStrong.in(s.words) || todoMarker().MatchString(s.text)) && !isQuestion(s.text):
					add(s.text)
				case final && openNext.in(s.words):
					add(s.text)
				}
			}
			if final {
				for _, m := range checkbox().FindAllStringSubmatch(it.Text, -1) {
					add(m[1])
				}
			}
		}
	}
	// The request the segment ends on, if it got no answer: no reply yet,
	// only plans and tool calls, or the user interrupted it.
	for i := len(turns) - 1; i >= 0; i-- {
		t := turns[i]
		if t.chore || t.ask == nil {
			continue
		}
		if r := t.request(); r != "" {
			switch {
			case t.interrupted() && !t.answered(sc):
				add("interrupted, not resolved: " + r)
			case !t.answered(sc):
				add("unanswered: " + r)
			}
		}
		break
	}
	return capKeepEnds(out, maxOpen, " earlier open items")
}

// findingsLead is a heading or lead-in line that introduces findings.
var findingsLead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*)?[^\n]{0,40}\b(?:key findings|findings|what i found|root cause|lessons?(?: learned)?|learned|insights|gotchas|caveats|important notes?|key points|ключевые выводы|выводы|находки)\b[^\n]{0,20}$`)
})

// findings returns the first list items under each findings heading or
// lead-in ("Key findings:"): what the assistant itself reports as learned.
func findings(text string) []string {
	var out []string
	for _, loc := range findingsLead().FindAllStringIndex(text, -1) {
		n := 0
		for _, line := range strings.Split(text[loc[1]:], "\n") {
			if strings.TrimSpace(line) == "" && n == 0 {
				continue
			}
			if !listMarker().MatchString(line) {
				if n > 0 || heading().MatchString(line) {
					break
				}
				continue
			}
			out = append(out, strings.TrimSpace(emphasis.Replace(listMarker().ReplaceAllString(line, ""))))
			if n++; n == 4 {
				break
			}
		}
	}
	return out
}
