package distill

import (
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// TestRetryFromAnotherFolder: a build script that failed from the root
// and worked from its folder is one action, done, with how it worked; no
// Not done, no Open.
func TestRetryFromAnotherFolder(t *testing.T) {
	s := newSession(t).User("build the assets").
		Bash("node assets/build.js", failed("Exit code 1\nError: Cannot find module './config.json'")).
		Bash("cd assets && node build.js", ok("built 12 files")).
		Say("The assets are built.")
	acts := Actions(segmentOf(s))
	if len(acts) != 1 {
		t.Fatalf("actions: %+v", acts)
	}
	a := acts[0]
	if a.Intent != "run build.js" || !a.Done || a.Failures != 1 || a.Attempts != 2 || a.Status != transcript.StatusOK ||
		a.FirstError != "Error: Cannot find module './config.json'" || a.Worked != "`cd assets && node build.js`" {
		t.Errorf("action: %+v", a)
	}
	body := bodyOf(s)
	assertNone(t, body, daily.HeadNotDone, "build")
	assertNone(t, body, daily.HeadOpen, "build")
	if got := sectionOf(body, daily.HeadLearned); !contains(got, "`node assets/build.js`: 1 attempt failed (Error: Cannot find module './config.json') — worked as `cd assets && node build.js`") {
		t.Errorf("learned: %q\n%s", got, body)
	}
}

// TestRewordedCommitRetry: a commit a hook refused seven times and that
// then went through under another message is one commit, done.
func TestRewordedCommitRetry(t *testing.T) {
	s := newSession(t).User("commit the instrumentation")
	for range 7 {
		s.Bash("git commit -m \"feat: instrument hook controllers\"", failed("Exit code 1\nlint-staged failed: 2 errors"))
	}
	s.Bash("git commit -q -F - <<'EOF'\nfeat: instrument hook controllers with OTEL spans\nEOF\ngit log --oneline -1", ok("d9e611e feat: instrument hook controllers with OTEL spans"))
	s.Say("Committed.")
	acts := Actions(segmentOf(s))
	var commit *Action
	for i := range acts {
		if acts[i].Intent == "git commit" {
			commit = &acts[i]
		}
	}
	if commit == nil || !commit.Done || commit.Failures != 7 || commit.NewestError != "lint-staged failed: 2 errors" {
		t.Fatalf("commit: %+v", acts)
	}
	body := bodyOf(s)
	if got := sectionOf(body, daily.HeadDone); !contains(got, "committed d9e611e feat: instrument hook controllers with OTEL spans") {
		t.Errorf("done: %q\n%s", got, body)
	}
	assertNone(t, body, daily.HeadNotDone, "commit")
	assertNone(t, body, daily.HeadOpen, "commit")
}

// TestStillFailingSaysTheNewestError: an action that never worked is Not
// done with its newest error, not its first, and the count.
func TestStillFailingSaysTheNewestError(t *testing.T) {
	body := bodyOf(newSession(t).User("fetch the rates").
		Bash("curl -sf https://api.rates.example/v1/eur", failed("Exit code 22\ncurl: (22) The requested URL returned error: 403")).
		Bash("curl -sf -H 'Accept: application/json' https://api.rates.example/v2/eur", failed("Exit code 22\ncurl: (22) The requested URL returned error: 429")).
		Say("The API refuses us."))
	if got := failures(body); len(got) != 1 || got[0] != "`curl -sf -H 'Accept: application/json' https://api.rates.example/v2/eur`: failed (curl: (22) The requested URL returned error: 429) (2 attempts)" {
		t.Errorf("not done: %q\n%s", got, body)
	}
}

// TestFallbackClosesAFetch: a download refused with 403 and the same
// host's page then fetched another way is done.
func TestFallbackClosesAFetch(t *testing.T) {
	body := bodyOf(newSession(t).User("read the changelog").
		Bash("curl -sf https://docs.example.com/changelog", failed("Exit code 22\ncurl: (22) The requested URL returned error: 403")).
		Call("WebFetch", map[string]any{"url": "https://docs.example.com/changelog", "prompt": "list the changes"}, ok("v2 drops Python 3.8")).
		Say("v2 drops Python 3.8."))
	assertNone(t, body, daily.HeadNotDone, "curl")
}

// TestStaleTaskListClosedByCommits: tasks the model never marked done
// but committed are not open; a task nothing names stays open.
func TestStaleTaskListClosedByCommits(t *testing.T) {
	s := newSession(t).User("solve Q3 and Q4, then aggregate the solutions").
		Call("TaskCreate", map[string]any{"subject": "Solve Q3 window functions"}, ok("Task #1 created successfully: Solve Q3 window functions")).
		Call("TaskCreate", map[string]any{"subject": "Solve Q4 recursive CTE"}, ok("Task #2 created successfully: Solve Q4 recursive CTE")).
		Call("TaskCreate", map[string]any{"subject": "Aggregate SOLUTIONS.md"}, ok("Task #3 created successfully: Aggregate SOLUTIONS.md")).
		Call("TaskCreate", map[string]any{"subject": "Benchmark the Q5 query plans"}, ok("Task #4 created successfully: Benchmark the Q5 query plans")).
		Bash("git commit -m 'Solve Q3 with window functions'", ok("[main 1a2b3c4] Solve Q3 with window functions\n 1 file changed")).
		Bash("git commit -m 'Q4: recursive CTE solution'", ok("[main 2b3c4d5] Q4: recursive CTE solution\n 1 file changed")).
		Write("/p/SOLUTIONS.md", ok("File created successfully at: /p/SOLUTIONS.md")).
		Bash("git commit -m 'Aggregate the solutions in SOLUTIONS.md'", ok("[main 3c4d5e6] Aggregate the solutions in SOLUTIONS.md\n 1 file changed")).
		Say("Q3 and Q4 are solved and aggregated.")
	body := bodyOf(s)
	if got := sectionOf(body, daily.HeadOpen); len(got) != 1 || got[0] != "todo: Benchmark the Q5 query plans" {
		t.Errorf("open: %q\n%s", got, body)
	}
}

// TestInitIsARequest: /init is the session's only request and its work
// is the session's: the request is kept, the file it wrote is changed.
func TestInitIsARequest(t *testing.T) {
	s := newSession(t).User("<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>")
	s.Raw(map[string]any{"type": "user", "uuid": "meta", "isMeta": true, "timestamp": "2026-11-30T09:00:02Z", "sessionId": "sess-1", "cwd": "/p",
		"message": map[string]any{"role": "user", "content": "Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code."}})
	body := bodyOf(s.Write("/p/CLAUDE.md", ok("File created successfully at: /p/CLAUDE.md")).
		Say("I've created CLAUDE.md with the build commands and the architecture."))
	if got := sectionOf(body, daily.HeadAsked); len(got) != 1 || got[0] != "/init" {
		t.Errorf("asked: %q\n%s", got, body)
	}
	if got := sectionOf(body, daily.HeadFiles); !contains(got, "changed: `CLAUDE.md`") {
		t.Errorf("files: %q\n%s", got, body)
	}
}

// TestSkillIsNoOutcome: a skill's result says it was loaded; what it was
// asked to build is not done by that, so it is listed with the commands.
func TestSkillIsNoOutcome(t *testing.T) {
	body := bodyOf(newSession(t).User("build the program").
		Call("Skill", map[string]any{"skill": "build-with-claude", "args": "Build the complete billing program"}, ok("Launching skill: build-with-claude")).
		Bash("cargo build", failed("Exit code 127\ncargo: command not found")).
		Say("The toolchain is missing."))
	assertNone(t, body, daily.HeadDone, "skill", "Build the complete")
	if got := sectionOf(body, daily.HeadFiles); !contains(got, "skills: `build-with-claude Build the complete billing program`") {
		t.Errorf("files: %q\n%s", got, body)
	}
}

// TestDecidedOnlyFromSentences: a list of names with "Decision" in it, a
// dictated prompt running on and lines of code are no decision and no
// lesson; a sentence saying one is, code spans and all.
func TestDecidedOnlyFromSentences(t *testing.T) {
	dictated := "so what I want is that we go with the audit log being written on every request and then the " +
		"logger picks it up and we also decided earlier that the retention is thirty days but maybe it is ninety " +
		"I am not sure let us think about it and then also the export should be nightly"
	body := bodyOf(newSession(t).User(dictated).
		Say("The types are AuditEntry, AuditLogger, AuditResult, Decision, RetentionPolicy.").
		Say("The root cause: `os.Exit(1)` in `main.go` skips the deferred `logger.Flush()` call.").
		Say("if err != nil { return fmt.Errorf(\"decided: %w\", err) }\nraise ValueError(\"the issue is the_config.yaml\")").
		Say("We'll use a nightly export instead of a live stream, since the warehouse loads once a day.").
		Say("Done."))
	if got := sectionOf(body, daily.HeadDecided); len(got) != 1 || got[0] != "We'll use a nightly export instead of a live stream, since the warehouse loads once a day." {
		t.Errorf("decided: %q\n%s", got, body)
	}
	if got := sectionOf(body, daily.HeadLearned); len(got) != 1 || got[0] != "The root cause: `os.Exit(1)` in `main.go` skips the deferred `logger.Flush()` call." {
		t.Errorf("learned: %q\n%s", got, body)
	}
}

// TestCorrectionReplaces: the user's correction replaces what it
// corrects: the superseded answer is gone, the correction and the answer
// to it stay.
func TestCorrectionReplaces(t *testing.T) {
	for _, c := range []struct{ fix, wrong, right string }{
		{"no, it's V4", "1inch v3 router", "V4"},
		{"actually it is DOMI", "stablecoin", "DOMI"},
		{"not the staging bucket but the archive one", "staging bucket", "archive"},
	} {
		body := bodyOf(newSession(t).User("which contract is this?").
			Say("It looks like the 1inch v3 router; the token is a stablecoin and the files sit in the staging bucket.").
			User(c.fix).
			Say("You're right: the router is 1inch V4, the token is DOMI and the files are in the archive bucket.").
			User("thanks, note it in the README").
			Edit("/p/README.md", ok("The file has been updated successfully.")).
			Say("Noted in the README."))
		if strings.Contains(body, "It looks like") || c.wrong != "staging bucket" && strings.Contains(body, c.wrong) {
			t.Errorf("%q: the superseded %q is kept:\n%s", c.fix, c.wrong, body)
		}
		if !strings.Contains(body, c.fix) || !strings.Contains(body, c.right) {
			t.Errorf("%q: the correction is lost:\n%s", c.fix, body)
		}
	}
	// A request that merely holds "no" is no correction.
	for _, r := range []string{"Now add the parser", "not sure, but try the cache first, please", "it should handle not only files but also folders", "No worries, thanks! Can you now write the migration for the orders table and run it against the staging copy? " + strings.Repeat("More context here. ", 20)} {
		if correction(r) {
			t.Errorf("%q read as a correction", r)
		}
	}
}
