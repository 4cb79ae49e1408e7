package shortterm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript/transcripttest"
)

// The memory of a session read as a story with an end (#40): each case
// is a small transcript played through the hooks (Stop counts and
// flushes, SessionEnd flushes the rest), and what matters is what the
// next session's SessionStart says of it.

// play writes the session's transcript where the hooks read it and runs
// a turn's end and the session's end over it; a pre-compact flush after
// each of flushes parts when the transcript is given in parts.
func (f *memoryFixture) play(t *testing.T, session string, parts ...*transcripttest.Session) {
	t.Helper()
	h := f.hook(session)
	if err := os.MkdirAll(filepath.Dir(h.Transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	var data []byte
	for i, p := range parts {
		data = append(data, p.Bytes()...)
		if err := os.WriteFile(h.Transcript, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := f.m.Stop(context.Background(), h); err != nil {
			t.Fatal(err)
		}
		if i < len(parts)-1 {
			if err := f.m.PreCompact(context.Background(), h); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.end(t, session)
}

// story starts a transcript of session id.
func story(t *testing.T, id string) *transcripttest.Session {
	s := transcripttest.New(t)
	s.ID = id
	return s
}

// recalled plays the session and returns what the next session is given.
func recalled(t *testing.T, parts ...*transcripttest.Session) string {
	t.Helper()
	f := newMemory(t)
	f.play(t, parts[0].ID, parts...)
	return f.start(t, "next", "startup")
}

func mustHave(t *testing.T, got string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(got, p) {
			t.Errorf("missing %q in\n%s", p, got)
		}
	}
}

func mustNotHave(t *testing.T, got string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(got, p) {
			t.Errorf("has %q in\n%s", p, got)
		}
	}
}

func TestStoryRewordedCommitRetry(t *testing.T) {
	s := story(t, "commit-retry").User("commit the instrumentation")
	for range 3 {
		s.Bash(`git commit -m "feat: instrument hook controllers"`, transcripttest.Failed("Exit code 1\nlint-staged failed: 2 errors"))
	}
	s.Bash(`git commit -m "feat: instrument hook controllers with OTEL spans"`,
		transcripttest.OK("[main d9e611e] feat: instrument hook controllers with OTEL spans\n 3 files changed")).
		Say("Committed d9e611e after fixing the lint errors.")
	got := recalled(t, s)
	mustHave(t, got, "committed d9e611e feat: instrument hook controllers with OTEL spans",
		"3 attempts failed (lint-staged failed: 2 errors) before one succeeded")
	mustNotHave(t, got, "### Not done", "not done:")
}

func TestStoryBuildFromAnotherFolder(t *testing.T) {
	got := recalled(t, story(t, "build").User("build the assets").
		Bash("node assets/build.js", transcripttest.Failed("Exit code 1\nError: Cannot find module './config.json'")).
		Bash("cd assets && node build.js", transcripttest.OK("built 12 files")).
		Say("The assets are built.").
		User("how long did it take?").
		Say("About four seconds."))
	mustHave(t, got, "worked as `cd assets && node build.js`")
	mustNotHave(t, got, "### Not done", "not done:")
}

// TestStoryStaleTaskListAcrossSessions: tasks a session created and
// committed without marking them done are not open; the week does not
// show them, nor the failure a later session's success closed.
func TestStoryStaleTaskListAcrossSessions(t *testing.T) {
	f := newMemory(t)
	f.play(t, "tasks", story(t, "tasks").User("solve Q3 and Q4, then aggregate the solutions").
		Call("TaskCreate", map[string]any{"subject": "Solve Q3 window functions"}, transcripttest.OK("Task #1 created successfully: Solve Q3 window functions")).
		Call("TaskCreate", map[string]any{"subject": "Solve Q4 recursive CTE"}, transcripttest.OK("Task #2 created successfully: Solve Q4 recursive CTE")).
		Call("TaskCreate", map[string]any{"subject": "Document the Q5 benchmark"}, transcripttest.OK("Task #3 created successfully: Document the Q5 benchmark")).
		Bash("git commit -m 'Solve Q3 with window functions'", transcripttest.OK("[main 1a2b3c4] Solve Q3 with window functions\n 1 file changed")).
		Bash("git commit -m 'Q4: recursive CTE solution'", transcripttest.OK("[main 2b3c4d5] Q4: recursive CTE solution\n 1 file changed")).
		Bash("./scripts/publish.sh", transcripttest.Failed("Exit code 1\nerror: no token")).
		Say("Q3 and Q4 are solved; publishing needs a token."))
	f.now = f.now.Add(24 * 60 * 60 * 1e9)
	f.play(t, "later", story(t, "later").User("publish the solutions, the token is set now").
		Bash("cd scripts && ./publish.sh", transcripttest.OK("published 2 solutions")).
		Say("Publishing.").User("go on").
		Write("/p/docs/q5.md", transcripttest.OK("File created successfully at: /p/docs/q5.md")).
		Say("Published."))
	f.now = f.now.Add(24 * 60 * 60 * 1e9)
	got := f.start(t, "next", "startup")
	mustHave(t, got, "todo: Document the Q5 benchmark", "committed 1a2b3c4", "committed 2b3c4d5")
	mustNotHave(t, got, "todo: Solve Q3", "todo: Solve Q4", "publish.sh`: failed")
}

func TestStoryCorrection(t *testing.T) {
	got := recalled(t, story(t, "fix").User("which router contract is this?").
		Say("It looks like the 1inch v3 router, and the token is a stablecoin.").
		User("no, it's V4, and actually the token is DOMI").
		Say("You're right: the 1inch V4 router, and the token is DOMI.").
		User("note that in the README").
		Edit("/p/README.md", transcripttest.OK("The file has been updated successfully.")).
		Say("Noted."))
	mustHave(t, got, "no, it's V4, and actually the token is DOMI", "the 1inch V4 router")
	mustNotHave(t, got, "1inch v3", "stablecoin")
}

func TestStoryOfferIsNoOpenItem(t *testing.T) {
	got := recalled(t, story(t, "offer").User("write the parser").
		Write("/p/parse.go", transcripttest.OK("File created successfully at: /p/parse.go")).
		Say("The parser is written. Want me to help you scaffold a Maven project? Should I also add tests?"))
	mustHave(t, got, "changed: `parse.go`")
	mustNotHave(t, got, "### Open", "open:")
}

func TestStoryColouredTestOutput(t *testing.T) {
	got := recalled(t, story(t, "vitest").User("does the suite pass?").Say("Let me run it.").User("run the tests").
		Bash("npx vitest run", transcripttest.OK("\x1b[32m✓\x1b[39m src/a.test.ts \x1b[2m(15)\x1b[22m\n\n\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m\x1b[90m (1)\x1b[39m\n\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m15 passed\x1b[39m\x1b[22m\x1b[90m (15)\x1b[39m")).
		Say("All green."))
	mustHave(t, got, "tests: vitest 15 passed, 0 failed")
	mustNotHave(t, got, "no counts printed", "\x1b")
}

func TestStoryInit(t *testing.T) {
	s := story(t, "init").User("<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>")
	s.Raw(map[string]any{"type": "user", "uuid": "meta", "isMeta": true, "timestamp": "2026-11-30T09:00:02Z", "sessionId": "init", "cwd": "/p",
		"message": map[string]any{"role": "user", "content": "Please analyze this codebase and create a CLAUDE.md file."}})
	got := recalled(t, s.Write("/p/CLAUDE.md", transcripttest.OK("File created successfully at: /p/CLAUDE.md")).
		Say("I've created CLAUDE.md with the build commands and the architecture."))
	mustHave(t, got, "- /init\n", "changed: `CLAUDE.md`")
}

// TestStoryTwentyFlushes: a session flushed twenty times keeps its newest
// sections whole and rolls the older ones up into its line: every
// request is there, none cut mid-word, no two items joined on one line.
func TestStoryTwentyFlushes(t *testing.T) {
	var parts []*transcripttest.Session
	for i := range 20 {
		p := story(t, "long").User(fmt.Sprintf("step %02d: extend the importer with the %s column and document the %s rules carefully", i, words[i%len(words)], words[(i+3)%len(words)])).
			Edit(fmt.Sprintf("/p/importer/col%02d.go", i), transcripttest.OK("The file has been updated successfully.")).
			Bash(fmt.Sprintf(`git commit -m "importer: read the %s column"`, words[i%len(words)]), transcripttest.OK(fmt.Sprintf("[main %07x] importer: read the %s column\n 1 file changed", 0xa00000+i, words[i%len(words)]))).
			Say(fmt.Sprintf("Step %02d is done: the importer reads the %s column, and the docs say how %s values are checked. %s", i, words[i%len(words)], words[(i+3)%len(words)], strings.Repeat("More detail on the checks. ", 12)))
		parts = append(parts, p)
	}
	got := recalled(t, parts...)
	if n := strings.Count(got, "\n## "); n == 0 || n >= 20 {
		t.Errorf("%d sections whole: want the newest whole and the older rolled up", n)
	}
	mustHave(t, got, "step 19: extend the importer", "committed 0a00013 importer: read the")
	for _, l := range strings.Split(got, "\n") {
		if strings.Contains(l, "; ") && strings.HasPrefix(strings.TrimSpace(l), "- ") && !strings.HasPrefix(l, "- ") {
			t.Errorf("items joined on one line: %q", l)
		}
	}
	// A cut ends at a word: "…" follows a whole word.
	for _, m := range regexp.MustCompile(`(\S+)…`).FindAllStringSubmatch(got, -1) {
		w := strings.Trim(m[1], "`(“")
		if w != "" && !known[strings.ToLower(strings.TrimRight(w, ".,;:"))] && !strings.ContainsAny(w, "0123456789/_.`") {
			t.Errorf("cut mid-word before %q", m[0])
		}
	}
}

var words = []string{"amount", "currency", "date", "account", "reference", "memo", "category", "payee"}

// known are the words of TestStoryTwentyFlushes's text: a cut ends after
// one of them.
var known = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("step extend the importer with column and document rules carefully is done reads docs say how values are checked more detail on checks read importer:") {
		m[w] = true
	}
	for _, w := range words {
		m[w] = true
	}
	return m
}()

// TestStoryOlderPartKeepsItsNamedSentence: when a long session's newer
// sections are shown whole and its older ones rolled up, what an older
// part concluded is its first sentence and the sentences that name
// things (numbers, names, files), not only its preamble.
func TestStoryOlderPartKeepsItsNamedSentence(t *testing.T) {
	filler := strings.Repeat("The rest of the checks went as expected and nothing else changed in the layout. ", 18)
	parts := []*transcripttest.Session{story(t, "league").User("compute the table after the tenth week").
		Write("/p/table.py", transcripttest.OK("File created successfully at: /p/table.py")).
		Say("Done. The tool is built and tested, and the answer is computed and verified against the archive as you asked. " +
			"It took a while because the archive was slow to answer. " +
			"After 10 matchdays (28 Sep 1974): Ipswich Town top on 16 points. " + filler)}
	for i := range 16 {
		parts = append(parts, story(t, "league").User(fmt.Sprintf("step %d: tidy the %s rules and say what changed", i, words[i%len(words)])).
			Edit(fmt.Sprintf("/p/rules%d.py", i), transcripttest.OK("The file has been updated successfully.")).
			Say(fmt.Sprintf("Step %d is done: the %s rules are tidy. %s", i, words[i%len(words)], filler)))
	}
	got := recalled(t, parts...)
	mustHave(t, got, "concluded then", "Done.", "(28 Sep 1974)", "Ipswich Town top on 16 points")
}
