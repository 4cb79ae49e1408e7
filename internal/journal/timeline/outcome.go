package timeline

import (
	"strconv"
	"strings"
)

// Commit is a Done item "committed <hash> <subject>": what git printed
// for a commit that succeeded.
type Commit struct{ Hash, Subject string }

// Tests is a Done, Not done or Open item "tests: <runner> <N passed, M
// failed>": a test run's verdict as its output gave it. Counted says the
// output gave the counts; without them Failed is 1 for a failed run.
type Tests struct {
	Runner         string
	Passed, Failed int
	Counted        bool
	Text           string // the item as written, from "tests"
}

// Green reports whether the run passed.
func (t Tests) Green() bool { return t.Failed == 0 && (t.Passed > 0 || !t.Counted) }

func (t Tests) String() string {
	if t.Text != "" {
		return t.Text
	}
	if !t.Counted {
		if t.Failed > 0 {
			return "tests: " + t.Runner + " failed"
		}
		return "tests: " + t.Runner + " passed"
	}
	return "tests: " + t.Runner + " " + strconv.Itoa(t.Passed) + " passed, " + strconv.Itoa(t.Failed) + " failed"
}

// ParseCommit reads a commit item; the hash is 7 to 40 hex digits.
func ParseCommit(item string) (Commit, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(item), "committed ")
	if !ok {
		return Commit{}, false
	}
	hash, subject, _ := strings.Cut(strings.TrimSpace(rest), " ")
	hash = strings.Trim(hash, "`[]")
	if len(hash) < 7 || len(hash) > 40 || strings.Trim(strings.ToLower(hash), "0123456789abcdef") != "" {
		return Commit{}, false
	}
	return Commit{Hash: hash, Subject: strings.TrimSpace(subject)}, true
}

// ParseTests reads a test item, "tests: <runner> <verdict>" (Done or Not
// done) or "tests failing: <runner> <verdict>" (Open): the runner is what
// comes before the verdict; the verdict starts "N passed, M failed" (or
// "N packages ok, M failed", go test's), either count alone, or a bare
// "passed"/"failed"; what follows it (the runner's own line in
// parentheses, the failing tests' names, earlier runs) is not read.
func ParseTests(item string) (Tests, bool) {
	item = Unlabel(item)
	rest, ok := strings.CutPrefix(item, "tests: ")
	failing := false
	if !ok {
		if rest, ok = strings.CutPrefix(item, "tests failing: "); !ok {
			return Tests{}, false
		}
		failing = true
	}
	f := strings.Fields(rest)
	var t Tests
	start := -1
	for i := 0; i < len(f); i++ {
		if start >= 0 && strings.ContainsAny(f[i-1], "(;:") {
			break // past the counts
		}
		n, err := strconv.Atoi(f[i])
		if err != nil || i+1 >= len(f) {
			if start < 0 {
				switch strings.Trim(f[i], ",.;()") {
				case "passed":
					start = i
				case "failed":
					start, t.Failed = i, 1
				}
				if start >= 0 {
					break
				}
			}
			continue
		}
		word := strings.Trim(f[i+1], ",.;():")
		switch {
		case word == "passed":
			t.Passed, t.Counted = n, true
		case word == "failed":
			t.Failed, t.Counted = n, true
		case (word == "packages" || word == "package") && i+2 < len(f) && strings.Trim(f[i+2], ",.;():") == "ok":
			t.Passed, t.Counted = n, true
		default:
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start <= 0 {
		return Tests{}, false
	}
	t.Runner = strings.Trim(strings.Join(f[:start], " "), " :·-")
	if failing && t.Failed == 0 {
		t.Failed = 1
	}
	t.Text = item
	return t, t.Runner != ""
}

// labels are the prefixes the distillers put on Open items to say what
// kind of open work they are ("todo: ", "in progress: ", "not done: "
// for the newest failure never fixed); the work itself follows.
var labels = []string{"todo: ", "in progress: ", "not done: "}

// Unlabel is an item without its kind's labels.
func Unlabel(item string) string {
	item = strings.TrimSpace(item)
	for again := true; again; {
		again = false
		for _, l := range labels {
			if rest, ok := strings.CutPrefix(item, l); ok {
				item, again = strings.TrimSpace(rest), true
			}
		}
	}
	return item
}
