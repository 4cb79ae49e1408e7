package distill

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// The session's own words: its requests, its final message and Claude
// Code's summary before a compaction. They are the floor a distillate
// never falls under (design §0.7): kept whole where they fit,
// bounded where they do not, never rewritten.

// Bounds of the session's own words.
const (
	askRunes     = 1500 // one request
	finalRunes   = 1500 // the final message
	summaryRunes = 1500 // the compaction summary
	lineRunes    = 400  // one line of the final message or the summary
)

// answerRunes bounds the answer a request got, shown under it.
const answerRunes = 1000

// askedList lists each request whole up to askRunes, with the answer it
// got under it (the opening of the turn's closing reply, its summary
// when it has one) — except for the request the final message answers,
// which is shown whole below, and for a turn where an action failed or
// was refused: there Not done tells what happened, and the reply's
// account of it is not repeated.
func askedList(sc sentenceCache, turns []turn, final replyRef) []string {
	type asked struct{ request, answer string }
	var all []asked
	seen := map[string]bool{}
	for ti, t := range turns {
		if t.ask == nil {
			// Replies before the segment's first prompt answer a request
			// an earlier section holds (a flush fell between the two).
			if ans, ok := t.answer(); ok && ti != final.turn && !t.stumbled() && !t.superseded && statesSomething(sc, ans.Text) {
				all = append(all, asked{request: timeline.AskedBefore, answer: answerOf(sc, ans.Text)})
			}
			continue
		}
		r := t.request()
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		a := asked{request: safeBullet(r, askRunes)}
		if ans, ok := t.answer(); ok && ti != final.turn && !t.stumbled() && !t.superseded {
			a.answer = answerOf(sc, ans.Text)
		}
		all = append(all, a)
	}
	if len(all) > maxAsked {
		// The goal and the newest requests; a note for the middle.
		kept := append([]asked{all[0], {request: "… " + itoa(len(all)-maxAsked+1) + " more requests left out"}}, all[len(all)-maxAsked+2:]...)
		all = kept
	}
	var out []string
	for _, a := range all {
		out = append(out, a.request)
		if a.answer != "" {
			out = append(out, nested+"answer: "+a.answer)
		}
	}
	return out
}

// nested marks a bullet rendered under the one before it.
const nested = "\t"

// outlineRunes bounds the outline a long answer keeps after its opening.
const outlineRunes = answerRunes * 2 / 5

// answerOf is what a reply answered, on one line: what follows its
// summary heading when it has one, else its opening; markup dropped. A
// reply longer than the bound keeps, after a shorter opening, its own
// outline: the run-in heads past the opening ("2. The 10th week is
// ambiguous, on purpose."), where a structured reply puts each point it
// makes.
func answerOf(sc sentenceCache, text string) string {
	if loc := conclusionHeading().FindStringIndex(text); loc != nil && strings.TrimSpace(text[loc[1]:]) != "" {
		text = text[loc[1]:]
	}
	whole := safeBullet(strings.Join(textLines(text, answerRunes), " "), answerRunes)
	if utf8.RuneCountInString(strings.Join(strings.Fields(text), " ")) <= answerRunes {
		return whole
	}
	heads := outline(text)
	size := 0
	for _, h := range heads {
		size += utf8.RuneCountInString(h.text) + len(outlineSep)
	}
	size = min(size, outlineRunes)
	opening := strings.TrimRight(safeBullet(strings.Join(textLines(text, answerRunes-size), " "), answerRunes-size), " …")
	var kept []string
	for _, h := range heads {
		if !strings.Contains(opening, h.lead) {
			kept = append(kept, h.text)
		}
	}
	if len(kept) == 0 {
		return whole
	}
	return safeBullet(opening+outlineSep+strings.Join(kept, outlineSep), answerRunes)
}

const outlineSep = " … "

// outline is a reply's run-in heads past its first line: the bold words
// a paragraph opens with, markup dropped. A heading or a list item's bold
// is not one: the first titles a part, the second is a point of a list
// the opening already shows the kind of. A head of a word or three
// ("Language.") keeps the sentence after it, which says what it leads to.
func outline(text string) []head {
	text = codeFence().ReplaceAllString(text, "\n")
	var out []head
	for i, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if i == 0 {
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "**")
		if !ok {
			continue
		}
		lead, after, ok := strings.Cut(rest, "**")
		lead, after = markupless(lead), markupless(after)
		if !ok || lead == "" || strings.HasSuffix(lead, ":") && after == "" {
			continue // a list's introduction says nothing by itself
		}
		h := head{lead: lead, text: lead}
		if len(words(lead)) < 4 {
			if ss := sentences(strings.TrimLeft(after, ":—– ")); len(ss) > 0 {
				h.text += " " + ss[0]
			}
		}
		h.text = shorten(h.text, headRunes)
		out = append(out, h)
	}
	return out
}

// headRunes bounds one run-in head with its sentence.
const headRunes = 200

// head is a run-in head: its bold words and the text kept of it.
type head struct{ lead, text string }

// finalMessage is the reply the segment ends on (housekeeping aside), as
// lines: what the session said of itself last. A reply that only says
// what it is about to do ("Let me check the workflow.") is not one: Open
// then says the request went unanswered.
func finalMessage(sc sentenceCache, turns []turn) []string {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].chore {
			continue
		}
		if ans, ok := turns[i].answer(); ok && statesSomething(sc, ans.Text) {
			return textLines(ans.Text, finalRunes)
		}
		return nil
	}
	return nil
}

// statesSomething: a sentence of text is more than a plan.
func statesSomething(sc sentenceCache, text string) bool {
	for _, s := range sc.of(text) {
		if len(s.words) > 0 && !planning.prefix(s.words) {
			return true
		}
	}
	return false
}

// beforeCompaction is Claude Code's summary of what a compaction
// replaced, bounded: the parts a reader resumes from (the request, what is
// pending, the current work, the next step) first when the summary has
// Claude Code's usual numbered parts, else its head.
func beforeCompaction(items []transcript.Item) []string {
	var summary string
	for _, it := range items {
		if it.Kind == transcript.KindCompactSummary {
			summary = it.Text // the newest compaction's
		}
	}
	if strings.TrimSpace(summary) == "" {
		return nil
	}
	// The model's own analysis comes before "Summary:" in some versions;
	// the summary proper is after it.
	if i := summaryStart().FindStringIndex(summary); i != nil {
		summary = summary[i[1]:]
	}
	parts := summaryParts(summary)
	if len(parts) == 0 {
		return textLines(summary, summaryRunes)
	}
	var picked []string
	for _, want := range []string{"primary request", "pending", "current work", "next step"} {
		for _, p := range parts {
			if strings.Contains(strings.ToLower(p.title), want) {
				picked = append(picked, p.title+": "+oneLine(markupless(p.body)))
			}
		}
	}
	if len(picked) == 0 {
		return textLines(summary, summaryRunes)
	}
	return fitLines(picked, summaryRunes, lineRunes*2)
}

var (
	summaryStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Summary:\s*`) })
	// "1. Primary Request and Intent:" — the numbered parts of Claude
	// Code's compaction summary.
	summaryHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*\d+\.\s+\**([A-Z][A-Za-z ,/&'-]{2,60}?)\**:?\**\s*$`)
	})
)

type part struct{ title, body string }

func summaryParts(s string) []part {
	locs := summaryHead().FindAllStringSubmatchIndex(s, -1)
	var out []part
	for i, l := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, part{title: strings.TrimSpace(s[l[2]:l[3]]), body: strings.TrimSpace(s[l[1]:end])})
	}
	return out
}

// textLines turns a message into bullets: one per paragraph, list item
// or table row, markup dropped (code blocks, emphasis, heading marks,
// table rules), within limit runes in all.
func textLines(text string, limit int) []string {
	text = codeFence().ReplaceAllString(text, "\n")
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "|"):
			// A table row: its cells; the rule under the header goes.
			cells := strings.Split(strings.Trim(t, "|"), "|")
			var kept []string
			for _, c := range cells {
				c = strings.TrimSpace(c)
				if c != "" && strings.Trim(c, "-: ") != "" {
					kept = append(kept, c)
				}
			}
			if len(kept) == 0 {
				continue
			}
			t = strings.Join(kept, " · ")
		case strings.Trim(t, "-*_= ") == "":
			continue // a rule
		}
		t = markupless(t)
		if t != "" {
			lines = append(lines, t)
		}
	}
	return fitLines(lines, limit, lineRunes)
}

// markupless drops Markdown's marks from one line: heading and list
// markers, emphasis, a link's target (its text stays), HTML tags outside
// code spans.
func markupless(s string) string {
	s = heading().ReplaceAllString(s, "")
	s = listMarker().ReplaceAllString(s, "")
	s = emphasis.Replace(s)
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		// Outside code spans only: `<details>` is a name, not markup.
		parts[i] = mdLink().ReplaceAllString(parts[i], "$1")
		parts[i] = htmlTag().ReplaceAllString(parts[i], "")
	}
	return oneLine(strings.Join(parts, "`"))
}

var (
	htmlTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>`) })
	mdLink  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]\n]+)\]\([^)\s]+\)`) })
)

// fitLines keeps lines in order, each within per runes, until limit runes
// are spent; the line that crosses the limit is cut to what is left.
func fitLines(lines []string, limit, per int) []string {
	var out []string
	left := limit
	for _, l := range lines {
		if left < 40 {
			out = append(out, "…")
			break
		}
		b := safeBullet(l, min(per, left))
		out = append(out, b)
		left -= utf8.RuneCountInString(b)
	}
	return out
}
