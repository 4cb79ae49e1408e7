package distill

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// attempt is one try at an action: an edit of a file, a commit, one
// intent of a command (see package intent).
type attempt struct {
	key, label string
	status     transcript.Status
	why        string
	sub        bool
}

// Action is every attempt a segment made at one intent (package intent:
// the same file written, a commit whatever its message, the same script
// from another folder), reported by its last outcome. It is what the
// distillate's Not done and Learned say of an action, and what a
// reminder before a later tool call can say of it: the failure last time
// and the form that worked.
type Action struct {
	// Intent names the action (intent.Of's name, or the distiller's for
	// calls that have none: "read <path>", "agent <description>").
	Intent string
	// Label is how the distillate names the action: its newest attempt's
	// command or "edit `path`".
	Label string
	// Done: the newest attempt succeeded.
	Done bool
	// Status is the newest attempt's.
	Status transcript.Status
	// Attempts counts every attempt; Failures the failed ones that
	// count: before the newest success when Done, since it otherwise.
	Attempts, Failures int
	// FirstError is the first failure's words (why), NewestError the
	// newest failure's; FirstFailed is how the first failed attempt
	// was made (its label).
	FirstError, NewestError, FirstFailed string
	// Worked is the form that succeeded, when it differs from the first
	// failed one ("`cd assets && node build.js`"); "" otherwise.
	Worked string
	// Subagent: the newest attempt was a subagent's.
	Subagent bool
	// fixedBefore counts failures an earlier success fixed, when a later
	// attempt failed again.
	fixedBefore int
	firstStatus transcript.Status
	// last orders actions by their newest attempt.
	last int
}

// history is every attempt of one action, in order.
type history struct {
	attempts []attempt
	last     int // position of its newest attempt among all attempts
}

type tracker struct {
	order []string
	by    map[string]*history
	n     int
}

func (t *tracker) add(a attempt) {
	if t.by == nil {
		t.by = map[string]*history{}
	}
	h, ok := t.by[a.key]
	if !ok {
		h = &history{}
		t.by[a.key] = h
		t.order = append(t.order, a.key)
	}
	h.attempts = append(h.attempts, a)
	t.n++
	h.last = t.n
}

// actions are the tracked actions, in the order of their newest attempt.
func (t *tracker) actions() []Action {
	var out []Action
	for _, k := range t.order {
		out = append(out, t.by[k].action(k))
	}
	for i := 1; i < len(out); i++ { // insertion sort: stable, short lists
		for j := i; j > 0 && out[j].last < out[j-1].last; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (h *history) action(key string) Action {
	as := h.attempts
	last := as[len(as)-1]
	a := Action{Intent: key, Label: last.label, Status: last.status, Done: last.status == transcript.StatusOK,
		Attempts: len(as), Subagent: last.sub, last: h.last}
	// A failure followed by a success was fixed; the failures since the
	// newest success are where an unfixed action stands.
	for i := len(as) - 1; i >= 0; i-- {
		ok := as[i].status == transcript.StatusOK
		if ok && !a.Done {
			break
		}
		if !ok {
			a.Failures++
		}
	}
	first := -1
	for i, x := range as {
		if x.status != transcript.StatusOK {
			first = i
			break
		}
	}
	if first < 0 {
		return a
	}
	a.FirstError, a.FirstFailed, a.firstStatus = as[first].why, as[first].label, as[first].status
	for i := len(as) - 1; i >= 0; i-- {
		if as[i].status != transcript.StatusOK {
			a.NewestError = as[i].why
			break
		}
	}
	if a.Done && last.label != as[first].label && strings.HasPrefix(last.label, "`") {
		a.Worked = last.label
	}
	if !a.Done {
		a.fixedBefore = fixedBefore(as)
	}
	return a
}

// fixed is the lesson an action's fixed failures teach: what went wrong
// first, in the tool's words, and the form that worked when it differs.
func (a Action) fixed(failures int) string {
	s := a.FirstFailed + ": " + plural(failures, "attempt", "attempts") + " " + verbOf(a.firstStatus) + quoteWhy(a.FirstError)
	if a.Worked != "" && failures > 0 {
		return s + " — worked as " + a.Worked
	}
	return s + " before one succeeded"
}

// notDone is the Not done line of an action whose newest attempt did not
// succeed: the newest failure's words, the count.
func (a Action) notDone() string {
	line := a.Label + ": " + verbOf(a.Status) + quoteWhy(a.NewestError)
	if a.Failures > 1 {
		line += " (" + plural(a.Failures, "attempt", "attempts") + ")"
	}
	return line
}

// refusal: Claude Code or the user did not let the call run.
func refusal(s transcript.Status) bool {
	return s == transcript.StatusRefused || s == transcript.StatusBlocked || s == transcript.StatusRejected
}

// verbOf says what became of an attempt.
func verbOf(s transcript.Status) string {
	switch s {
	case transcript.StatusRejected:
		return "rejected by the user"
	case transcript.StatusRefused:
		return "not allowed"
	case transcript.StatusBlocked:
		return "blocked by a hook"
	case transcript.StatusInterrupted:
		return "interrupted"
	}
	return "failed"
}

func quoteWhy(w string) string {
	if w == "" {
		return ""
	}
	return " (" + w + ")"
}

// fixedBefore counts the failed attempts before the newest success (0:
// none, or no success).
func fixedBefore(as []attempt) int {
	ok := -1
	for i, a := range as {
		if a.status == transcript.StatusOK {
			ok = i
		}
	}
	n := 0
	for _, a := range as[:max(ok, 0)] {
		if a.status != transcript.StatusOK {
			n++
		}
	}
	return n
}

// Actions are a segment's actions, each its attempts grouped by intent
// and reported by its last outcome, in the order of their newest attempt
// (test runs are followed per runner, as the distillate's Done says them).
func Actions(seg Segment) []Action {
	return collectFacts(segmentCalls(seg.Items, seg.Subagents), seg.Dir, seg.Cwd).actions
}
