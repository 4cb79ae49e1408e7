package lessons

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/intent"
	"github.com/cerebro-mem/cerebro/internal/text/inert"
	"github.com/tidwall/gjson"
)

// MaxContext bounds a reminder, fence and citation included.
const MaxContext = 300

// maxCommand bounds the part of a command read for its intent: a 10 MB
// command costs the hook what a short one does.
const maxCommand = 16 << 10

// Call is a tool call as a hook gets it.
type Call struct {
	Tool    string
	Target  string // the file of a file tool
	Command string // the shell command of Bash
	Error   string // PostToolUseFailure: what the tool said
}

// CallOf reads a tool call from a hook's raw input.
func CallOf(raw []byte) Call {
	v := gjson.ParseBytes(raw)
	c := Call{Tool: v.Get("tool_name").String(), Error: v.Get("error").String()}
	in := v.Get("tool_input")
	c.Command = cut(in.Get("command").String(), maxCommand)
	c.Target = in.Get("file_path").String()
	if c.Target == "" {
		c.Target = in.Get("notebook_path").String()
	}
	c.Target = cut(c.Target, 4096)
	c.Error = cut(c.Error, 4096)
	return c
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Keys are the intents a call acts on, as lessons name them: every step
// of a shell command that acts, the file of a file tool relative to the
// project root.
func (c Call) Keys(root string) []string {
	switch c.Tool {
	case "Bash", "PowerShell":
		return intent.Steps(c.Command)
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		if k := intent.Of(c.Tool, relTo(root, c.Target), ""); k != "" {
			return []string{k}
		}
	}
	return nil
}

// KeyIn is an intent as the lessons of the project at root name it: a
// file under the root by its path from the root.
func KeyIn(root, key string) string {
	if p, ok := strings.CutPrefix(key, "file "); ok {
		return "file " + relTo(root, p)
	}
	return key
}

func relTo(root, p string) string {
	if root == "" || !filepath.IsAbs(p) {
		return p
	}
	if r, err := filepath.Rel(root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return p
}

// Match is the lesson a call runs into, if any: the first of its keys that
// has a lesson, in the order of the steps.
func (f File) Match(root string, c Call) (Lesson, bool) {
	for _, k := range c.Keys(root) {
		if l, ok := f.Find(k); ok {
			return l, true
		}
	}
	return Lesson{}, false
}

// Reminder is the recalled-memory block of a lesson before a call of its
// form (or, with again, right after the call failed once more): at most
// MaxContext characters, its text made inert so that nothing in a lesson
// a repository wrote can close the block or pose as anything but memory.
func Reminder(l Lesson, again bool) string {
	open := "<memory kind=\"lesson\" source=" + inert.Attr(cut(l.Source, 120)) + " date=" + inert.Attr(l.Date) + ">\n"
	end := "\n</memory>"
	var say string
	switch {
	case again && l.Kind == KindFix:
		say = "This failed before too. What worked then: `" + l.Worked + "` (last time `" + l.Failed + "` failed" + because(l.Error) + ")."
	case l.Kind == KindFix:
		say = "Last time `" + l.Failed + "` failed" + because(l.Error) + "; what worked: `" + l.Worked + "`."
	case l.Kind == KindRefused:
		say = "Last time `" + l.Failed + "` was refused" + because(l.Error) + "."
	default:
		say = "Last time `" + l.Failed + "` failed" + because(l.Error) + "; no fix recorded."
	}
	room := MaxContext - utf8.RuneCountInString(open) - utf8.RuneCountInString(end)
	body := inert.Text(say)
	if utf8.RuneCountInString(body) > room {
		body = inert.Text(fitRunes(say, room))
		for utf8.RuneCountInString(body) > room && body != "" {
			// Escaping lengthened it: cut the source text more.
			say = fitRunes(say, utf8.RuneCountInString(say)-8)
			body = inert.Text(say)
		}
	}
	return open + body + end
}

func because(e string) string {
	if e == "" {
		return ""
	}
	return ": " + e
}

// fitRunes cuts s to n runes, an ellipsis marking the cut.
func fitRunes(s string, n int) string {
	if n <= 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Rule is a lesson the person chose to enforce.
type Rule struct {
	Decision string // "deny" or "ask"
	Key      string
}

// Rules reads lessons.enforce ("deny git push", "ask run deploy.sh"); an
// entry that is neither is skipped, and "allow" is never one: the
// enforcement only narrows what Claude Code would do.
func Rules(enforce []string) []Rule {
	var out []Rule
	for _, e := range enforce {
		d, k, ok := strings.Cut(strings.TrimSpace(e), " ")
		k = strings.TrimSpace(k)
		if !ok || k == "" || d != "deny" && d != "ask" {
			continue
		}
		out = append(out, Rule{Decision: d, Key: k})
	}
	return out
}

// Enforced is the rule among rules a call falls under, deny before ask.
func Enforced(rules []Rule, root string, c Call) (Rule, bool) {
	var found Rule
	for _, k := range c.Keys(root) {
		for _, r := range rules {
			if r.Key == k && (found.Key == "" || r.Decision == "deny" && found.Decision == "ask") {
				found = r
			}
		}
	}
	return found, found.Key != ""
}

// Reason is what an enforced rule tells Claude Code and the person.
func Reason(r Rule, l Lesson, known bool) string {
	s := "cerebro: your setting lessons.enforce says " + r.Decision + " for `" + r.Key + "`"
	if known {
		// The lesson's words come from a file a repository may have
		// written: inert, like every recalled text.
		s += ". Lesson (" + l.Date + ", " + l.Source + "): " + inert.Text(l.Text())
	}
	return fitRunes(s, 600)
}
