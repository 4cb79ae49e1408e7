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
}

// Green reports whether the run passed.
func (t Tests) Green() bool { return t.Failed == 0 && (t.Passed > 0 || !t.Counted) }

func (t Tests) String() string {
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

// ParseTests reads a test item: the runner is what comes before the first
// count ("go test", "pytest"); "N passed" and "M failed" may come in
// either order, one of them alone, or neither (a bare "passed"/"failed").
func ParseTests(item string) (Tests, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(item), "tests: ")
	if !ok {
		return Tests{}, false
	}
	f := strings.Fields(rest)
	var t Tests
	runnerEnd := -1
	for i := 0; i+1 < len(f); i++ {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			continue
		}
		switch strings.Trim(f[i+1], ",.;)") {
		case "passed":
			t.Passed, t.Counted = n, true
		case "failed":
			t.Failed, t.Counted = n, true
		default:
			continue
		}
		if runnerEnd < 0 {
			runnerEnd = i
		}
	}
	if runnerEnd < 0 {
		for i, w := range f {
			switch strings.Trim(w, ",.;()") {
			case "passed":
				runnerEnd = i
			case "failed":
				runnerEnd, t.Failed = i, 1
			}
			if runnerEnd >= 0 {
				break
			}
		}
	}
	if runnerEnd <= 0 {
		return Tests{}, false
	}
	t.Runner = strings.Trim(strings.Join(f[:runnerEnd], " "), " :·-")
	return t, t.Runner != ""
}
