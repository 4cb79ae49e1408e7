package distill

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/intent"
	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
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
	actions []Action // every action's attempts, by intent
	skills  []string // skills loaded, with their arguments
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

// collectFacts reads the segment's calls.
func collectFacts(calls []call, dir, cwd string) facts {
	var f facts
	var tr tracker
	changed, read := orderedSet{}, orderedSet{}
	var ran, looked folded
	skills := orderedSet{}
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
			add(attempt{key: intent.Of(c.Name, path, ""), label: label(c, verb+codeSpan(path)), status: status, why: why(r), sub: c.sub}, r)
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
				// A skill's result says only that it was loaded: what it
				// was asked to do is no outcome, so it is listed with the
				// commands, not under Done.
				skills.add(strings.TrimSpace(c.Target + " " + c.Input.Args))
			}
			continue
		case "Bash", "PowerShell":
		case "WebFetch":
			// A page fetched: one action with a download of the same
			// host by curl or wget, so that a fallback that worked
			// closes the failure.
			if r != nil {
				add(attempt{key: intent.Of(c.Name, c.Target, ""), label: label(c, c.Name+" "+codeSpan(shorten(oneLine(c.Target), cmdRunes))),
					status: status, why: why(r), sub: c.sub}, r)
			}
			continue
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
	// The newest failure is where the work stands: said under Open,
	// and not again under Not done.
	var newestFailure, newestLine string
	f.actions = tr.actions()
	for _, a := range f.actions {
		switch {
		case a.Done && a.Failures > 0 && !a.Subagent:
			f.fixed = append(f.fixed, a.fixed(a.Failures))
		case !a.Done:
			line := a.notDone()
			f.notDone = append(f.notDone, line)
			if a.Status != transcript.StatusRejected && a.Status != transcript.StatusInterrupted {
				newestFailure, newestLine = line, line
			}
			// Failures an earlier success fixed are a lesson still,
			// though a later attempt failed otherwise.
			if a.fixedBefore > 0 && !a.Subagent {
				f.fixed = append(f.fixed, a.fixed(a.fixedBefore))
			}
		}
	}
	var work []string // the todo list's and the tasks' unfinished items
	if hasTodos {
		for _, t := range todos {
			switch t.Status {
			case "in_progress":
				work = append(work, "in progress: "+oneLine(t.Content))
			case "completed":
			default:
				work = append(work, "todo: "+oneLine(t.Content))
			}
		}
	}
	work = append(work, tasks.open()...)
	// A list left stale is closed by what was done: a commit or a
	// changed file that names the item (timeline.Closes).
	for _, w := range work {
		if !closedBy(w, commitLines, changed.list) {
			f.open = append(f.open, w)
		}
	}
	for _, t := range testOrder {
		if !tests[t].ok {
			newestFailure = "tests failing: " + tests[t].runner + " " + tests[t].verdictText()
			newestLine = "tests: " + tests[t].runner + " " + tests[t].verdictText()
		}
	}
	if newestFailure != "" {
		f.open = append(f.open, "not done: "+newestFailure)
		f.notDone = slices.DeleteFunc(f.notDone, func(l string) bool { return l == newestLine })
	}
	if pullNew != "" {
		f.open = append(f.open, "no pull request opened yet: "+pullNew)
	}
	f.done = foldSame(f.done)
	f.changed, f.read, f.skills = changed.list, read.list, skills.list
	f.ran = ran.list()
	if len(f.ran) == 0 {
		f.ran = looked.list()
	}
	return f
}

// closedBy reports whether an open item is closed by one of the commits
// or changed files of the same segment.
func closedBy(item string, commits, changed []string) bool {
	for _, c := range commits {
		if timeline.Closes(item, c) {
			return true
		}
	}
	for _, p := range changed {
		if timeline.Closes(item, "changed "+p) {
			return true
		}
	}
	return false
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
