package timeline

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/intent"
)

// A failure a section lists (a Not done item, or an Open "not done: …")
// names an action by the distiller's forms, and a later section closes
// it when it shows the same action succeeded (package intent: a commit
// whatever its message, the same script from another folder, the same
// file written). What a section shows succeeded:
//
//   - Done: a commit, a push, a tag, a pull request, a test run that
//     passed (its runner's every target), a subagent that ran;
//   - Learned: an action whose failures a later attempt fixed ("…: 2
//     attempts failed (…) before one succeeded", "— worked as `…`");
//   - Files and commands: the files changed, the commands run that the
//     same section does not list as failing.
//
// An Open item that names a command (`bd ready`) or a state an action
// ends ("ready to commit", "ready to push") is closed the same way.

// ItemIntent is the action a Not done or Open item speaks of, by
// package intent's names; "" when it names none.
func ItemIntent(item string) string {
	item = Unlabel(strings.TrimSpace(item))
	if t, ok := ParseTests(item); ok {
		return "test " + strings.ToLower(t.Runner)
	}
	label := item
	if i := labelEnd(item); i > 0 {
		label = item[:i]
	}
	label = strings.TrimSuffix(strings.TrimSpace(label), " (subagent)")
	switch {
	case strings.HasPrefix(label, "commit “") || label == "commit":
		return "git commit"
	case label == "git push" || label == "gh pr create" || strings.HasPrefix(label, "git tag "):
		return label
	case strings.HasPrefix(label, "edit `"), strings.HasPrefix(label, "write `"):
		if p := firstCode(label); p != "" {
			return intent.Of("Edit", p, "")
		}
	case strings.HasPrefix(label, "WebFetch `"):
		return intent.Of("WebFetch", firstCode(label), "")
	case strings.HasPrefix(label, "subagent “"):
		d, _, _ := strings.Cut(strings.TrimPrefix(label, "subagent “"), "”")
		return "agent " + d
	case strings.HasPrefix(label, "`"):
		return commandIntent(firstCode(label))
	}
	low := strings.ToLower(item)
	switch {
	case strings.Contains(low, "ready to commit") || strings.Contains(low, "staged and ready"):
		return "git commit"
	case strings.Contains(low, "ready to push") || strings.Contains(low, "ready for `git push`"):
		return "git push"
	}
	if c := firstCode(item); c != "" {
		// A command to run next ("Run `bd ready` to see available work").
		return commandIntent(c)
	}
	return ""
}

// labelEnd is where an item's label ends: at its ": " verb ("`x`:
// failed"), outside code spans and quotes; -1 when it has none.
func labelEnd(item string) int {
	inCode, inQuote := false, false
	for i := 0; i+1 < len(item); i++ {
		switch {
		case item[i] == '`':
			inCode = !inCode
		case strings.HasPrefix(item[i:], "“"):
			inQuote = true
		case strings.HasPrefix(item[i:], "”"):
			inQuote = false
		case item[i] == ':' && item[i+1] == ' ' && !inCode && !inQuote:
			return i
		}
	}
	return -1
}

// commandIntent is the intent of a command as a daily file shows it,
// shortened ("…" at a cut, " …" after a first line).
func commandIntent(c string) string {
	c = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c), "…"))
	return intent.Of("Bash", "", c)
}

// fixedLesson reads a Learned item the distiller writes for a fixed
// failure: its label and, when given, the form that worked.
var fixedLesson = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?): \d+ attempts? (?:failed|rejected by the user|not allowed|blocked by a hook|interrupted)\b.*?(?: before one succeeded| — worked as (.+))$`)
})

// codeSpans are the items of a "label: `a`, `b` ×2, … 3 more" list.
var codeSpans = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("``? ?([^`]+?) ?``?") })

// succeeded is what a section shows succeeded, as intents.
func succeeded(e daily.Entry) []string {
	var out []string
	for _, d := range e.Items(daily.HeadDone) {
		switch {
		case strings.HasPrefix(d, "committed "):
			out = append(out, "git commit")
		case strings.HasPrefix(d, "pushed "):
			out = append(out, "git push")
		case strings.HasPrefix(d, "tagged "):
			out = append(out, "git tag "+strings.Fields(strings.TrimPrefix(d, "tagged "))[0])
		case strings.HasPrefix(d, "opened PR "):
			out = append(out, "gh pr create")
		case strings.HasPrefix(d, "ran subagent “"):
			desc, _, _ := strings.Cut(strings.TrimPrefix(d, "ran subagent “"), "”")
			out = append(out, "agent "+desc)
		default:
			if t, ok := ParseTests(d); ok && t.Green() {
				out = append(out, "test "+strings.ToLower(t.Runner))
			}
		}
	}
	for _, l := range e.Items(daily.HeadLearned) {
		if m := fixedLesson().FindStringSubmatch(l); m != nil {
			if in := ItemIntent(m[1] + ": failed"); in != "" {
				out = append(out, in)
			}
			if m[2] != "" {
				if in := commandIntent(firstCode(m[2])); in != "" {
					out = append(out, in)
				}
			}
		}
	}
	failing := map[string]bool{}
	for _, h := range []string{daily.HeadNotDone, daily.HeadOpen} {
		for _, it := range e.Items(h) {
			if in := ItemIntent(it); in != "" && (h == daily.HeadNotDone || strings.HasPrefix(it, "not done: ")) {
				failing[in] = true
			}
		}
	}
	for _, f := range e.Items(daily.HeadFiles) {
		label, rest, ok := strings.Cut(f, ": ")
		if !ok {
			continue
		}
		for _, m := range codeSpans().FindAllStringSubmatch(rest, -1) {
			switch label {
			case "changed":
				out = append(out, intent.Of("Edit", m[1], ""))
			case "ran":
				// A test run is done by its verdict, not by having run.
				if in := commandIntent(m[1]); in != "" && !failing[in] && !strings.HasPrefix(in, "test ") {
					out = append(out, in)
				}
			}
		}
	}
	return out
}

// closes reports whether one of the successes is the action in names.
func closesIntent(in string, successes []string) bool {
	if in == "" {
		return false
	}
	for _, s := range successes {
		if s == in {
			return true
		}
		if p, ok := strings.CutPrefix(in, "file "); ok {
			if q, ok := strings.CutPrefix(s, "file "); ok && sameFile(p, q) {
				return true
			}
		}
		if r, ok := strings.CutPrefix(s, "test "); ok && strings.HasPrefix(in, "test "+r+" ") {
			return true // a passing run of the runner closes its targets' failures
		}
	}
	return false
}
