package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func quote(s string) string { return "“" + shorten(oneLine(s), 100) + "”" }

// plainResult is a result's text without the "Exit code" line.
func plainResult(r *transcript.Result) string {
	if r == nil {
		return ""
	}
	t := strings.TrimSpace(r.Text)
	if strings.HasPrefix(t, "Exit code ") {
		if _, rest, ok := strings.Cut(t, "\n"); ok {
			t = rest
		} else {
			t = ""
		}
	}
	return t
}

// errorWords mark the line of an output that says what went wrong.
var errorWords = []string{"error", "fatal", "failed", "failure", "exception", "not found", "denied", "refused",
	"cannot", "can't", "could not", "couldn't", "no such", "unable", "invalid", "rejected", "traceback", "panic"}

// why is the first meaningful line of a failed call's output: the user's
// reason for a rejection, the refusal's own words, the first line naming
// an error.
func why(r *transcript.Result) string {
	w := whyLine(r)
	if strings.Count(w, "`")%2 == 1 {
		// Cut inside a code span: an open backtick would run on into
		// the rest of the daily file.
		w = strings.ReplaceAll(w, "`", "")
	}
	return w
}

func whyLine(r *transcript.Result) string {
	if r == nil || r.Status == transcript.StatusOK {
		return ""
	}
	switch r.Status {
	case transcript.StatusRejected:
		if r.Reason != "" {
			return "“" + shorten(oneLine(r.Reason), 120) + "”"
		}
		return ""
	case transcript.StatusInterrupted:
		return ""
	case transcript.StatusBlocked, transcript.StatusRefused:
		t := oneLine(plainResult(r))
		if i := strings.LastIndex(t, "\": "); i >= 0 && r.Status == transcript.StatusBlocked {
			t = t[i+3:]
		}
		if i := strings.Index(t, ". "); i > 0 {
			t = t[:i+1]
		}
		return shorten(t, 140)
	}
	lines := strings.Split(plainResult(r), "\n")
	// A traceback names its error last ("ModuleNotFoundError: No module
	// named 'x'"); its first line says only that one follows.
	if strings.Contains(r.Text, "Traceback (most recent call last)") {
		for i := len(lines) - 1; i >= 0; i-- {
			if exceptionLine().MatchString(lines[i]) {
				return shorten(oneLine(lines[i]), 140)
			}
		}
	}
	for _, l := range lines {
		low := strings.ToLower(l)
		for _, w := range errorWords {
			if strings.Contains(low, w) {
				return shorten(oneLine(l), 140)
			}
		}
	}
	for _, l := range lines {
		if l = oneLine(l); l != "" {
			return shorten(l, 140)
		}
	}
	if r.Exit != 0 {
		return "exit code " + itoa(r.Exit)
	}
	return ""
}

var exceptionLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b.*`)
})

// display shows a path relative to the project root or the session's
// working directory when it lies under one.
func display(p, dir, cwd string) string {
	if rel := relPath(p, dir); rel != p {
		return rel
	}
	return relPath(p, cwd)
}
