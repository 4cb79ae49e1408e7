package distill

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Prompt bounds. The prompt travels as one argv string, which Linux caps
// at 128 KiB, so the dialogue is bounded in bytes as well as in runes.
const (
	maxDialogueRunes = 30000
	maxDialogueBytes = 100 << 10
	maxItemRunes     = 4000
	maxClaudeBullets = 10
	claudeBulletRune = 300
)

const instructions = `You write a short memory note about part of a Claude Code session, for the same developer to read tomorrow morning before continuing the work. The dialogue is below, between <dialogue> tags; tool calls are shown as [tools: ...] lines. What the tool results showed is between <facts> tags: it was read from the tools' own output (git's, the test runner's, Claude Code's), not from the dialogue, and it is the only evidence of what succeeded — the dialogue may claim work that failed or was refused.

Reply with ONLY these markdown subsections, in this order, each a bullet list ("- " lines) of short, specific items; leave out a subsection that would be empty:
### Asked
(what the user asked for, one line per request)
### Done
(only what the facts show succeeded: commits with their hash, test verdicts, pushes; findings the dialogue reached)
### Not done
(what the facts show failed, was refused or rejected and never fixed, with why)
### Decided
(decisions and the reason, if given; options the user picked)
### Learned
(lessons: an error and its cause, a limit found)
### Open
(what is unfinished: the facts' open items, unanswered requests, the next step)
### Files and commands
(files changed or read, commands run, in backticks)

No preamble, no closing remarks, no other headings, no code blocks. Under 2000 characters in total. Never state as done what the facts do not show. Be precise: names of files, functions, commands, numbers. Write in the language of the dialogue. Do not use any tools.`

// modelHeadings are the subsections the model writes; the session's own
// words (the compaction summary, the final message) are added
// as the extractive distiller takes them, never rewritten by a model.
var modelHeadings = []string{daily.HeadAsked, daily.HeadDone, daily.HeadNotDone, daily.HeadDecided, daily.HeadLearned, daily.HeadOpen, daily.HeadFiles}

// Prompt is the request the claude distiller sends: instructions, the
// segment's bounds, and its dialogue (the newest part when it is long).
func Prompt(seg Segment) string {
	var b strings.Builder
	b.WriteString(instructions)
	b.WriteString("\n\n")
	if seg.Project != "" {
		fmt.Fprintf(&b, "Project: %s\n", seg.Project)
	}
	if !seg.Start.IsZero() && !seg.End.IsZero() {
		fmt.Fprintf(&b, "Time: %s – %s\n", seg.Start.Format("2006-01-02 15:04"), seg.End.Format("15:04"))
	}
	b.WriteString("<facts>\n")
	b.WriteString(envelopeSafe(factsText(seg)))
	b.WriteString("</facts>\n")
	b.WriteString("<dialogue>\n")
	b.WriteString(dialogue(seg.Items, seg.Dir))
	b.WriteString("</dialogue>\n")
	return b.String()
}

func envelopeSafe(s string) string {
	return strings.NewReplacer("</dialogue>", "</ dialogue>", "</facts>", "</ facts>", "<facts>", "< facts>").Replace(s)
}

// factsText is what the tool results of the segment show, as the
// extractive distiller reads them.
func factsText(seg Segment) string {
	f := collectFacts(segmentCalls(seg.Items, seg.Subagents), seg.Dir, seg.Cwd)
	var b strings.Builder
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString(head + ":\n")
		for _, it := range items {
			b.WriteString("- " + oneLine(it) + "\n")
		}
	}
	list("Done", f.done)
	list("Not done", f.notDone)
	list("Failed first, then fixed", f.fixed)
	list("Decided (plans, questions, rejections)", f.decided)
	list("Open (state)", f.open)
	list("Files changed", f.changed)
	if b.Len() == 0 {
		return "(no tool results in this part)\n"
	}
	return b.String()
}

// dialogue renders items as USER:/ASSISTANT: blocks, keeping the newest
// ones that fit the budget.
func dialogue(items []transcript.Item, dir string) string {
	blocks := make([]string, 0, len(items))
	runes, size := 0, 0
	omitted := 0
	for i := len(items) - 1; i >= 0; i-- {
		blk := block(items[i], dir)
		r, n := utf8.RuneCountInString(blk), len(blk)
		if runes+r > maxDialogueRunes || size+n > maxDialogueBytes {
			omitted = i + 1
			break
		}
		runes, size = runes+r, size+n
		blocks = append(blocks, blk)
	}
	var b strings.Builder
	if omitted > 0 {
		fmt.Fprintf(&b, "[%d earlier messages omitted]\n\n", omitted)
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		b.WriteString(blocks[i])
	}
	return b.String()
}

func block(it transcript.Item, dir string) string {
	role := "USER"
	if it.Role == transcript.RoleAssistant {
		role = "ASSISTANT"
	}
	text := strings.TrimSpace(it.Text)
	if utf8.RuneCountInString(text) > maxItemRunes {
		text = shorten(text, maxItemRunes)
	}
	// The dialogue must not be able to close its own envelope, nor
	// pass for the facts'.
	text = envelopeSafe(text)
	var b strings.Builder
	b.WriteString(role + ": " + text + "\n")
	if len(it.Tools) > 0 {
		lines := make([]string, len(it.Tools))
		for i, t := range it.Tools {
			lines[i] = transcript.ToolLine(transcript.Tool{Name: t.Name, Target: relPath(t.Target, dir)})
		}
		b.WriteString("[tools: " + envelopeSafe(strings.Join(lines, "; ")) + "]\n")
	}
	b.WriteString("\n")
	return b.String()
}

var (
	fenceLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*(```|~~~)") })
	subHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*###\s+(.+?)\s*:?\s*$`) })
	anyHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*#{1,6}\s`) })
	bulletLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+•]|\d+[.)])\s+`) })
)

// canonical maps a heading as a model may write it to ours.
func canonical(h string) string {
	h = strings.Trim(strings.TrimSpace(h), "*_:")
	for _, want := range daily.Headings {
		if strings.EqualFold(h, want) {
			return want
		}
	}
	return ""
}

// Clean validates and normalises a model's distillate: everything before
// the first known subsection and every code fence go, unknown subsections
// and other headings are dropped, items become "- " bullets, lists and
// bullets are bounded. Output with no known subsection or no items is
// [ErrBadOutput].
func Clean(out string) (string, error) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	bullets := map[string][]string{}
	current := ""
	found := false
	for _, line := range strings.Split(out, "\n") {
		if fenceLine().MatchString(line) {
			continue
		}
		if m := subHeading().FindStringSubmatch(line); m != nil {
			current = canonical(m[1])
			found = found || current != ""
			continue
		}
		if anyHeading().MatchString(line) {
			current = "" // a heading of another level ends the subsection
			continue
		}
		if current == "" || strings.TrimSpace(line) == "" {
			continue
		}
		list := bullets[current]
		isBullet := bulletLine().MatchString(line)
		switch {
		case !isBullet && len(list) > 0 && (line[0] == ' ' || line[0] == '\t'):
			// An indented line continues the bullet above it.
			list[len(list)-1] = safeBullet(list[len(list)-1]+" "+line, claudeBulletRune)
			continue
		case !isBullet && len(list) > 0:
			continue // prose after a list is a closing remark
		case len(list) >= maxClaudeBullets:
			continue
		}
		if item := safeBullet(bulletLine().ReplaceAllString(line, ""), claudeBulletRune); item != "" {
			bullets[current] = append(list, item)
		}
	}
	if !found {
		return "", fmt.Errorf("%w: no ### subsection among %s", ErrBadOutput, strings.Join(daily.Headings, ", "))
	}
	var sections []section
	for _, h := range daily.Headings {
		sections = append(sections, section{head: h, bullets: bullets[h]})
	}
	body := render(fit(sections, maxClaudeBody))
	if body == "" {
		return "", fmt.Errorf("%w: the subsections are empty", ErrBadOutput)
	}
	return body, nil
}

// withOwnWords adds to a model's body the session's own words, as the
// extractive distiller takes them: the compaction summary and the final
// message. A model summarises; these
// are the floor it never takes away.
func withOwnWords(body string, seg Segment) string {
	turns := splitTurns(seg.Items, seg.Desk)
	sc := sentenceCache{}
	sections := parseBody(body)
	for i := range sections {
		switch sections[i].head {
		case daily.HeadBefore:
			sections[i].bullets, sections[i].elastic = beforeCompaction(seg.Items), true
		case daily.HeadFinal:
			sections[i].bullets, sections[i].elastic = finalMessage(sc, turns), true
		}
	}
	return render(fit(sections, maxClaudeBody))
}

// parseBody reads a body back into its sections, in [daily.Headings] order.
func parseBody(body string) []section {
	bullets := map[string][]string{}
	current := ""
	for _, line := range strings.Split(body, "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			current = h
			continue
		}
		if b, ok := strings.CutPrefix(line, "- "); ok && current != "" {
			bullets[current] = append(bullets[current], b)
		}
	}
	var out []section
	for _, h := range daily.Headings {
		out = append(out, section{head: h, bullets: bullets[h]})
	}
	return out
}
