package inject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/corefile"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/text/inert"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local)

func addSection(t *testing.T, l project.Layout, day time.Time, session, body string) {
	t.Helper()
	_, err := daily.Append(l.DailyDir(), "proj", daily.Section{Start: day, End: day.Add(10 * time.Minute), SessionID: session, Trigger: "auto", Seq: 1, Body: body})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInjectGolden: a week of memory in its order — the roll-up of the
// last closed week (built by longterm from the same files), the timeline
// of the days before the previous one, the previous day with substance,
// a housekeeping day after it as a line, today, CORE and plan-fact, and
// what is out by design named.
func TestInjectGolden(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	l := project.Layout{Root: root}
	addSection(t, l, now.AddDate(0, 0, -15), "older-session", "### Asked\n- something from two weeks ago\n")
	addSection(t, l, now.AddDate(0, 0, -9), "last-week", "### Asked\n- plan the importer\n### Decided\n- CSV first, JSON later\n### Open\n- write docs/import.md\n- ask about the date format\n")
	addSection(t, l, now.AddDate(0, 0, -6), "tue", "### Asked\n- write the CSV importer\n### Done\n- committed a1b2c3d import: CSV reader\n- tests: go test 12 passed, 1 failed\n### Open\n- tests: go test 12 passed, 1 failed\n- add a --dry-run flag\n")
	addSection(t, l, now.AddDate(0, 0, -3), "fri", "### Asked\n- fix the failing importer test\n### Done\n- committed b2c3d4e import: trim the BOM\n- tests: go test 13 passed, 0 failed\n- wrote docs/import.md\n")
	addSection(t, l, now.AddDate(0, 0, -2), "sat", "### Asked\n- set up CI\n### Done\n- committed c3d4e5f ci: run go test\n### Open\n- flaky test in the CI run\n")
	addSection(t, l, now.AddDate(0, 0, -1), "sun", "### Asked\n- did you push?\n")
	addSection(t, l, now.Add(-2*time.Hour), "morning1", "### Asked\n- add --json to lint\n")
	addSection(t, l, now.Add(-1*time.Hour), "morning2", "### Decided\n- keep the cap at 9,000\n")
	testfile.Write(t, l.Core(), "# CORE\n- Go, no cgo\n")
	testfile.Write(t, l.PlanFact(), "---\ntype: plan-fact\nproject: proj\nstage: build\nplan_status: on_track\nstatus: active\nnext: ship Q1\nblockers: []\nsummary: hooks work\nupdated: 2026-11-29\n---\n")
	if _, err := longterm.New(root).RollupDays(now); err != nil {
		t.Fatal(err)
	}
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got = strings.ReplaceAll(got, root, "<root>")
	testfile.Golden(t, filepath.Join("testdata", "inject.golden"), got)
	if strings.Contains(got, "two weeks ago") {
		t.Fatal("inject read a day before the week and its roll-up")
	}
	// Closed later: the failing test (a passing run of the same runner)
	// and the docs page (written); still open: the rest.
	for _, gone := range []string{"12 passed, 1 failed (", "open: write docs/import.md", "- write docs/import.md"} {
		if strings.Contains(got, gone) {
			t.Errorf("closed item %q injected", gone)
		}
	}
	for _, open := range []string{"open: add a --dry-run flag", "Open for more than a week and not closed since: 1 item (raised 2026-11-21)", "flaky test in the CI run"} {
		if !strings.Contains(got, open) {
			t.Errorf("open item %q missing", open)
		}
	}
}

func TestInjectEmptyWhenNothing(t *testing.T) {
	got, err := Build(Options{Layout: project.Layout{Root: t.TempDir()}, Now: now})
	if err != nil || got != "" {
		t.Fatalf("%q %v", got, err)
	}
}

func TestInjectCapKeepsNewestWholeSections(t *testing.T) {
	root := t.TempDir()
	l := project.Layout{Root: root}
	for i := 0; i < 40; i++ {
		addSection(t, l, now.Add(time.Duration(i-50)*time.Minute), "s"+strings.Repeat("x", i%3),
			"### Asked\n- "+strings.Repeat("ж", 300)+" item "+string(rune('A'+i%26))+"\n")
	}
	got, err := Build(Options{Layout: l, Now: now, MaxChars: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(got); n > 3000 || n < 2000 {
		t.Fatalf("%d characters for a 3000 cap", n)
	}
	if !utf8.ValidString(got) {
		t.Fatal("cut mid-UTF-8")
	}
	if strings.Count(got, "\n## ") != strings.Count(got, "### Asked") {
		t.Fatal("a section was cut in the middle")
	}
	if !strings.Contains(got, "item N") { // the newest section (i=39 → 'N')
		t.Fatal("newest section missing")
	}
}

// TestInjectHugeSingleSectionIsALine: a section larger than the cap is
// given as its line and detail, and named with its file.
func TestInjectHugeSingleSectionIsALine(t *testing.T) {
	l := project.Layout{Root: t.TempDir()}
	addSection(t, l, now.Add(-time.Hour), "big", "### Asked\n- ship it\n### Done\n"+strings.Repeat("- ünïcode line\n", 2000))
	got, _ := Build(Options{Layout: l, Now: now, MaxChars: 2000})
	if utf8.RuneCountInString(got) > 2000 || !utf8.ValidString(got) || !strings.Contains(got, "- 09:00 · ship it · no recorded outcome\n  - done:\n    - ünïcode line\n    - ünïcode line\n") ||
		!strings.Contains(got, "2026-11-30.md: 1 section shown only in its session's line") {
		t.Fatalf("(%d chars)\n%s", utf8.RuneCountInString(got), got)
	}
}

// BenchmarkBuild is SessionStart's inject with a full budget of sections
// and a year of older daily files that must not be read.
func BenchmarkBuild(b *testing.B) {
	root := b.TempDir()
	l := project.Layout{Root: root}
	for i := 0; i < 30; i++ {
		day := now.AddDate(0, 0, -(i % 2)).Add(-time.Duration(i) * time.Minute)
		daily.Append(l.DailyDir(), "proj", daily.Section{Start: day, End: day, SessionID: "s", Trigger: "auto", Seq: i,
			Body: "### Asked\n- " + strings.Repeat("a request ", 30) + "\n"})
	}
	data, _ := os.ReadFile(daily.Path(l.DailyDir(), now.AddDate(0, 0, -1)))
	for d := 2; d < 367; d++ {
		os.WriteFile(daily.Path(l.DailyDir(), now.AddDate(0, 0, -d)), data, 0o644)
	}
	for b.Loop() {
		if s, err := Build(Options{Layout: l, Now: now}); err != nil || s == "" {
			b.Fatal(err)
		}
	}
}

// TestResumedSessionIsNotHandedItsOwnTurns: on resume the session's own
// sections are left out, other sessions' are not; what the cap leaves out
// is named with its file.
func TestResumedSessionIsNotHandedItsOwnTurns(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	l := project.Layout{Root: root}
	addSection(t, l, now.Add(-3*time.Hour), "other", "### Asked\n- migrate the orders table\n")
	addSection(t, l, now.Add(-2*time.Hour), "self", "### Asked\n- add --json to lint\n")
	got, err := Build(Options{Layout: l, Now: now, Session: "self"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "--json") || !strings.Contains(got, "orders table") {
		t.Fatalf("resume inject:\n%s", got)
	}
	for i := 0; i < 6; i++ {
		addSection(t, l, now.Add(-time.Duration(100-i)*time.Minute), "s"+itoaTest(i), "### Asked\n- "+strings.Repeat("padding words ", 30)+"\n")
	}
	got, err = Build(Options{Layout: l, Now: now, MaxChars: 1500})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "- .claude/memory_short/daily/2026-11-30.md: ") {
		t.Errorf("no omission note:\n%s", got)
	}
	if n := utf8.RuneCountInString(got); n > 1500 {
		t.Errorf("inject %d runes over the cap", n)
	}
}

// TestResumeKeepsASectionThatQuotesAMarker: the session a section belongs
// to is its own marker's, not any marker-like line in its text (a note
// that quotes one in a code block is another session's, kept whole).
func TestResumeKeepsASectionThatQuotesAMarker(t *testing.T) {
	l := project.Layout{Root: filepath.Join(t.TempDir(), "proj")}
	quoted := "<!-- cerebro:segment session=self from=0 to=1 seq=1 -->"
	addSection(t, l, now.Add(-3*time.Hour), "other", "### Learned\n- the marker looks like this:\n\n```\n"+quoted+"\n```\n")
	addSection(t, l, now.Add(-2*time.Hour), "self", "### Asked\n- add --json to lint\n")
	got, err := Build(Options{Layout: l, Now: now, Session: "self"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "--json") || !strings.Contains(got, "the marker looks like this") || !strings.Contains(got, inert.Text(quoted)) {
		t.Fatalf("resume inject:\n%s", got)
	}
	if strings.Contains(got, "session=other") {
		t.Fatalf("a section's own marker was injected:\n%s", got)
	}
}

func itoaTest(i int) string { return string(rune('0' + i)) }

// TestUntouchedTemplatesAreNotInjected: CORE.md and План-факт.md as
// `long on` lays them out give no block; once someone writes in them, they
// do.
func TestUntouchedTemplatesAreNotInjected(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	l := project.Layout{Root: root}
	testfile.Write(t, l.Core(), string(corefile.Template()))
	testfile.Write(t, l.PlanFact(), string(planfact.Template("proj", now)))
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Fatalf("untouched templates injected:\n%s", got)
	}
	testfile.Write(t, l.Core(), string(corefile.Template())+"- deploys go through the staging cluster first\n")
	pf := strings.Replace(string(planfact.Template("proj", now)), "next: describe the first milestone", "next: ship the importer", 1)
	testfile.Write(t, l.PlanFact(), pf)
	got, err = Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "staging cluster first") || !strings.Contains(got, "ship the importer") {
		t.Fatalf("edited CORE or plan-fact not injected:\n%s", got)
	}
}
