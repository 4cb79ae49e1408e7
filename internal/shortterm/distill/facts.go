package distill

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// facts are what the tool results of a segment show: the only source of
// Done, Not done and the state half of Open. No sentence of the model's
// goes in here.
type facts struct {
	done    []string // commits, pushes, tags, PRs, test verdicts, subagents and skills run
	notDone []string // the last attempt of something that never succeeded, with why
	fixed   []string // failures a later attempt fixed (lessons)
	decided []string // plans approved or turned down, questions turned down, reasons given for a rejection
	open    []string // the last todo list's unfinished items, tasks, the newest unfixed failure
	changed []string // files written or edited, by a call that succeeded
	read    []string // files read
	ran     []string // commands run, folded
}

// call is one tool call of the segment, in order.
type call struct {
	transcript.Tool
	sub  bool // made by a subagent
	when time.Time
}

// segmentCalls lists the segment's calls and its subagents' in the order
// they ran: a subagent's calls go where their time puts them.
func segmentCalls(items, subs []transcript.Item) []call {
	var out []call
	for _, it := range items {
		for _, t := range it.Tools {
			out = append(out, call{Tool: t, when: it.Time})
		}
	}
	for _, it := range subs {
		for _, t := range it.Tools {
			out = append(out, call{Tool: t, sub: true, when: it.Time})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].when, out[j].when
		return !a.IsZero() && !b.IsZero() && a.Before(b)
	})
	return out
}

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

// collectFacts reads the segment's calls.
func collectFacts(calls []call, dir, cwd string) facts {
	var f facts
	var tr tracker
	changed, read := orderedSet{}, orderedSet{}
	var ran, looked folded
	var commits []commit
	var quiet []string
	var logs []string // outputs of git log, in order
	tests := map[string]*testRun{}
	var testOrder []string
	var todos []transcript.Todo
	hasTodos := false
	tasks := taskList{}
	background := map[string]string{} // background task id → its command
	add := func(a attempt, r *transcript.Result) {
		tr.add(a)
		if r != nil && r.Status == transcript.StatusRejected && r.Reason != "" {
			// The reason the user gave is their decision.
			f.decided = append(f.decided, "the user turned down "+a.label+": “"+shorten(oneLine(r.Reason), 160)+"”")
		}
	}
	var pullNew string // the link GitHub prints for a pushed branch with no PR yet
	label := func(t call, l string) string {
		if t.sub {
			return l + " (subagent)"
		}
		return l
	}
	for _, c := range calls {
		r := c.Result
		status := transcript.Status("")
		if r != nil {
			status = r.Status
		}
		path := display(c.Target, dir, cwd)
		switch c.Name {
		case "Write", "Edit", "MultiEdit", "NotebookEdit":
			if r == nil {
				continue
			}
			verb := "edit "
			if c.Name == "Write" {
				verb = "write "
			}
			add(attempt{key: "file " + path, label: label(c, verb+codeSpan(path)), status: status, why: why(r), sub: c.sub}, r)
			if r.OK() {
				changed.add(path)
			}
			continue
		case "Read", "NotebookRead":
			if r.OK() {
				read.add(path)
			} else if r != nil && refusal(status) {
				add(attempt{key: "read " + path, label: label(c, "read "+codeSpan(path)), status: status, why: why(r), sub: c.sub}, r)
			}
			continue
		case "TodoWrite":
			if r == nil || r.OK() {
				todos, hasTodos = c.Input.Todos, true
			}
			continue
		case "TaskCreate", "TaskUpdate":
			if r.OK() {
				tasks.apply(c.Tool)
			}
			continue
		case "ExitPlanMode":
			plan := planTitle(c.Target)
			if steps := planSteps(c.Input.Plan); steps != "" {
				plan += " — " + steps
			}
			switch {
			case r == nil:
			case r.Status == transcript.StatusRejected:
				d := strings.TrimSuffix("plan turned down: "+plan, ": ")
				if r.Reason != "" {
					d += " — the user: " + oneLine(r.Reason)
				}
				f.decided = append(f.decided, d)
			case r.OK():
				// ExitPlanMode succeeds only when the user approves.
				f.decided = append(f.decided, strings.TrimSuffix("plan approved: "+plan, ": "))
			}
			continue
		case "AskUserQuestion":
			if r != nil && r.Status == transcript.StatusRejected {
				q := c.Input.Subject
				if q == "" {
					q = "a question"
				}
				f.decided = append(f.decided, "the user turned down the question: "+q)
			}
			continue
		case "TaskOutput", "BashOutput":
			// A background command's output: its test verdict counts for
			// the command that started it.
			if r.OK() {
				if cmd, ok := background[c.Input.TaskID]; ok {
					if v, ok := parseVerdict(r.Text); ok {
						name := runnerOf(cmd)
						if name == "" {
							name = cmp.Or(v.runner, runnerName(cmd))
						}
						recordTest(tests, &testOrder, name, v, true, v.ok())
					}
				}
			}
			continue
		case "Task", "Agent":
			desc := c.Input.Description
			if desc == "" {
				desc = c.Target
			}
			l := "subagent " + quote(desc)
			if c.Input.Agent != "" {
				l += " (" + c.Input.Agent + ")"
			}
			if r == nil {
				continue
			}
			add(attempt{key: "agent " + desc, label: l, status: status, why: why(r)}, r)
			if r.OK() {
				f.done = append(f.done, "ran "+l)
			}
			continue
		case "Skill":
			l := "skill " + c.Target
			if c.Input.Args != "" {
				l += " " + c.Input.Args
			}
			if r == nil {
				continue
			}
			add(attempt{key: "skill " + l, label: l, status: status, why: why(r)}, r)
			if r.OK() {
				f.done = append(f.done, "ran "+l)
			}
			continue
		case "Bash", "PowerShell":
		default:
			if r != nil && refusal(status) {
				l := c.Name
				if c.Target != "" {
					l += " " + codeSpan(shorten(oneLine(c.Target), cmdRunes))
				}
				add(attempt{key: c.Name + " " + c.Target, label: label(c, l), status: status, why: why(r), sub: c.sub}, r)
			}
			continue
		}
		// A shell command.
		cmd := c.Input.Command
		if cmd == "" {
			cmd = c.Target
		}
		key := commandKey(cmd)
		if key != "" {
			ran.add(cmd)
		} else {
			looked.addKey(lookKey(cmd), cmd)
		}
		if r == nil {
			continue
		}
		if c.Input.Background && r.Background != "" {
			background[r.Background] = cmd
		}
		sf, acts := shell(c, cmd, key)
		for _, a := range acts {
			a.label = label(c, a.label)
			add(a, r)
		}
		if u := pullNewURL().FindString(r.Text); u != "" && r.OK() {
			pullNew = u
		}
		if sf.pr != "" {
			pullNew = ""
		}
		commits = append(commits, sf.commits...)
		quiet = append(quiet, sf.quiet...)
		if sf.pushed != nil {
			f.done = append(f.done, pushedLine(*sf.pushed))
		}
		for _, t := range sf.tags {
			f.done = append(f.done, "tagged "+t)
		}
		if sf.pr != "" {
			f.done = append(f.done, "opened PR "+sf.pr)
		}
		if sf.run != nil {
			recordTest(tests, &testOrder, sf.run.runner, sf.run.verdict, sf.run.has, sf.run.ok)
		}
		if r.OK() && hasGit(cmd, "log") {
			logs = append(logs, r.Text)
		}
	}
	// Commits first: they are the outcome a developer looks for.
	var commitLines []string
	for _, c := range rewritten(commits, logs) {
		commitLines = append(commitLines, commitLine(c))
	}
	for _, s := range quiet {
		if h := latestHash(logs, s); h != "" {
			commitLines = append(commitLines, commitLine(commit{hash: h, subject: s}))
		} else {
			commitLines = append(commitLines, "committed (git printed no hash) "+s)
		}
	}
	f.done = append(commitLines, f.done...)
	for _, name := range testOrder {
		t := tests[name]
		line := "tests: " + t.runner + " " + t.verdictText()
		if t.ok {
			if t.failed > 0 {
				line += "; " + plural(t.failed, "earlier run", "earlier runs") + " failed"
				if len(t.names) > 0 {
					line += ": " + strings.Join(t.names, ", ")
				}
			}
			f.done = append(f.done, line)
		} else {
			f.notDone = append(f.notDone, line)
		}
	}
	// What never succeeded, newest last; what failed and was fixed.
	keys := append([]string(nil), tr.order...)
	sort.SliceStable(keys, func(i, j int) bool { return tr.by[keys[i]].last < tr.by[keys[j]].last })
	var newestFailure string
	for _, k := range keys {
		h := tr.by[k]
		last := h.attempts[len(h.attempts)-1]
		// A failure followed by a success was fixed; the failures since
		// the newest success are where an unfixed action stands.
		fails := 0
		for i := len(h.attempts) - 1; i >= 0; i-- {
			ok := h.attempts[i].status == transcript.StatusOK
			if ok && last.status != transcript.StatusOK {
				break
			}
			if !ok {
				fails++
			}
		}
		switch {
		case last.status == transcript.StatusOK && fails > 0 && !last.sub:
			// Failures fixed later: the first failure's words.
			f.fixed = append(f.fixed, h.label+": "+plural(fails, "attempt", "attempts")+" "+verb(h.attempts[0].status)+
				quoteWhy(firstFailure(h.attempts).why)+" before one succeeded")
		case last.status != transcript.StatusOK:
			line := h.label + ": " + verb(last.status) + quoteWhy(last.why)
			if fails > 1 {
				line += " (" + plural(fails, "attempt", "attempts") + ")"
			}
			f.notDone = append(f.notDone, line)
			if last.status != transcript.StatusRejected && last.status != transcript.StatusInterrupted {
				newestFailure = line
			}
			// Failures an earlier success fixed are a lesson still,
			// though a later attempt failed otherwise.
			if before := fixedBefore(h.attempts); before > 0 && !last.sub {
				f.fixed = append(f.fixed, h.label+": "+plural(before, "attempt", "attempts")+" "+verb(h.attempts[0].status)+
					quoteWhy(firstFailure(h.attempts).why)+" before one succeeded")
			}
		}
	}
	if hasTodos {
		for _, t := range todos {
			switch t.Status {
			case "in_progress":
				f.open = append(f.open, "in progress: "+oneLine(t.Content))
			case "completed":
			default:
				f.open = append(f.open, "todo: "+oneLine(t.Content))
			}
		}
	}
	f.open = append(f.open, tasks.open()...)
	for _, t := range testOrder {
		if !tests[t].ok {
			newestFailure = "tests failing: " + tests[t].runner + " " + tests[t].verdictText()
		}
	}
	if newestFailure != "" {
		f.open = append(f.open, "not done: "+newestFailure)
	}
	if pullNew != "" {
		f.open = append(f.open, "no pull request opened yet: "+pullNew)
	}
	f.done = foldSame(f.done)
	f.changed, f.read = changed.list, read.list
	f.ran = ran.list()
	if len(f.ran) == 0 {
		f.ran = looked.list()
	}
	return f
}

// foldSame lists a line said more than once once, where it first came,
// with its count: "pushed origin main ×3".
func foldSame(lines []string) []string {
	n := map[string]int{}
	for _, l := range lines {
		n[l]++
	}
	var out []string
	for _, l := range lines {
		switch c := n[l]; {
		case c == 0:
		case c == 1:
			out = append(out, l)
		default:
			out = append(out, l+" ×"+itoa(c))
		}
		n[l] = 0
	}
	return out
}

// planSteps names a plan's steps: its section headings, else its top
// list items, within planRunes.
func planSteps(plan string) string {
	if plan == "" {
		return ""
	}
	var heads, items []string
	title := planTitle(plan)
	for _, l := range strings.Split(plan, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "## ") || strings.HasPrefix(t, "### "):
			if h := strings.TrimSuffix(markupless(t), ":"); h != "" && planTitle(h) != title && !strings.EqualFold(h, "plan") {
				heads = append(heads, h)
			}
		case l == strings.TrimLeft(l, " \t") && listMarker().MatchString(t):
			items = append(items, markupless(t))
		}
	}
	steps := heads
	if len(steps) < 2 {
		steps = items
	}
	return shorten(strings.Join(steps, "; "), planRunes)
}

// planRunes bounds the steps of a plan in its Decided line.
const planRunes = 300

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
	if !notable {
		l := codeSpan(command(cmd))
		switch {
		case key != "":
			a := attempt{key: "cmd " + key + " " + firstArg(cmd, key), label: l, status: transcript.StatusOK, sub: c.sub}
			if !ok {
				a = fail(a)
			}
			acts = append(acts, a)
		case refusal(r.Status):
			// Even a command that only looks matters when it was not
			// allowed: what the session could not see.
			acts = append(acts, fail(attempt{key: "cmd " + cmd, label: l}))
		}
	}
	return sf, acts
}

// firstArg is the first argument after a command's key ("npm install
// vite" → "vite"), so that installing two packages are two actions.
func firstArg(cmd, key string) string {
	ws := strings.Fields(firstCommand(firstLineOf(cmd)))
	kw := strings.Fields(key)
	for j := 0; j+len(kw) <= len(ws); j++ {
		match := true
		for k := range kw {
			if filepath.Base(ws[j+k]) != kw[k] {
				match = false
				break
			}
		}
		if match {
			for _, w := range ws[j+len(kw):] {
				if !strings.HasPrefix(w, "-") {
					return w
				}
			}
			return ""
		}
	}
	return ""
}

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

// taskList is the state the task tools (TaskCreate, TaskUpdate) leave.
type taskList struct {
	order   []string
	subject map[string]string
	status  map[string]string
	n       int
}

func (l *taskList) apply(t transcript.Tool) {
	if l.subject == nil {
		l.subject, l.status = map[string]string{}, map[string]string{}
	}
	switch t.Name {
	case "TaskCreate":
		id := t.Input.TaskID
		if id == "" {
			id = taskCreated(t.Result)
		}
		if id == "" {
			l.n++
			id = "#" + itoa(l.n)
		}
		if _, ok := l.subject[id]; !ok {
			l.order = append(l.order, id)
		}
		l.subject[id] = t.Input.Subject
		l.status[id] = "pending"
	case "TaskUpdate":
		id := t.Input.TaskID
		if _, ok := l.subject[id]; !ok {
			l.order = append(l.order, id)
		}
		if t.Input.Subject != "" {
			l.subject[id] = t.Input.Subject
		}
		if t.Input.Status != "" {
			l.status[id] = t.Input.Status
		}
	}
}

// taskCreated reads the id Claude Code gave a created task ("Task #3
// created successfully").
func taskCreated(r *transcript.Result) string {
	if r == nil {
		return ""
	}
	t := r.Text
	if i := strings.Index(t, "Task #"); i >= 0 {
		rest := t[i+6:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			return rest[:j]
		}
	}
	return ""
}

func (l *taskList) open() []string {
	var out []string
	for _, id := range l.order {
		s := l.subject[id]
		if s == "" {
			s = "task " + id
		}
		switch l.status[id] {
		case "completed", "deleted", "resolved":
		case "in_progress":
			out = append(out, "in progress: "+oneLine(s))
		default:
			out = append(out, "todo: "+oneLine(s))
		}
	}
	return out
}
