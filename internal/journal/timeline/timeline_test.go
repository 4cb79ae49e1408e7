package timeline

import (
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

// entry renders a section the way the flush writes it and reads it back.
func entry(t *testing.T, session string, seq int, body string) daily.Entry {
	t.Helper()
	at := time.Date(2026, 11, 24, 9, seq, 0, 0, time.Local)
	raw := daily.Header(at, "p") + daily.Render(daily.Section{Start: at, End: at.Add(time.Minute), SessionID: session, Trigger: "auto", Seq: seq, Body: body})
	secs := daily.Parse([]byte(raw)).Sections
	if len(secs) != 1 {
		t.Fatalf("%d sections", len(secs))
	}
	return secs[0]
}

func sec(t *testing.T, date, session string, seq int, body string) Section {
	return Section{Date: date, Key: session + "#" + string(rune('0'+seq)), Entry: entry(t, session, seq, body)}
}

func TestParseCommitAndTests(t *testing.T) {
	if c, ok := ParseCommit("committed a1b2c3d fix the flush race"); !ok || c.Hash != "a1b2c3d" || c.Subject != "fix the flush race" {
		t.Fatalf("commit %+v %v", c, ok)
	}
	for _, bad := range []string{"committed: $(cat <<'EOF'", "committed xyz1234 subject", "committed abc fix", "changed a.go"} {
		if _, ok := ParseCommit(bad); ok {
			t.Errorf("%q read as a commit", bad)
		}
	}
	cases := []struct {
		in   string
		want Tests
	}{
		{"tests: go test 41 passed, 0 failed", Tests{Runner: "go test", Passed: 41, Failed: 0, Counted: true}},
		{"tests: pytest 3 failed, 10 passed", Tests{Runner: "pytest", Passed: 10, Failed: 3, Counted: true}},
		{"tests: mix test 87 passed", Tests{Runner: "mix test", Passed: 87, Failed: 0, Counted: true}},
		{"tests: npm test failed", Tests{Runner: "npm test", Passed: 0, Failed: 1, Counted: false}},
	}
	for _, c := range cases {
		got, ok := ParseTests(c.in)
		got.Text = ""
		if !ok || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, ok, c.want)
		}
	}
	if _, ok := ParseTests("tests: 3 passed"); ok {
		t.Error("a run without its runner read as tests")
	}
	if (Tests{Runner: "go test", Passed: 41, Failed: 0, Counted: true}).Green() != true || (Tests{Runner: "go test", Passed: 40, Failed: 1, Counted: true}).Green() || (Tests{Runner: "x", Passed: 0, Failed: 0, Counted: true}).Green() {
		t.Error("Green")
	}
}

// TestSameRules: each rule closes what it should and leaves open what it
// should not, on items it was not written for.
func TestSameRules(t *testing.T) {
	cases := []struct {
		open, done string
		closed     bool
	}{
		// the same check
		{"tests: go test 40 passed, 2 failed", "tests: go test 42 passed, 0 failed", true},
		{"tests: go test 40 passed, 2 failed", "tests: go test 41 passed, 1 failed", false},
		{"fix the failing `go test ./internal/...` run", "tests: go test 12 passed, 0 failed", true},
		{"tests: pytest 1 failed", "tests: go test 12 passed, 0 failed", false},
		// the same file
		{"docs/api.md was never written (permission refused)", "wrote docs/api.md", true},
		{"write `internal/store/api.md`", "wrote store/api.md", true},
		{"write `internal/store/api.md`", "wrote api.md", false},
		{"fix the race in internal/store/x.go", "edited internal/store/x.go", false},
		{"update README.md", "update docs/README.md", false},
		// the same todo
		{"add parser tests", "todo done: add tests for the parser", true},
		{"Add tests for the parser", "todo completed: Add tests for the parser", true},
		{"write the parser tests", "wrote tests for the parser", true},
		{"push the branch", "committed a1b2c3d push notes", false},
		{"update the changelog", "update the README", false},
		{"deploy", "deploy", false}, // one word is not enough to tell
	}
	for _, c := range cases {
		got := identify(c.open).closedBy(c.done, identify(c.done))
		if got != c.closed {
			t.Errorf("%q closed by %q: %v, want %v", c.open, c.done, got, c.closed)
		}
	}
	if !identify("tests: go test 1 failed").same(identify("tests: go test 3 failed")) {
		t.Error("the same failing check raised again is two items")
	}
	if identify("write the migration").same(identify("write the release notes")) {
		t.Error("two todos sharing a verb are one item")
	}
}

// TestOpenItemClosedTwoDaysLater: an item stays open across a day that
// says nothing of it, closes when a later section does it, and is not
// carried after; one raised again is one item with its first day.
func TestOpenItemClosedTwoDaysLater(t *testing.T) {
	var tr Tracker
	d1 := sec(t, "2026-11-23", "s1", 1, "### Asked\n- set up CI\n### Open\n- add parser tests\n- tests: go test 40 passed, 2 failed\n- write docs/api.md\n")
	tr.Add(d1)
	tr.Add(sec(t, "2026-11-24", "s2", 1, "### Asked\n- something else\n### Done\n- committed 0a1b2c3 unrelated work\n### Open\n- tests: go test 41 passed, 1 failed\n"))
	if got := tr.Open(); len(got) != 3 || got[2].Text != "write docs/api.md" || got[1].Text != "tests: go test 41 passed, 1 failed" || got[1].Since != "2026-11-23" || got[1].Date != "2026-11-24" {
		t.Fatalf("after day 2: %+v", got)
	}
	if n := tr.StillOpen([]string{d1.Key}); n != 2 {
		t.Fatalf("day 1 still has %d open", n)
	}
	tr.Add(sec(t, "2026-11-25", "s3", 1, "### Done\n- todo completed: add parser tests\n- tests: go test 44 passed, 0 failed\n"))
	got := tr.Open()
	if len(got) != 1 || got[0].Text != "write docs/api.md" {
		t.Fatalf("after day 3: %+v", got)
	}
	if by, ok := tr.Closed(d1.Key, "add parser tests"); !ok || by != "s3#1" {
		t.Fatalf("closed by %q %v", by, ok)
	}
	// The first raising of an item closed in its newest words is closed too.
	if _, ok := tr.Closed(d1.Key, "tests: go test 40 passed, 2 failed"); !ok {
		t.Fatal("the item's first raising is not closed")
	}
	if _, ok := tr.Closed(d1.Key, "write docs/api.md"); ok {
		t.Fatal("an item no one closed is closed")
	}
	// A section's own Done does not close its own Open.
	var own Tracker
	own.Add(sec(t, "2026-11-25", "s4", 1, "### Done\n- added tests for the parser\n### Open\n- add parser tests\n"))
	if len(own.Open()) != 1 {
		t.Fatal("a section closed its own open item")
	}
}

func TestSessionsAndLine(t *testing.T) {
	secs := []Section{
		sec(t, "2026-11-24", "s1", 1, "### Asked\n- make the flush atomic\n### Done\n- committed a1b2c3d flush: temp+rename\n- tests: go test 40 passed, 2 failed\n"),
		sec(t, "2026-11-24", "s2", 1, "### Asked\n- did you push?\n"),
		sec(t, "2026-11-24", "s1", 2, "### Asked\n- and the docs\n### Done\n- committed b2c3d4e docs: flush\n- tests: go test 42 passed, 0 failed\n### Not done\n- git push: rejected (non-fast-forward)\n"),
	}
	got := Sessions(secs)
	if len(got) != 2 || got[0].ID != "s1" || len(got[0].Keys) != 2 || got[0].Title != "make the flush atomic" {
		t.Fatalf("%+v", got)
	}
	line := got[0].Line(1)
	want := "09:01 · make the flush atomic · committed a1b2c3d flush: temp+rename; b2c3d4e docs: flush · tests: go test 42 passed, 0 failed · not done: git push: rejected (non-fast-forward) · open 1"
	if line != want {
		t.Fatalf("line\n got %s\nwant %s", line, want)
	}
	if got[1].Substance || !got[0].Substance {
		t.Fatal("substance")
	}
	if got[1].Line(0) != "09:01 · did you push? · no recorded outcome" {
		t.Fatalf("%s", got[1].Line(0))
	}
}

func TestSubstance(t *testing.T) {
	if Substance(entry(t, "s", 1, "### Asked\n- did you push?\n### Final message\n- Yes.\n")) {
		t.Error("a question and its short answer has substance")
	}
	if !Substance(entry(t, "s", 1, "### Asked\n- explain the flush\n### Final message\n- "+strings.Repeat("word ", 250)+"\n")) {
		t.Error("a long answer has none")
	}
	if !Substance(entry(t, "s", 1, "### Asked\n- x\n### Decided\n- keep the cap\n")) {
		t.Error("a decision has none")
	}
	hand := daily.Parse([]byte("# 2026-11-24\n\n## notes\nremember the staging cluster\n")).Sections[0]
	if !Substance(hand) || Title(hand) != "remember the staging cluster" {
		t.Errorf("a hand-written section: %v %q", Substance(hand), Title(hand))
	}
}

func TestClip(t *testing.T) {
	if got := Clip("one  two\nthree", 20); got != "one two three" {
		t.Fatal(got)
	}
	if got := Clip(strings.Repeat("слово ", 40), 30); len([]rune(got)) > 30 || !strings.HasSuffix(got, "…") {
		t.Fatal(got)
	}
}

// TestGroundedItemForms: the grounded distillate's forms — go test's
// packages, the runner's own line after the counts, a failing run in
// Open, a labelled todo — read as the same work.
func TestGroundedItemForms(t *testing.T) {
	cases := []struct {
		in   string
		want Tests
	}{
		{"tests: go test 3 packages ok, 0 failed", Tests{Runner: "go test", Passed: 3, Counted: true}},
		{"tests: pytest 27 passed, 0 failed (27 passed, 1 skipped in 1.48s)", Tests{Runner: "pytest", Passed: 27, Counted: true}},
		{"tests: mix test 60 passed, 5 failed (65 tests, 5 failures): test a, test b", Tests{Runner: "mix test", Passed: 60, Failed: 5, Counted: true}},
		{"not done: tests failing: npm test 11 passed, 1 failed", Tests{Runner: "npm test", Passed: 11, Failed: 1, Counted: true}},
		{"tests: go test passed (exit 0, no counts printed)", Tests{Runner: "go test"}},
		{"tests: go test 41 passed, 0 failed; 2 earlier runs failed: TestA, TestB", Tests{Runner: "go test", Passed: 41, Counted: true}},
	}
	for _, c := range cases {
		got, ok := ParseTests(c.in)
		got.Text = ""
		if !ok || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, ok, c.want)
		}
	}
	open := identify("not done: tests failing: go test 2 packages ok, 1 failed: TestFlush")
	if !open.closedBy("tests: go test 3 packages ok, 0 failed", identify("tests: go test 3 packages ok, 0 failed")) {
		t.Error("a failing go test is not closed by a green one")
	}
	if !identify("todo: Add tests for the parser").same(identify("in progress: Add tests for the parser")) {
		t.Error("a todo and the same todo in progress are two items")
	}
	if !identify("todo: write the parser tests").closedBy("committed a1b2c3d write the parser tests", identify("committed a1b2c3d write the parser tests")) {
		t.Error("a todo is not closed by the commit that names it")
	}
}

// TestDetail: a bounded detail holds a bit of each subsection, its items
// on one line, paths by their last two elements, the final message by its
// head and its tail.
func TestDetail(t *testing.T) {
	final := "Done. " + strings.Repeat("word ", 80) + "Next: run `bd ready` to pick spotter-0p7.1."
	e := entry(t, "s", 1, "### Asked\n- make the flush atomic\n- and document it\n### Done\n- committed a1b2c3d flush: temp+rename\n- wrote `/Users/me/proj/docs/flush.md`\n### Decided\n- temp+rename\n- no fsync of the dir\n### Learned\n"+
		strings.Repeat("- a lesson that takes room in the detail\n", 20)+"### Final message\n- "+final+"\n")
	ses := Sessions([]Section{{Date: "2026-11-24", Key: "s#1", Entry: e}})[0]
	d := ses.Detail(700)
	joined := strings.Join(d, "\n")
	for _, want := range []string{"asked: and document it", "done: wrote `…/docs/flush.md`", "decided:\n\ttemp+rename\n\tno fsync of the dir", "learned:\n\ta lesson", "final message: Done. word", "to pick spotter-0p7.1."} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "a1b2c3d") || strings.Contains(joined, "make the flush atomic") {
		t.Errorf("the line's commit or title repeated:\n%s", joined)
	}
	if n := len([]rune(joined)); n > 700 {
		t.Errorf("%d runes over 700", n)
	}
	if len(ses.Detail(100)) >= len(d) {
		t.Error("a smaller bound holds as much")
	}
}

// TestPushesOfOneRefFold: a branch pushed after each commit is said once
// in the line, with the count and the newest range; another ref or
// remote, and a pull request, stay apart.
func TestPushesOfOneRefFold(t *testing.T) {
	body := "### Done\n" +
		"- committed 1111111 first\n" +
		"- pushed feat (new branch) to github.com:o/r.git\n" +
		"- pushed feat (1111111..2222222) to github.com:o/r.git\n" +
		"- pushed v1.0 (new tag) to github.com:o/r.git\n" +
		"- pushed feat (2222222..3333333) to github.com:o/r.git\n" +
		"- pushed feat (3333333..4444444) to gitlab.com:o/r.git\n" +
		"- opened PR https://github.com/o/r/pull/7\n"
	ses := Sessions([]Section{sec(t, "2026-11-24", "s1", 1, body)})
	got := ses[0].Outcome()
	want := "committed 1111111 first · pushed feat ×3, newest (2222222..3333333) to github.com:o/r.git · " +
		"pushed v1.0 (new tag) to github.com:o/r.git · pushed feat (3333333..4444444) to gitlab.com:o/r.git · opened PR https://github.com/o/r/pull/7"
	if got != want {
		t.Errorf("outcome:\n got %q\nwant %q", got, want)
	}
}
