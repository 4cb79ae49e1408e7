package distill

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/journal/intent"
)

// verdict is what a test runner printed at the end of a run.
type verdict struct {
	passed, failed int
	// line is the runner's own summary as printed, trimmed of its
	// decoration ("27 passed, 1 skipped in 1.48s"); "" when the counts
	// add up several lines (go test's packages, cargo's test binaries).
	line string
	// packages: go test counts packages, not tests.
	packages bool
	// failing names the tests that failed, as the runner printed them
	// (the first few).
	failing []string
	// runner is the runner whose format the verdict has ("pytest" for
	// "27 passed in 1.48s"): the name of a run whose command names none.
	runner string
}

func (v verdict) ok() bool { return v.failed == 0 }

// counts renders the verdict the way Done lines carry it, for a reader
// to count: "27 passed, 0 failed".
func (v verdict) counts() string {
	if v.packages {
		return plural(v.passed, "package", "packages") + " ok, " + itoa(v.failed) + " failed"
	}
	return itoa(v.passed) + " passed, " + itoa(v.failed) + " failed"
}

var (
	// pytest: "==== 1 failed, 26 passed, 1 skipped in 1.48s ====", and
	// with -q "101 passed in 0.29s"; "1 error in 0.5s".
	pytestLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`((?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+) in [\d.]+s`)
	})
	pytestCount = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\d+) (passed|failed|errors?)`)
	})
	// jest: "Tests:       1 failed, 12 passed, 13 total".
	jestLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*Tests:\s+(.*\d+ total)`) })
	// vitest: "Tests  1 failed | 11 passed (12)".
	vitestLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*Tests\s+((?:\d+ (?:failed|passed|skipped|todo)(?: \| )?)+)\s*\(\d+\)`)
	})
	jsCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) (passed|failed)`) })
	// cargo: "test result: ok. 12 passed; 0 failed; 0 ignored".
	cargoLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed`)
	})
	// ExUnit: "14 doctests, 65 tests, 0 failures" ("1 failure", "3 excluded").
	mixLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^((?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, (\d+) failures?.*)$`)
	})
	// RSpec: "12 examples, 0 failures".
	rspecLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^((\d+) examples?, (\d+) failures?.*)$`) })
	// mocha: "  12 passing (1s)" and "  2 failing".
	mochaPassing = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+(\d+) passing\b`) })
	mochaFailing = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+(\d+) failing\b`) })
	// unittest: "Ran 12 tests in 0.1s" then "OK" or "FAILED (failures=2, errors=1)".
	unittestRan    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Ran (\d+) tests? in`) })
	unittestFailed = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^FAILED \((?:failures=(\d+))?(?:, )?(?:errors=(\d+))?`)
	})
	// go test: a package line each, "ok  \tpkg\t0.1s" or "FAIL\tpkg\t0.2s".
	goOK   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^ok\s+\S+\s`) })
	goFail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^FAIL\s+\S+\s+[\d.]+s|^FAIL\s+\S+\s+\[`) })
)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// failingTest matches the lines runners print for a failed test: pytest's
// "FAILED path::Class::test", go's "--- FAIL: TestX", jest's and
// vitest's "✕ name", ExUnit's "1) test name (Module)", cargo's "test x ...
// FAILED", RSpec's "rspec ./spec/x_spec.rb:3 # name".
var failingTest = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:FAILED ([^\s(]\S*)(?: - .*)?|\s*--- FAIL: (\S+)(?: \([\d.]+s\))?|\s*[✕×] (.+?)(?: \(\d+ ?m?s\))?|\s+\d+\) test (.+?) \([A-Z][\w.]*\)|test (\S+) \.\.\. FAILED|rspec \S+ # (.+))\s*$`)
})

// maxFailing bounds the failed tests named.
const maxFailing = 3

func failingTests(out string) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range failingTest().FindAllStringSubmatch(out, -1) {
		name := firstOf(m[1:])
		if i := strings.LastIndex(name, "::"); i >= 0 && m[1] != "" {
			name = name[i+2:] // pytest's node id: the test's own name
		}
		name = shorten(strings.TrimSpace(name), 60)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if names = append(names, name); len(names) == maxFailing {
			break
		}
	}
	return names
}

func firstOf(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// parseVerdict reads the last verdict a runner printed in out; false when
// out holds none. The format, not the command, decides: a runner called
// through make, a script or a CI emulator prints the same lines.
func parseVerdict(out string) (verdict, bool) {
	v, ok := parseCounts(out)
	if ok && v.failed > 0 {
		v.failing = failingTests(out)
	}
	return v, ok
}

func parseCounts(out string) (verdict, bool) {
	v, ok, runner := parseFormat(out)
	v.runner = runner
	return v, ok
}

// parseFormat reads the last verdict in out and names the runner whose
// format it has.
func parseFormat(out string) (verdict, bool, string) {
	if ms := pytestLine().FindAllStringSubmatch(out, -1); ms != nil {
		m := ms[len(ms)-1]
		v := verdict{line: strings.TrimSpace(m[0])}
		for _, c := range pytestCount().FindAllStringSubmatch(m[1], -1) {
			if c[2] == "passed" {
				v.passed += atoi(c[1])
			} else {
				v.failed += atoi(c[1])
			}
		}
		return v, true, "pytest"
	}
	if ms := mixLine().FindAllStringSubmatch(out, -1); ms != nil {
		m := ms[len(ms)-1]
		total := atoi(m[2]) + atoi(m[3]) + atoi(m[4])
		failed := atoi(m[5])
		return verdict{passed: total - failed, failed: failed, line: strings.TrimSpace(m[1])}, true, "mix test"
	}
	if ms := jestLine().FindAllStringSubmatch(out, -1); ms != nil {
		return jsVerdict(ms[len(ms)-1][1]), true, "jest"
	}
	if ms := vitestLine().FindAllStringSubmatch(out, -1); ms != nil {
		return jsVerdict(ms[len(ms)-1][1]), true, "vitest"
	}
	if ms := cargoLine().FindAllStringSubmatch(out, -1); ms != nil {
		var v verdict
		for _, m := range ms {
			v.passed += atoi(m[1])
			v.failed += atoi(m[2])
		}
		return v, true, "cargo test" // the counts are the sum of every line: no one line to quote
	}
	if ms := rspecLine().FindAllStringSubmatch(out, -1); ms != nil {
		m := ms[len(ms)-1]
		return verdict{passed: atoi(m[2]) - atoi(m[3]), failed: atoi(m[3]), line: strings.TrimSpace(m[1])}, true, "rspec"
	}
	if m := mochaPassing().FindStringSubmatch(out); m != nil {
		v := verdict{passed: atoi(m[1]), line: m[1] + " passing"}
		if f := mochaFailing().FindStringSubmatch(out); f != nil {
			v.failed = atoi(f[1])
			v.line += ", " + f[1] + " failing"
		}
		return v, true, "mocha"
	}
	if m := unittestRan().FindAllStringSubmatch(out, -1); m != nil {
		ran := atoi(m[len(m)-1][1])
		v := verdict{passed: ran, line: "Ran " + m[len(m)-1][1] + " tests: OK"}
		if f := unittestFailed().FindAllStringSubmatch(out, -1); f != nil {
			last := f[len(f)-1]
			v.failed = atoi(last[1]) + atoi(last[2])
			v.passed = ran - v.failed
			v.line = "Ran " + m[len(m)-1][1] + " tests: " + strings.TrimSpace(last[0]) + ")"
		}
		return v, true, "unittest"
	}
	ok, fail := len(goOK().FindAllString(out, -1)), len(goFail().FindAllString(out, -1))
	if ok+fail > 0 {
		return verdict{passed: ok, failed: fail, packages: true}, true, "go test"
	}
	return verdict{}, false, ""
}

func jsVerdict(s string) verdict {
	v := verdict{line: strings.TrimSpace(s)}
	for _, c := range jsCount().FindAllStringSubmatch(s, -1) {
		if c[2] == "passed" {
			v.passed += atoi(c[1])
		} else {
			v.failed += atoi(c[1])
		}
	}
	return v
}

// runnerOf names the test runner a command calls, "" when none is known
// (intent.Runner).
func runnerOf(cmd string) string { return intent.Runner(cmd) }
