package distill

import "github.com/cerebro-mem/cerebro/internal/shortterm/transcript"

// attempt is one try at an action: an edit of a file, a commit, a test
// run of one runner, one kind of command.
type attempt struct {
	key, label string
	status     transcript.Status
	why        string
	sub        bool
}

// history is every attempt of one action, in order.
type history struct {
	label    string
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
	h.label = a.label
	h.attempts = append(h.attempts, a)
	t.n++
	h.last = t.n
}

// refusal: Claude Code or the user did not let the call run.
func refusal(s transcript.Status) bool {
	return s == transcript.StatusRefused || s == transcript.StatusBlocked || s == transcript.StatusRejected
}

// verb says what became of an attempt.
func verb(s transcript.Status) string {
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

func firstFailure(as []attempt) attempt {
	for _, a := range as {
		if a.status != transcript.StatusOK {
			return a
		}
	}
	return as[0]
}
