package distill

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

// One test per failure class the reference lists (transcript-outcomes.md
// §2–8): what the distillate says of each, and what it must never say.

func contains(list []string, part string) bool {
	for _, l := range list {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

func assertNone(t *testing.T, body, head string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if contains(sectionOf(body, head), p) {
			t.Errorf("%s says %q:\n%s", head, p, body)
		}
	}
}

func TestRefusedWriteIsNotDone(t *testing.T) {
	body := bodyOf(newSession(t).
		User("Document the setup in CLAUDE.md").
		Write("/p/CLAUDE.md", failed("Claude requested permissions to write to /p/CLAUDE.md, but you haven't granted it yet.")).
		Say("I've created CLAUDE.md with the setup steps."))
	if got := failures(body); !reflect.DeepEqual(got, []string{"write `CLAUDE.md`: not allowed (Claude requested permissions to write to /p/CLAUDE.md, but you haven't granted it yet.)"}) {
		t.Errorf("not done: %q\n%s", got, body)
	}
	assertNone(t, body, daily.HeadFiles, "CLAUDE.md")
	assertNone(t, body, daily.HeadDone, "CLAUDE.md", "created")
	if !contains(sectionOf(body, daily.HeadOpen), "not done: write `CLAUDE.md`") {
		t.Errorf("the unfixed failure is not open:\n%s", body)
	}
}

func TestPermissionRefusalIsNotDone(t *testing.T) {
	body := bodyOf(newSession(t).
		User("Can claude -p use WebSearch?").
		Call("WebSearch", map[string]any{"query": "claude -p websearch"}, failed("Claude requested permissions to use WebSearch, but you haven't granted it yet.")).
		Bash("ls ~/.claude", failed("ls in '~/.claude' was blocked. For security, Claude Code may only list files in the allowed working directories for this session: /p.")).
		Say("Yes: the help output lists WebSearch among the default tools."))
	nd := failures(body)
	if !contains(nd, "WebSearch `claude -p websearch`: not allowed (Claude requested permissions to use WebSearch") ||
		!contains(nd, "`ls ~/.claude`: not allowed (ls in '~/.claude' was blocked.") {
		t.Errorf("not done: %q", nd)
	}
}

func TestUserRejectionWithReason(t *testing.T) {
	body := bodyOf(newSession(t).
		User("Set up vite").
		Bash("npm install", rejected("use pnpm")).
		Bash("pnpm install", ok("Packages: +12\nDone in 2.1s")).
		Say("Installed vite with pnpm."))
	// The install the user turned down was then made their way: one
	// action, done, its rejection a lesson and a decision.
	assertNone(t, body, daily.HeadNotDone, "install")
	if got := sectionOf(body, daily.HeadLearned); !contains(got, "`npm install`: 1 attempt rejected by the user (“use pnpm”) — worked as `pnpm install`") {
		t.Errorf("learned: %q\n%s", got, body)
	}
	if got := sectionOf(body, daily.HeadDecided); !contains(got, "the user turned down `npm install`: “use pnpm”") {
		t.Errorf("decided: %q", got)
	}
	// A rejection is the user's choice, not work left open.
	assertNone(t, body, daily.HeadOpen, "npm install")
}

func TestHookBlockedCommitIsNotACommit(t *testing.T) {
	blocked := bodyOf(newSession(t).
		User("commit it").
		Bash(`git commit -m "Add the flag"`, failed(`PreToolUse:Bash hook blocking error from command: "guard": no commits on main`)).
		Say("Committed."))
	if nd := failures(blocked); !reflect.DeepEqual(nd, []string{"commit “Add the flag”: blocked by a hook (no commits on main)"}) {
		t.Errorf("not done: %q\n%s", nd, blocked)
	}
	assertNone(t, blocked, daily.HeadDone, "committed")

	// Git's own pre-commit hook refusing, seven times: one line, the
	// count, git's words.
	s := newSession(t).User("commit the fix")
	for i := 0; i < 7; i++ {
		s.Bash("git commit -m \"$(cat <<'EOF'\nFix the parser\nEOF\n)\"", failed("Exit code 1\nruff....................Failed\n- hook id: ruff\nerror: 3 lint errors"))
	}
	body := bodyOf(s.Say("I committed the fix."))
	if nd := failures(body); !reflect.DeepEqual(nd, []string{"commit “Fix the parser”: failed (ruff....................Failed) (7 attempts)"}) {
		t.Errorf("not done: %q\n%s", nd, body)
	}
	assertNone(t, body, daily.HeadDone, "committed")
}

func TestHeredocCommitKeepsHashAndSubject(t *testing.T) {
	body := bodyOf(newSession(t).
		User("commit and push").
		Bash("git add -A && git commit -m \"$(cat <<'EOF'\nfeat: add annotations (spotter-gqc)\n\nLonger body.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
			ok("[spotter-gqc 99b497c] feat: add annotations (spotter-gqc)\n 12 files changed, 794 insertions(+), 15 deletions(-)")).
		Bash("git push", failed("Exit code 128\nfatal: The current branch spotter-gqc has no upstream branch.")).
		Bash("git push --set-upstream origin spotter-gqc", ok("To github.com:marot/spotter.git\n * [new branch]      spotter-gqc -> spotter-gqc\nremote: Create a pull request for 'spotter-gqc' on GitHub by visiting:\nremote:      https://github.com/marot/spotter/pull/new/spotter-gqc")).
		Bash("git tag v0.3.0", ok("")).
		Say("Pushed."))
	want := []string{
		"committed 99b497c feat: add annotations (spotter-gqc)",
		"pushed spotter-gqc (new branch) to github.com:marot/spotter.git",
		"tagged v0.3.0",
	}
	if got := sectionOf(body, daily.HeadDone); !reflect.DeepEqual(got, want) {
		t.Errorf("done:\n got %q\nwant %q", got, want)
	}
	// The push that failed first and then worked is a lesson, not open.
	if !contains(sectionOf(body, daily.HeadLearned), "git push: 1 attempt failed (fatal: The current branch spotter-gqc has no upstream branch.) before one succeeded") {
		t.Errorf("learned: %q", sectionOf(body, daily.HeadLearned))
	}
	assertNone(t, body, daily.HeadNotDone, "push")
	if !contains(sectionOf(body, daily.HeadOpen), "no pull request opened yet: https://github.com/marot/spotter/pull/new/spotter-gqc") {
		t.Errorf("open: %q", sectionOf(body, daily.HeadOpen))
	}
}

func TestPullRequestURL(t *testing.T) {
	body := bodyOf(newSession(t).
		User("open a PR").
		Bash(`gh pr create --title "Add flag" --body "x"`, ok("Creating pull request for feat into main\n\nhttps://github.com/o/r/pull/42")).
		Say("Opened."))
	if got := sectionOf(body, daily.HeadDone); !reflect.DeepEqual(got, []string{"opened PR https://github.com/o/r/pull/42"}) {
		t.Errorf("done: %q", got)
	}
}

func TestQuietCommitHashFromLaterLog(t *testing.T) {
	body := bodyOf(newSession(t).
		User("commit in small steps").
		Bash("git add src && git commit -q -F - <<'EOF'\nAdd the table module\n\nbody\nEOF", ok("")).
		Bash("git add tests && git commit -q -m 'Add the table tests'", ok("")).
		Bash("git log --oneline -3", ok("1a6b0e2 Add the table tests\n9c3d4f1 Add the table module\n2c0d950 Initial commit")).
		Bash("git commit -q -m 'Not logged yet'", ok("")).
		Say("Done."))
	want := []string{
		"committed 9c3d4f1 Add the table module",
		"committed 1a6b0e2 Add the table tests",
		"committed (git printed no hash) Not logged yet",
	}
	if got := sectionOf(body, daily.HeadDone); !reflect.DeepEqual(got, want) {
		t.Errorf("done:\n got %q\nwant %q", got, want)
	}
}

func TestFailingThenPassingTests(t *testing.T) {
	body := bodyOf(newSession(t).
		User("make the cache tests pass").
		// Piped to tail: is_error follows tail, the verdict is in the text.
		Bash("uv run pytest test/test_cache.py -q 2>&1 | tail -3", ok("FAILED test/test_cache.py::test_version_mismatch\n2 failed, 16 passed in 0.22s")).
		Edit("/p/test/test_cache.py", ok("The file has been updated.")).
		Bash("uv run pytest test/test_cache.py -q 2>&1 | tail -3", ok("27 passed, 1 skipped in 1.48s")).
		Say("All green."))
	if got := sectionOf(body, daily.HeadDone); !reflect.DeepEqual(got, []string{"tests: pytest 27 passed, 0 failed (27 passed, 1 skipped in 1.48s); 1 earlier run failed: test_version_mismatch"}) {
		t.Errorf("done: %q\n%s", got, body)
	}
	assertNone(t, body, daily.HeadNotDone, "pytest")

	still := bodyOf(newSession(t).
		User("run the suite").
		Bash("mix test 2>&1 | tail -5", ok("Finished in 1.5 seconds\n5 tests, 4 failures")).
		Say("Four tests fail in the review page."))
	if got := failures(still); !reflect.DeepEqual(got, []string{"tests: mix test 1 passed, 4 failed (5 tests, 4 failures)"}) {
		t.Errorf("not done: %q\n%s", got, still)
	}
	if !contains(sectionOf(still, daily.HeadOpen), "tests failing: mix test") {
		t.Errorf("open: %q", sectionOf(still, daily.HeadOpen))
	}
	assertNone(t, still, daily.HeadDone, "tests")
}

func TestPendingTodos(t *testing.T) {
	todos := func(statuses ...string) map[string]any {
		var list []any
		for i, st := range statuses {
			list = append(list, map[string]any{"content": []string{"Write the migration", "Add the tests", "Update the docs"}[i], "status": st})
		}
		return map[string]any{"todos": list}
	}
	body := bodyOf(newSession(t).
		User("add the state column").
		Call("TodoWrite", todos("pending", "pending", "pending"), ok("Todos have been modified successfully.")).
		Call("TodoWrite", todos("completed", "in_progress", "pending"), ok("Todos have been modified successfully.")).
		Say("The migration is written; the tests are next."))
	open := sectionOf(body, daily.HeadOpen)
	if !reflect.DeepEqual(open[:2], []string{"in progress: Add the tests", "todo: Update the docs"}) || contains(open, "migration") {
		t.Errorf("open: %q", open)
	}
	// The model's own "completed" is a claim: it is not listed as done.
	assertNone(t, body, daily.HeadDone, "migration")
}

func TestTaskToolsState(t *testing.T) {
	body := bodyOf(newSession(t).
		User("plan the epic").
		Call("TaskCreate", map[string]any{"subject": "Schema"}, ok("Task #1 created successfully: Schema")).
		Call("TaskCreate", map[string]any{"subject": "Review page"}, ok("Task #2 created successfully: Review page")).
		Call("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}, ok("Updated task #1 status")).
		Say("Schema done."))
	if open := sectionOf(body, daily.HeadOpen); !contains(open, "todo: Review page") || contains(open, "Schema") {
		t.Errorf("open: %q", open)
	}
}

func TestCompactionSummaryIsBeforeCompaction(t *testing.T) {
	summary := "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n" +
		"Analysis:\nLet me think about it chronologically.\n\nSummary:\n1. Primary Request and Intent:\n   The user asked to implement the epic spotter-gqc.\n\n" +
		"2. Key Technical Concepts:\n   - Ash resources\n\n7. Pending Tasks:\n   - spotter-gqc.7 (open)\n\n8. Current Work:\n   Working on spotter-gqc.6.\n\n" +
		"9. Optional Next Step:\n   Finish gqc.6.\n\nIf you need specific details from before compaction, read the full transcript at: /x.jsonl\nPlease continue the conversation from where we left off."
	s := newSession(t)
	s.Raw(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "uuid": "cb"})
	s.Raw(map[string]any{"type": "user", "uuid": "cs", "isCompactSummary": true, "isVisibleInTranscriptOnly": true, "timestamp": "2026-11-30T09:00:00Z",
		"message": map[string]any{"role": "user", "content": summary}})
	body := bodyOf(s.Say("Continuing with gqc.6: the tests pass now."))
	want := []string{
		"Primary Request and Intent: The user asked to implement the epic spotter-gqc.",
		"Pending Tasks: spotter-gqc.7 (open)",
		"Current Work: Working on spotter-gqc.6.",
		"Optional Next Step: Finish gqc.6.",
	}
	if got := sectionOf(body, daily.HeadBefore); !reflect.DeepEqual(got, want) {
		t.Errorf("before compaction:\n got %q\nwant %q", got, want)
	}
	if strings.Contains(body, "Analysis") || strings.Contains(body, "read the full transcript") {
		t.Errorf("the summary's framing leaked:\n%s", body)
	}
	// The summary is Claude Code's retelling, never a request.
	assertNone(t, body, daily.HeadAsked, "spotter-gqc")
}

func TestShortAnswerAnswers(t *testing.T) {
	body := bodyOf(newSession(t).
		User("Which port does the dev server use?").
		Say("Port 3700."))
	assertNone(t, body, daily.HeadOpen, "unanswered")
	if got := sectionOf(body, daily.HeadFinal); !reflect.DeepEqual(got, []string{"Port 3700."}) {
		t.Errorf("final: %q", got)
	}
	// Answered earlier in the segment: shown under its request.
	two := bodyOf(newSession(t).
		User("Which port does the dev server use?").Say("Port 3700.").
		User("And how do I reload the config?").Say("Then restart."))
	if got := sectionOf(two, daily.HeadAsked); !reflect.DeepEqual(got, []string{"Which port does the dev server use?", "And how do I reload the config?"}) {
		t.Errorf("asked: %q\n%s", got, two)
	}
	if !strings.Contains(two, "  - answer: Port 3700.") {
		t.Errorf("the earlier answer is not under its request:\n%s", two)
	}
	assertNone(t, two, daily.HeadOpen, "unanswered")
}

func TestInlineSidechainWritesAreTheSessions(t *testing.T) {
	s := newSession(t).User("Build the app with subagents")
	s.Side = true
	s.User("Write the server").Write("/p/server.js", ok("File created successfully at: /p/server.js")).
		Write("/p/secret.env", failed("Claude requested permissions to write to /p/secret.env, but you haven't granted it yet."))
	s.Side = false
	body := bodyOf(s.Call("Task", map[string]any{"description": "server", "prompt": "Write the server", "subagent_type": "general-purpose"},
		ok("Done: server.js")).Say("The app is built."))
	if files := sectionOf(body, daily.HeadFiles); !contains(files, "changed: `server.js`") || contains(files, "secret.env") {
		t.Errorf("files: %q", files)
	}
	if !contains(failures(body), "write `secret.env` (subagent): not allowed") {
		t.Errorf("not done: %q", failures(body))
	}
	if !contains(sectionOf(body, daily.HeadDone), "ran subagent “server” (general-purpose)") {
		t.Errorf("done: %q", sectionOf(body, daily.HeadDone))
	}
}

func TestFoldingKeepsTheDifferingArgument(t *testing.T) {
	body := bodyOf(newSession(t).
		User("close the done beads").
		Bash("bd close spotter-gqc.4", ok("closed")).
		Bash("bd close spotter-gqc.5", ok("closed")).
		Bash("bd close spotter-gqc.6", ok("closed")).
		Bash("uv run pytest -x tests/a.py", ok("1 passed in 0.1s")).
		Bash("uv run pytest tests/b.py -q", ok("1 passed in 0.1s")).
		Say("Closed."))
	ran := sectionOf(body, daily.HeadFiles)
	if !contains(ran, "`bd close spotter-gqc.4, spotter-gqc.5, spotter-gqc.6`") || !contains(ran, "`uv run pytest -x tests/a.py` ×2") {
		t.Errorf("ran: %q", ran)
	}
}

// TestCompletionClaimsAndMarkupAreNeverOpen: a completion claim, markup,
// a question to the user and an offer are no open work; a next step is.
func TestCompletionClaimsAndMarkupAreNeverOpen(t *testing.T) {
	body := bodyOf(newSession(t).
		User("finish the refactor").
		Say("All TODO items from the original code have been addressed. The refactor is complete.\n\n" +
			"<details><summary>More</summary>\n\n**Next step:** run it on [staging](https://x.example/s).\n\nShall I open the PR? " +
			"Want me to help you scaffold a Maven project? I can also add a CI job if you'd like."))
	want := []string{"Next step: run it on staging."}
	if got := sectionOf(body, daily.HeadOpen); !reflect.DeepEqual(got, want) {
		t.Errorf("open:\n got %q\nwant %q", got, want)
	}
}

// TestVerdictsOfEachRunner: the counts and the failed tests' names as each
// runner prints them.
func TestVerdictsOfEachRunner(t *testing.T) {
	cases := []struct {
		out            string
		passed, failed int
		failing        []string
	}{
		{"FAILED test/x.py::C::test_a - assert 1\n==== 1 failed, 26 passed, 1 skipped in 1.48s ====", 26, 1, []string{"test_a"}},
		{"101 passed in 0.29s", 101, 0, nil},
		{"--- FAIL: TestFlush (0.00s)\nFAIL\tgithub.com/x/y\t0.2s\nok  \tgithub.com/x/z\t0.1s", 1, 1, []string{"TestFlush"}},
		{"  1) test closes the review (Spotter.ReviewTest)\n\nFinished in 1.5 seconds\n14 doctests, 65 tests, 1 failure", 78, 1, []string{"closes the review"}},
		{"Tests:       1 failed, 12 passed, 13 total", 12, 1, nil},
		{" Tests  2 failed | 11 passed (13)", 11, 2, nil},
		{"test a::b ... FAILED\ntest result: FAILED. 3 passed; 1 failed; 0 ignored", 3, 1, []string{"a::b"}},
		{"  12 passing (1s)\n  2 failing", 12, 2, nil},
		{"Ran 12 tests in 0.1s\n\nFAILED (failures=2)", 10, 2, nil},
		{"12 examples, 0 failures", 12, 0, nil},
	}
	for _, c := range cases {
		v, ok := parseVerdict(c.out)
		if !ok || v.passed != c.passed || v.failed != c.failed || !reflect.DeepEqual(v.failing, c.failing) {
			t.Errorf("%q: %+v %v", c.out, v, ok)
		}
	}
	if _, ok := parseVerdict("Compiling 4 files (.ex)\nGenerated spotter app"); ok {
		t.Error("a verdict in output that has none")
	}
}

// TestTracebackNamesItsError: the why of a failed command is the line that
// names the error, which a traceback prints last.
func TestTracebackNamesItsError(t *testing.T) {
	body := bodyOf(newSession(t).
		User("install it as a tool").
		Bash("coderabbit-extract --help", failed("Exit code 1\nTraceback (most recent call last):\n  File \"/x/bin/coderabbit-extract\", line 4, in <module>\n    from extract_coderabbit_feedback import main\nModuleNotFoundError: No module named 'extract_coderabbit_feedback'")).
		Say("The module cannot be imported."))
	if got := failures(body); !reflect.DeepEqual(got, []string{"`coderabbit-extract --help`: failed (ModuleNotFoundError: No module named 'extract_coderabbit_feedback')"}) {
		t.Errorf("not done: %q", got)
	}
}

// TestRunnerNamedByItsVerdict: a test file written by a here-document
// and run in the same command names no runner; its verdict's format does,
// so a failing run of it and the runner's later passing run are one test
// run whose newest verdict stands, and no stale "tests failing" is open.
func TestRunnerNamedByItsVerdict(t *testing.T) {
	body := bodyOf(newSession(t).
		User("add a test for the tie-break, test first").
		Bash("cat >> tests/test_table.py <<'EOF'\ndef test_tie():\n    assert order() == ['a', 'b']\nEOF\n.venv/bin/python -m pytest -q", failed("FAILED tests/test_table.py::test_tie\n1 failed, 9 passed in 0.05s")).
		Edit("/p/src/table.py", ok("The file has been updated.")).
		Bash(".venv/bin/python -m pytest -q", ok("10 passed in 0.06s")).
		Say("Green."))
	if got := sectionOf(body, daily.HeadDone); !reflect.DeepEqual(got, []string{"tests: pytest 10 passed, 0 failed (10 passed in 0.06s); 1 earlier run failed: test_tie"}) {
		t.Errorf("done: %q\n%s", got, body)
	}
	assertNone(t, body, daily.HeadNotDone, "tests")
	assertNone(t, body, daily.HeadOpen, "tests failing")
	assertNone(t, body, daily.HeadDone, "cat >>")
}

// TestFixedThenFailingAgainKeepsTheLesson: a command that failed, was
// fixed and then failed otherwise is Not done in its newest words, and
// the failure the fix overcame is still a lesson.
func TestFixedThenFailingAgainKeepsTheLesson(t *testing.T) {
	body := bodyOf(newSession(t).
		User("make the tool run from any directory").
		Bash("cd /tmp && review-extract --help", failed("Exit code 1\nTraceback (most recent call last):\n  File \"/u/bin/review-extract\", line 4, in <module>\nModuleNotFoundError: No module named 'review_extract'")).
		Edit("/p/pyproject.toml", ok("The file has been updated.")).
		Bash("cd /tmp && review-extract --help", ok("usage: review-extract [PR]")).
		Bash("cd /tmp && review-extract", failed("Exit code 1\nNo PR found for the current branch.")).
		Say("It runs from anywhere now; without a PR argument it needs a branch with a PR."))
	if got := sectionOf(body, daily.HeadLearned); !contains(got, "1 attempt failed (ModuleNotFoundError: No module named 'review_extract') before one succeeded") {
		t.Errorf("learned: %q\n%s", got, body)
	}
	if got := failures(body); !contains(got, "No PR found for the current branch.") {
		t.Errorf("not done: %q\n%s", got, body)
	}
}

// TestRetriedEditKeepsTheReply: a turn whose edit failed and then
// succeeded keeps its reply's opening under its request; a turn whose
// edit never succeeded does not (Not done corrects its account).
func TestRetriedEditKeepsTheReply(t *testing.T) {
	body := bodyOf(newSession(t).
		User("modernise the recorder").
		Edit("/p/js/recorder.js", failed("String to replace not found in file.")).
		Edit("/p/js/recorder.js", ok("The file has been updated.")).
		Say("Switched to navigator.mediaDevices.getUserMedia and removed the vendor prefixes.").
		User("and document it in the notes").
		Edit("/p/NOTES.md", failed("String to replace not found in file.")).
		Say("Documented the new recorder in the notes.").
		User("thanks").
		Say("You're welcome."))
	if !strings.Contains(body, "- modernise the recorder\n  - answer: Switched to navigator.mediaDevices.getUserMedia") {
		t.Errorf("the retried turn lost its reply:\n%s", body)
	}
	if strings.Contains(body, "answer: Documented the new recorder") {
		t.Errorf("the failed turn kept its reply:\n%s", body)
	}
}
