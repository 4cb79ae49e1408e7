package inject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/longterm/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
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

func TestInjectGolden(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	l := project.Layout{Root: root}
	addSection(t, l, now.AddDate(0, 0, -5), "old-session", "### Asked\n- something from last week\n")
	addSection(t, l, now.AddDate(0, 0, -2), "prev-session", "### Asked\n- set up CI\n### Open\n- flaky test\n")
	addSection(t, l, now.Add(-2*time.Hour), "morning1", "### Asked\n- add --json to lint\n")
	addSection(t, l, now.Add(-1*time.Hour), "morning2", "### Decided\n- keep the cap at 9,000\n")
	testfile.Write(t, l.Core(), "# CORE\n- Go, no cgo\n")
	testfile.Write(t, l.PlanFact(), "---\ntype: plan-fact\nproject: proj\nstage: build\nplan_status: on_track\nstatus: active\nnext: ship Q1\nblockers: []\nsummary: hooks work\nupdated: 2026-11-29\n---\n")
	testfile.Write(t, filepath.Join(l.ShortDir(), "rollups", "week", "2026-W47.md"), "old week\n")
	testfile.Write(t, filepath.Join(l.ShortDir(), "rollups", "week", "2026-W48.md"), "# Week 48\n- shipped inject\n")
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got = strings.ReplaceAll(got, root, "<root>")
	testfile.Golden(t, filepath.Join("testdata", "inject.golden"), got)
	if strings.Contains(got, "last week") || strings.Contains(got, "old week") {
		t.Fatal("inject read more than today, the previous day and the newest week")
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

func TestInjectHugeSingleSectionIsCutAtALine(t *testing.T) {
	l := project.Layout{Root: t.TempDir()}
	addSection(t, l, now.Add(-time.Hour), "big", "### Done\n"+strings.Repeat("- ünïcode line\n", 2000))
	got, _ := Build(Options{Layout: l, Now: now, MaxChars: 2000})
	if utf8.RuneCountInString(got) > 2000 || !utf8.ValidString(got) || !strings.Contains(got, "…(cut)") {
		t.Fatalf("bad cut (%d chars)", utf8.RuneCountInString(got))
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
	if !strings.Contains(got, "older sections omitted: "+daily.Path(l.DailyDir(), now)) {
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
	testfile.Write(t, l.Core(), string(longterm.CoreTemplate()))
	testfile.Write(t, l.PlanFact(), string(planfact.Template("proj", now)))
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Fatalf("untouched templates injected:\n%s", got)
	}
	testfile.Write(t, l.Core(), string(longterm.CoreTemplate())+"- deploys go through the staging cluster first\n")
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
