package distill

import (
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/intent"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// shellFact is what one shell call showed.
type shellFact struct {
	commits []commit
	quiet   []string // subjects of -q commits that exited 0, hash not printed
	pushed  *push
	tags    []string
	pr      string
	run     *testRun
}

// testRun is one run of a test runner.
type testRun struct {
	runner  string
	verdict verdict
	has     bool // a verdict was printed
	ok      bool
	failed  int      // earlier runs of the runner that failed
	names   []string // the tests those runs named as failed
}

// shell reads one shell call: what it did and the attempts it made.
func shell(c call, cmd, key string) (shellFact, []attempt) {
	var sf shellFact
	var acts []attempt
	r := c.Result
	out := r.Text
	ok := r.OK()
	fail := func(a attempt) attempt {
		a.status = r.Status
		if a.status == transcript.StatusOK {
			a.status = transcript.StatusFailed
		}
		a.why = why(r)
		a.sub = c.sub
		return a
	}
	notable := false
	runs := gitRuns(cmd)
	for _, g := range runs {
		switch g.sub {
		case "commit":
			notable = true
			msg := subject(commitMessage(g.args))
			l := "commit"
			if msg != "" {
				l += " " + quote(msg)
			}
			a := attempt{key: "git commit", label: l, status: transcript.StatusOK, sub: c.sub}
			lines := commitLines(out)
			switch {
			case len(lines) > 0:
				for _, cl := range lines {
					cl.amend = strings.Contains(g.args, "--amend")
					sf.commits = append(sf.commits, cl)
				}
			case ok && strings.Contains(" "+firstCommand(g.args)+" ", " -q ") || ok && strings.Contains(g.args, "--quiet"):
				if msg != "" {
					sf.quiet = append(sf.quiet, msg)
				}
			case strings.Contains(out, "nothing to commit") || strings.Contains(out, "nothing added to commit"):
				continue // nothing to do is not a failure of the work
			case ok:
				// Exit 0 and no commit line: output cut, or a commit
				// through a wrapper that hides it; said as such.
				if msg != "" {
					sf.quiet = append(sf.quiet, msg)
				}
			default:
				a = fail(a)
			}
			acts = append(acts, a)
		case "push":
			notable = true
			p := pushLines(out)
			a := attempt{key: "git push", label: "git push", status: transcript.StatusOK, sub: c.sub}
			switch {
			case len(p.refs) > 0:
				sf.pushed = &p
			case ok:
				if strings.Contains(out, "Everything up-to-date") {
					break
				}
				p.refs = []string{pushArgs(g.args)}
				sf.pushed = &p
			default:
				a = fail(a)
			}
			acts = append(acts, a)
		case "tag":
			if name := tagArgs(g.args); name != "" {
				notable = true
				a := attempt{key: "git tag " + name, label: "git tag " + name, status: transcript.StatusOK, sub: c.sub}
				if ok {
					sf.tags = append(sf.tags, name)
				} else {
					a = fail(a)
				}
				acts = append(acts, a)
			}
		}
	}
	if ghCreate().MatchString(cmd) {
		notable = true
		a := attempt{key: "gh pr create", label: "gh pr create", status: transcript.StatusOK, sub: c.sub}
		if u := prURL().FindString(out); u != "" && ok {
			sf.pr = u
		} else if !ok {
			a = fail(a)
		}
		acts = append(acts, a)
	}
	runner := runnerOf(cmd)
	v, has := verdict{}, false
	if r.Status == transcript.StatusOK || r.Status == transcript.StatusFailed {
		v, has = parseVerdict(out)
	}
	if runner != "" || has && key != "" {
		notable = true
		// A command that names no runner (a script written by a
		// here-document, then run) is named by its verdict's format,
		// so that its runs and the runner's own are one test run.
		name := runner
		if name == "" && has {
			name = v.runner
		}
		if name == "" {
			name = key
		}
		// The verdict the runner printed decides, whatever the exit
		// code says: a run piped to tail exits with tail's status.
		passed := has && v.ok() || !has && ok
		// Test runs are followed per runner (collectFacts), not as
		// attempts: their newest verdict is where they stand.
		sf.run = &testRun{runner: name, verdict: v, has: has, ok: passed}
	}
	// The command's other steps, each by its intent: a success is a
	// success of every step; a failure, of the step it leads to (the
	// last), unless a commit, a push or a test run in it already says
	// what failed.
	var steps []string
	for _, in := range intent.Steps(cmd) {
		if !strings.HasPrefix(in, "test ") && !handled(in) {
			steps = append(steps, in)
		}
	}
	l := codeSpan(command(cmd))
	switch {
	case ok:
		for _, in := range steps {
			acts = append(acts, attempt{key: in, label: l, status: transcript.StatusOK, sub: c.sub})
		}
	case notable, c.sub:
		// A subagent's failures count when they are writes, commits,
		// pushes or tests: its other commands are its own trials.
	case len(steps) > 0:
		acts = append(acts, fail(attempt{key: steps[len(steps)-1], label: l}))
	case refusal(r.Status):
		// Even a command that only looks matters when it was not
		// allowed: what the session could not see.
		acts = append(acts, fail(attempt{key: "cmd " + cmd, label: l}))
	}
	return sf, acts
}

// handled reports the intents a shell call's commit, push and pull
// request stand for: their attempts are made where git's and gh's
// output is read.
func handled(in string) bool { return in == "git commit" || in == "git push" || in == "gh pr create" }

func recordTest(tests map[string]*testRun, order *[]string, runner string, v verdict, has, ok bool) {
	t, seen := tests[runner]
	if !seen {
		t = &testRun{runner: runner}
		tests[runner] = t
		*order = append(*order, runner)
	} else {
		if !t.ok {
			t.failed++
			for _, n := range t.verdict.failing {
				if len(t.names) < maxFailing && !slices.Contains(t.names, n) {
					t.names = append(t.names, n)
				}
			}
		}
		// The runner's newest run is where it stands.
		for i, n := range *order {
			if n == runner {
				*order = append(append((*order)[:i:i], (*order)[i+1:]...), runner)
				break
			}
		}
	}
	t.verdict, t.has, t.ok = v, has, ok
}

func (t *testRun) verdictText() string {
	if !t.has {
		if t.ok {
			return "passed (exit 0, no counts printed)"
		}
		return "failed (no counts printed)"
	}
	s := t.verdict.counts()
	if t.verdict.line != "" {
		s += " (" + t.verdict.line + ")"
	}
	if !t.ok && len(t.verdict.failing) > 0 {
		s += ": " + strings.Join(t.verdict.failing, ", ")
	}
	return s
}

// runnerName names the run a background command made.
func runnerName(cmd string) string {
	if r := runnerOf(cmd); r != "" {
		return r
	}
	if k := commandKey(cmd); k != "" {
		return k
	}
	return command(cmd)
}

func hasGit(cmd, sub string) bool {
	for _, g := range gitRuns(cmd) {
		if g.sub == sub {
			return true
		}
	}
	return false
}

// rewritten gives each commit the hash a later git log shows for its
// subject, when that differs (history rewritten since).
func rewritten(cs []commit, logs []string) []commit {
	out := make([]commit, 0, len(cs))
	for _, c := range cs {
		if h := latestHash(logs, c.subject); h != "" && !strings.HasPrefix(h, c.hash) && !strings.HasPrefix(c.hash, h) {
			c.was, c.hash = c.hash, h
		}
		out = append(out, c)
	}
	return out
}

// latestHash is the hash the newest git log output gives subject.
func latestHash(logs []string, subject string) string {
	for i := len(logs) - 1; i >= 0; i-- {
		if h, ok := logged(logs[i])[subject]; ok {
			return h
		}
	}
	return ""
}

func commitLine(c commit) string {
	h := c.hash
	if len(h) > 7 {
		h = h[:7]
	}
	s := "committed " + h + " " + c.subject
	if c.amend {
		s += " (amended)"
	}
	if c.was != "" {
		w := c.was
		if len(w) > 7 {
			w = w[:7]
		}
		s += " (first " + w + ", rewritten since)"
	}
	return s
}

func pushedLine(p push) string {
	s := "pushed " + strings.Join(p.refs, ", ")
	if p.remote != "" {
		s += " to " + p.remote
	}
	return strings.TrimSpace(s)
}
