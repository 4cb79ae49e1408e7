package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// decisionCore are the markers that name a decision outright, as opposed
// to an alternative named in passing ("instead of").
var decisionCore = phrases(
	"decided", "decide to", "we'll use", "we will use", "we'll go with", "let's go with",
	"let's use", "let's keep", "going with", "agreed", "settled on", "chose", "opted for",
	"the decision", "решили", "решено", "выбрали", "договорились",
)

// decidedList: what the tool results show was decided (a plan approved
// or turned down, a question turned down, the reason given for rejecting
// a step), the options the user picked when asked, the user's short
// answer to a question the assistant ended on, and sentences phrased as
// a decision, with their reasons.
func decidedList(sc sentenceCache, turns []turn, fromTools []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, d := range fromTools {
		add(d)
	}
	var lastQuestion string
	final := finalReply(turns)
	for ti, t := range turns {
		if t.chore {
			lastQuestion = ""
			continue
		}
		if t.ask != nil {
			if r := t.request(); r != "" {
				// A request that states a choice ("keep the name, but…",
				// "use pnpm instead of npm"); an alternative named in a
				// request ("so that we hide the group instead of…") or in
				// text the user pasted is not one.
				for _, s := range sc.of(t.ask.Text) {
					if !isQuestion(s.text) && prose(s, 1, userSentenceWords) && (userDecision.in(s.words) || alternative.in(s.words) && imperative(s)) {
						add(s.text)
					}
				}
			}
			// A short reply to the question the last turn ended on is
			// the user's choice: "Shall I push?" — "yes".
			if reply := oneLine(t.ask.Text); lastQuestion != "" && reply != "" && len([]rune(reply)) <= shortReply {
				add(shorten(lastQuestion, 140) + " — the user: " + reply)
			}
		}
		lastQuestion = ""
		for ri, r := range t.replies {
			if (replyRef{ti, ri}) == final || t.superseded {
				continue // shown whole under Final message, or corrected
			}
			for _, s := range sc.of(r.Text) {
				if isQuestion(s.text) || strings.HasSuffix(s.text, ":") || !prose(s, 4, sentenceWords) {
					continue
				}
				// Said as a decision ("we'll use", "decided"), or an action
				// taken or about to be taken over the alternative it names
				// ("used X instead of Y", "I'll change the test rather
				// than the cache"); an alternative named in passing is not
				// one.
				if decisionCore.in(s.words) || alternative.in(s.words) && (opensWithAction(s) || planning.prefix(s.words)) {
					add(stripFiller(s.text))
				}
			}
		}
		if ans, ok := t.answer(); ok {
			if ss := sc.of(ans.Text); len(ss) > 0 && isQuestion(ss[len(ss)-1].text) {
				lastQuestion = ss[len(ss)-1].text
			}
		}
		for _, w := range t.words {
			if w.Kind == transcript.KindAnswer {
				for _, qa := range answers(w.Text) {
					add("chose: " + qa)
				}
			}
		}
	}
	return capKeepEnds(out, maxDecided, " earlier decisions")
}

// Bounds of a sentence read as a decision or a lesson: longer ones are
// run-on text — dictation, a pasted prompt — not a statement.
const (
	sentenceWords     = 60
	userSentenceWords = 40
)

// prose reports whether a sentence is one: between min and max words,
// and made of words rather than of code, names and lists ("AuditEntry,
// AuditLogger, AuditResult, Decision, …" is a list of names).
func prose(s sent, min, max int) bool {
	if len(s.words) < min || len(s.words) > max {
		return false
	}
	tokens := strings.Fields(s.text)
	if codeLine(tokens) {
		return false
	}
	code, listed := 0, 0
	inCode := false
	for _, t := range tokens {
		ticks := strings.Count(t, "`")
		if inCode || ticks > 0 || codeToken(t) {
			code++
		}
		if ticks%2 == 1 {
			inCode = !inCode
		}
		if strings.HasSuffix(t, ",") {
			listed++
		}
	}
	return 2*code < len(tokens) && 2*listed < len(tokens)
}

// codeKeywords open a line of code.
var codeKeywords = sync.OnceValue(func() map[string]bool {
	return wordSet("if", "for", "while", "func", "def", "return", "raise", "import", "from", "const", "let", "var",
		"class", "print", "fn", "pub", "elif", "else", "try", "catch", "throw", "async", "await", "select", "insert", "update")
})

// codeLine: tokens that are a line of code, not a sentence — opening with
// a keyword and holding code's punctuation, or holding an operator.
func codeLine(tokens []string) bool {
	if len(tokens) == 0 {
		return false
	}
	punct := false
	for _, t := range tokens {
		switch t {
		case "!=", "==", ":=", "=>", "->", "&&", "||", "{", "}", "};", "+=", "===", "!==":
			return true
		}
		if strings.ContainsAny(t, "(){};=") && !strings.Contains(t, "`") {
			punct = true
		}
	}
	return punct && codeKeywords()[tokens[0]] && !strings.HasPrefix(tokens[0], "`")
}

// codeToken: a token that is code or a name rather than a word —
// snake_case, CamelCase inside, a call, a path, an operator.
func codeToken(t string) bool {
	t = strings.Trim(t, ".,;:!?()[]\"'“”‘’…")
	if t == "" {
		return false
	}
	if strings.ContainsAny(t, "_=<>{}$#@\\|") || strings.Contains(t, "::") || strings.Contains(t, "()") || strings.Contains(strings.Trim(t, "/"), "/") {
		return true
	}
	if i := strings.IndexByte(t, '.'); i > 0 && i < len(t)-1 {
		return true // a file or a member: main.go, os.Exit
	}
	upper := 0
	for i, r := range t {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				upper++
			}
		}
	}
	return upper > 0 && t != strings.ToUpper(t) // CamelCase; an acronym is a word
}

// replyRef names one reply of a segment: its turn and its place there
// (journal items have no ID to name them by).
type replyRef struct{ turn, reply int }

// finalReply is the reply the segment ends on, housekeeping aside;
// {-1, -1} when none.
func finalReply(turns []turn) replyRef {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].chore {
			continue
		}
		t := turns[i]
		for j := len(t.replies) - 1; j >= 0; j-- {
			if strings.TrimSpace(t.replies[j].Text) != "" {
				return replyRef{i, j}
			}
		}
		break
	}
	return replyRef{-1, -1}
}

// shortReply bounds a reply read as the answer to the assistant's
// question rather than as a request of its own.
const shortReply = 80

// userDecision marks a user's sentence that states a choice.
var userDecision = phrases(
	"decided", "decide to", "we'll use", "we will use", "we'll go with", "let's go with", "let's use",
	"let's keep", "go with", "agreed", "settled on", "we chose", "i chose", "the decision",
	"we'll keep", "keep it as", "решили", "решено", "будем", "выбрали", "договорились", "остановимся на",
	"используем",
)

// imperativeVerbs open a user's instruction that picks an option.
var imperativeVerbs = wordSet("use", "keep", "switch", "go", "pick", "prefer", "make", "stick", "leave", "don't", "do",
	"используй", "оставь", "сделай", "давай")

func imperative(s sent) bool { return len(s.words) > 0 && imperativeVerbs[s.words[0]] }

// alternative marks the option a choice was made against.
var alternative = phrases("instead of", "rather than", "in favor of", "in favour of", "вместо")

// choiceVerbs open a sentence that reports a choice acted on.
var choiceVerbs = wordSet("used", "chose", "kept", "switched", "went", "picked", "preferred", "opted",
	"выбрал", "выбрали", "оставил", "оставили", "использовал", "использовали")

// opensWithAction: the sentence starts with an action taken ("Used…",
// "We switched…", "I've replaced…").
func opensWithAction(s sent) bool {
	v := s.words
	if len(v) > 0 && doneSubjects[v[0]] {
		v = v[1:]
		if len(v) > 0 && (v[0] == "have" || v[0] == "also") {
			v = v[1:]
		}
	}
	if len(v) > 0 && doneAdverbs[v[0]] {
		v = v[1:]
	}
	return len(v) > 0 && (choiceVerbs[v[0]] || doneVerbs[v[0]])
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
	// Markers of a lesson: a cause found, a limit met. Words that only
	// name a topic or an event ("failed", "permission", "takes",
	// "requires", "because") are not lessons by themselves: measured on
	// the dev sessions, most sentences they picked were descriptions.
	// Failures come from Not done, with the tool's own words.
	lessonMarkers = phrases(
		"the issue is", "the issue was", "the problem is", "the problem was", "root cause", "caused by",
		"the cause", "turns out", "turned out", "the reason is", "the reason was",
		"doesn't support", "does not support", "not supported", "isn't supported", "only works",
		"doesn't work", "does not work", "didn't work", "by default",
		"note that", "the fix was", "the fix is", "the catch", "gotcha", "deprecated",
		"no installer", "is slow", "are slow",
		"потому что", "из-за", "причина", "не работает", "нельзя", "не поддерживает", "оказалось",
	)
	errorName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Z][A-Za-z]*(?:Error|Exception)\b`) })
)

// maxFixed bounds the lessons taken from failures fixed later.
const maxFixed = 3

// learnedList: lessons stated in the dialogue (an error and its cause, a
// limit found), what the assistant lists under a findings heading, what a
// hook said when it blocked a turn, and the failures that were fixed
// later (what went wrong first, in the tool's words).
func learnedList(sc sentenceCache, turns []turn, fixed []string, decided []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range decided {
		seen[d] = true
	}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	final := finalReply(turns)
	for ti, t := range turns {
		if t.chore {
			continue
		}
		for ri, r := range t.replies {
			if (replyRef{ti, ri}) == final || t.superseded {
				continue // shown whole under Final message, or corrected
			}
			n := 0
			for _, s := range sc.of(r.Text) {
				if n >= 2 || isQuestion(s.text) || strings.HasSuffix(s.text, ":") || len(s.words) < 5 || !prose(s, 4, sentenceWords) ||
					planning.prefix(s.words) || filler.prefix(s.words) && len(s.words) < 6 {
					continue
				}
				if lessonMarkers.in(s.words) || errorName().MatchString(s.text) {
					add(stripFiller(s.text))
					n++
				}
			}
		}
		for ri, r := range t.replies {
			if (replyRef{ti, ri}) == final || t.superseded {
				continue
			}
			for _, f := range findings(r.Text) {
				if prose(sent{text: f, words: words(f)}, 4, sentenceWords) {
					add(f)
				}
			}
		}
		for _, w := range t.words {
			if w.Kind == transcript.KindHookFeedback {
				add("a Stop hook blocked the turn: " + w.Text)
			}
		}
	}
	for i, f := range fixed {
		if i == maxFixed {
			break
		}
		add(f)
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
	todoMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:TODO|FIXME|TBD|XXX):\s`) })
	// Markers of a next step, taken only from the reply the segment ends on:
	// earlier ones were usually carried out in the next turn.
	openNext = phrases(
		"next step", "next steps", "let me know", "remaining", "to do next",
		"следующий шаг", "дальше", "осталось",
	)
	// Offers: the assistant proposing more work, which is no work left
	// open until the user takes it up.
	offers = sync.OnceValue(func() phraseList {
		return phrases(
			"would you like", "want me to", "shall i", "should i", "do you want", "if you'd like", "if you want me to",
			"if you want", "i can also", "i could also", "happy to", "i'd be happy", "let me know if you'd like",
			"let me know if you want", "хотите", "могу также", "если хотите",
		)
	})
	// "Let me know…" hands the next step to the user; it is not a plan.
	asksBack = phrases("let me know", "дай знать", "дайте знать")
	// runNext: a closing line that tells the user to run a command
	// ("Run `bd ready` to see available work.").
	runNext = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^(?:Run|Запустите|Выполните) `[^`]+`")
	})
	checkbox = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*[-*]\s+\[ \]\s+(.+)$`) })
)

// openList: what the state shows is open (the last todo list's
// unfinished items no commit or changed file of the segment names, open
// tasks likewise, the newest failure never fixed), the next steps of the
// final message — never an earlier reply's, which the next turn usually
// carried out, never a question to the user, an offer or a completion
// claim — and the last request when it got no answer.
func openList(sc sentenceCache, turns []turn, fromState []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(markupless(s), bulletRunes)
		if b != "" && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, s := range fromState {
		add(s)
	}
	// The reply the segment ends on, housekeeping aside.
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].chore {
			continue
		}
		last, ok := turns[i].answer()
		if !ok {
			break
		}
		ss := sc.of(last.Text)
		for k, s := range ss {
			switch {
			case isQuestion(s.text), offers().in(s.words):
				// A question to the user or an offer of more work is
				// never open work: the user's answer decides.
			case k == len(ss)-1 && runNext().MatchString(s.text):
				// The closing line tells the user which command to run
				// next: the work it leads to is still to do.
				add(s.text)
			case planning.prefix(s.words) && !asksBack.prefix(s.words), strings.HasSuffix(s.text, ":"):
			case isDone(s) && !openStrong.in(s.words):
				// A completion claim is never open work.
			case openStrong.in(s.words), todoMarker().MatchString(s.text), openNext.in(s.words):
				add(s.text)
			}
		}
		for _, m := range checkbox().FindAllStringSubmatch(last.Text, -1) {
			add(m[1])
		}
		break
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
				add("interrupted, not resolved: " + shorten(r, 200))
			case !t.answered(sc):
				add("unanswered: " + shorten(r, 200))
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
