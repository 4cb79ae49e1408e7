package inject

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func weekLayout(t *testing.T) project.Layout {
	return project.Layout{Root: filepath.Join(t.TempDir(), "proj")}
}

// checkCap fails when text is over max or a left-out part is not named.
func checkCap(t *testing.T, text string, max int) {
	t.Helper()
	if n := utf8.RuneCountInString(text); n > max {
		t.Fatalf("%d characters over the %d cap", n, max)
	}
}

// TestTrivialPreviousDayDoesNotHideTheDayBefore: a day of one short
// exchange is a line after the previous day with substance, which is
// given whole.
func TestTrivialPreviousDayDoesNotHideTheDayBefore(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -2), "real", "### Asked\n- migrate the orders table\n### Done\n- committed a1b2c3d orders: add the date index\n### Open\n- backfill the old rows\n")
	addSection(t, l, now.AddDate(0, 0, -1), "chat", "### Asked\n- did you push?\n")
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	whole := strings.Index(got, "## 10:00–10:10 · session real")
	line := strings.Index(got, "- 10:00 · did you push? · no recorded outcome")
	if whole < 0 || line < whole || !strings.Contains(got, "### Open\n- backfill the old rows") {
		t.Fatalf("the day before the trivial one is not given whole before its line:\n%s", got)
	}
	if !strings.Contains(got, `date="2026-11-28"`) {
		t.Fatalf("the previous day with substance is not the 28th:\n%s", got)
	}
}

// TestTwoBigSessionsToday: every session gets its line (with its open
// items) first; then the newest section is given whole, and the older
// big one stays a line, as does yesterday's; the note names each file.
// With less room the newest big section does not fit whole either, and
// yesterday's small one does.
func TestTwoBigSessionsToday(t *testing.T) {
	l := weekLayout(t)
	big := func(topic string) string {
		return "### Asked\n- " + topic + "\n### Done\n- committed a1b2c3d " + topic + "\n### Learned\n" + strings.Repeat("- a long lesson about "+topic+" that takes room\n", 100) +
			"### Open\n- finish the " + topic + " docs\n"
	}
	addSection(t, l, now.AddDate(0, 0, -1), "yday", "### Asked\n- set up CI\n### Done\n- committed 0a0b0c0 ci: go test\n### Learned\n"+
		strings.Repeat("- runners need the cache warmed first\n", 40)+"### Open\n- flaky TestFlush in CI\n")
	addSection(t, l, now.Add(-3*time.Hour), "morning", big("importer"))
	addSection(t, l, now.Add(-time.Hour), "noon", big("exporter"))
	morningLine := "- 07:00 · importer · committed a1b2c3d importer · open 1\n  - open: finish the importer docs\n  - learned:\n    - a long lesson about importer"
	ydayLine := "- 10:00 · set up CI · committed 0a0b0c0 ci: go test · open 1\n  - open: flaky TestFlush in CI\n  - learned:\n    - runners need"
	cases := []struct {
		max        int
		want, gone []string
	}{
		{8000, []string{"## 09:00–09:10 · session noon", morningLine, ydayLine,
			"- .claude/memory_short/daily/2026-11-30.md: 1 section shown only in its session's line\n", "- .claude/memory_short/daily/2026-11-29.md: 1 section shown only in its session's line\n"},
			[]string{"session morning", "session yday"}},
		{6000, []string{morningLine, "- 09:00 · exporter · committed a1b2c3d exporter · open 1\n  - open: finish the exporter docs", "## 10:00–10:10 · session yday",
			"- .claude/memory_short/daily/2026-11-30.md: 2 sections shown only in their session's line\n"},
			[]string{"session noon", "session morning", "2026-11-29.md: "}},
	}
	for _, c := range cases {
		got, err := Build(Options{Layout: l, Now: now, MaxChars: c.max})
		if err != nil {
			t.Fatal(err)
		}
		checkCap(t, got, c.max)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%d: missing %q in\n%s", c.max, w, got)
			}
		}
		for _, w := range c.gone {
			if strings.Contains(got, w) {
				t.Errorf("%d: %q in\n%s", c.max, w, got)
			}
		}
	}
}

// TestRollupThatDoesNotFit: the roll-up's open items, untouched for more
// than a week, are counted with the days they were raised, not listed;
// when not even its heading fits the roll-up is named with its file.
func TestRollupThatDoesNotFit(t *testing.T) {
	l := weekLayout(t)
	var open strings.Builder
	for i := range 40 {
		fmt.Fprintf(&open, "- open item number %d of the old week, still to do\n", i)
	}
	// The 18th is before the window; the roll-up holds its open items.
	addSection(t, l, now.AddDate(0, 0, -12), "old", "### Asked\n- plan the year\n### Open\n"+open.String())
	for i := range 8 {
		addSection(t, l, now.AddDate(0, 0, -1).Add(time.Duration(i)*time.Minute), fmt.Sprintf("yday%d", i),
			fmt.Sprintf("### Asked\n- set up CI, step %d of the eight steps of the pipeline\n### Done\n- committed 0a0b0c%d ci\n", i, i))
	}
	if _, err := longterm.New(l.Root).RollupDays(now.AddDate(0, 0, -5)); err != nil {
		t.Fatal(err)
	}
	rollup := ".claude/memory_short/rollups/week/2026-W47.md"
	got, err := Build(Options{Layout: l, Now: now, MaxChars: 3000})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, 3000)
	if !strings.Contains(got, "Week 2026-W47") || strings.Contains(got, "open item number") ||
		!strings.Contains(got, "Open for more than a week and not closed since: 40 items (raised 2026-11-18), listed in the roll-up.") {
		t.Fatalf("the roll-up's old open items are not counted:\n%s", got)
	}
	got, err = Build(Options{Layout: l, Now: now, MaxChars: 1500})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, 1500)
	if strings.Contains(got, "Week 2026-W47") || !strings.Contains(got, "- "+rollup+": the weekly roll-up 2026-W47") || !strings.Contains(got, "step 7 of") {
		t.Fatalf("a roll-up that does not fit is not named:\n%s", got)
	}
}

// TestOpenItemClosedTwoDaysLaterIsNotCarried: an item raised on Tuesday
// and closed on Thursday is shown neither as an open item nor in
// Tuesday's section; one nobody closed stays.
func TestOpenItemClosedTwoDaysLaterIsNotCarried(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -6), "tue", "### Asked\n- write the importer\n### Open\n- tests: go test 12 passed, 1 failed\n- write docs/import.md\n- add a --dry-run flag\n")
	addSection(t, l, now.AddDate(0, 0, -5), "wed", "### Asked\n- other work\n### Done\n- committed 1a2b3c4 other\n")
	addSection(t, l, now.AddDate(0, 0, -4), "thu", "### Asked\n- fix the importer test\n### Done\n- tests: go test 13 passed, 0 failed\n- wrote docs/import.md\n")
	for _, max := range []int{9000, 1500} {
		got, err := Build(Options{Layout: l, Now: now, MaxChars: max})
		if err != nil {
			t.Fatal(err)
		}
		checkCap(t, got, max)
		if strings.Contains(got, "12 passed, 1 failed\n") || strings.Contains(got, "- write docs/import.md") || strings.Contains(got, "open: write docs") {
			t.Fatalf("cap %d: a closed item is carried:\n%s", max, got)
		}
		if !strings.Contains(got, "add a --dry-run flag") {
			t.Fatalf("cap %d: the open item is gone:\n%s", max, got)
		}
	}
}

// TestResumeAfterTheTimelineWasGiven: a resumed session is handed none of
// the timeline, the roll-up, CORE or the sections it had; only what was
// written since.
func TestResumeAfterTheTimelineWasGiven(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -12), "old", "### Asked\n- plan the year\n### Open\n- choose a licence\n")
	addSection(t, l, now.AddDate(0, 0, -5), "a", "### Asked\n- write the importer\n### Open\n- add a --dry-run flag\n")
	addSection(t, l, now.AddDate(0, 0, -1), "b", "### Asked\n- set up CI\n### Done\n- committed 0a0b0c0 ci\n")
	testfile.Write(t, l.Core(), "# CORE\n- Go, no cgo\n")
	if _, err := longterm.New(l.Root).RollupDays(now); err != nil {
		t.Fatal(err)
	}
	g := &Given{}
	first, err := Build(Options{Layout: l, Now: now, Given: g})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 item (raised 2026-11-18)", "write the importer", "add a --dry-run flag", "set up CI", "no cgo"} {
		if !strings.Contains(first, want) {
			t.Fatalf("startup is missing %q:\n%s", want, first)
		}
	}
	had := map[string]bool{}
	for _, k := range g.Gave {
		had[k] = true
	}
	g = &Given{Had: had}
	if got, err := Build(Options{Layout: l, Now: now, Session: "me", Given: g}); err != nil || got != "" {
		t.Fatalf("resume handed again (%v):\n%s", err, got)
	}
	addSection(t, l, now.Add(-time.Hour), "c", "### Asked\n- tag the release\n")
	got, err := Build(Options{Layout: l, Now: now, Session: "me", Given: &Given{Had: had}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "tag the release") {
		t.Fatalf("the new section is not handed:\n%s", got)
	}
	for _, again := range []string{"choose a licence", "write the importer", "dry-run", "set up CI", "no cgo", "Week 2026-W47"} {
		if strings.Contains(got, again) {
			t.Fatalf("resume handed %q again:\n%s", again, got)
		}
	}
}

// TestCompactAfterATimeline: after a compaction (no Had) everything but
// the session's own sections is handed again.
func TestCompactAfterATimeline(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -5), "a", "### Asked\n- write the importer\n### Open\n- add a --dry-run flag\n")
	addSection(t, l, now.AddDate(0, 0, -1), "b", "### Asked\n- set up CI\n")
	addSection(t, l, now.Add(-time.Hour), "me", "### Asked\n- my own turns\n")
	addSection(t, l, now.AddDate(0, 0, -4), "me", "### Asked\n- my own turns of Wednesday\n")
	got, err := Build(Options{Layout: l, Now: now, Session: "me", Given: &Given{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"write the importer", "add a --dry-run flag", "set up CI"} {
		if !strings.Contains(got, want) {
			t.Fatalf("compact is missing %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "my own turns") {
		t.Fatalf("compact handed the session its own sections:\n%s", got)
	}
}

// TestArchivedDaysOfTheWeekAreRead: a day compile moved to daily/_archive
// is still in the week.
func TestArchivedDaysOfTheWeekAreRead(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -3), "moved", "### Asked\n- write the importer\n### Open\n- add a --dry-run flag\n")
	addSection(t, l, now.AddDate(0, 0, -1), "b", "### Asked\n- set up CI\n")
	from := filepath.Join(l.DailyDir(), "2026-11-27.md")
	testfile.Write(t, filepath.Join(l.ArchiveDir(), "2026-11-27.md"), testfile.Read(t, from))
	if err := os.Remove(from); err != nil {
		t.Fatal(err)
	}
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "write the importer") || !strings.Contains(got, "add a --dry-run flag") || !strings.Contains(got, "daily/_archive/2026-11-27.md") {
		t.Fatalf("the archived day is missing:\n%s", got)
	}
}

// TestRollupAloneIsInjected: with no daily file left, the roll-up's open
// items still reach the session, counted (the newest week, which carried
// the item of the week before).
func TestRollupAloneIsInjected(t *testing.T) {
	l := weekLayout(t)
	addSection(t, l, now.AddDate(0, 0, -12), "old", "### Asked\n- plan the year\n### Open\n- choose a licence\n")
	if _, err := longterm.New(l.Root).RollupDays(now); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(l.DailyDir()); err != nil {
		t.Fatal(err)
	}
	got, err := Build(Options{Layout: l, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "Week 2026-W48") || !strings.Contains(got, "Open for more than a week and not closed since: 1 item (raised 2026-11-18), listed in the roll-up.") {
		t.Fatalf("the roll-up alone:\n%s", got)
	}
}

// TestDetailLeavesOutTheSectionsGivenWhole: of a long session today, the
// newest section comes whole and the older ones stay in the line; the
// line's detail then speaks of the older sections only, so nothing is
// said twice and the room goes to what the sections whole do not hold.
func TestDetailLeavesOutTheSectionsGivenWhole(t *testing.T) {
	l := weekLayout(t)
	add := func(at time.Time, seq int, body string) {
		t.Helper()
		if _, err := daily.Append(l.DailyDir(), "proj", daily.Section{Start: at, End: at.Add(10 * time.Minute), SessionID: "long", Trigger: "auto", Seq: seq, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	filler := func(topic string) string {
		return "### Files and commands\n" + strings.Repeat("- ran: `make "+topic+"` with a long list of arguments that takes room\n", 30)
	}
	add(now.Add(-4*time.Hour), 1, "### Asked\n- build the importer\n### Decided\n- CSV before JSON (the users have spreadsheets)\n"+filler("first"))
	add(now.Add(-3*time.Hour), 2, "### Asked\n- add the exporter\n### Learned\n- the exporter's BOM confuses Excel\n"+filler("second"))
	add(now.Add(-2*time.Hour), 3, "### Asked\n- write the docs\n### Learned\n- the newest lesson, about docs\n### Final message\n- The docs are written.\n"+filler("third"))
	got, err := Build(Options{Layout: l, Now: now, MaxChars: 5000})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, 5000)
	if !strings.Contains(got, "## 08:00–08:10 · session long") || strings.Contains(got, "## 07:00") || strings.Contains(got, "## 06:00") {
		t.Fatalf("the newest section alone should be whole:\n%s", got)
	}
	if n := strings.Count(got, "the newest lesson, about docs"); n != 1 {
		t.Fatalf("the newest section's lesson is said %d times:\n%s", n, got)
	}
	for _, want := range []string{"decided: CSV before JSON", "learned: the exporter's BOM confuses Excel", "asked: add the exporter"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the line's detail lacks the older sections' %q:\n%s", want, got)
		}
	}
}

// TestDetailTakesTheRoomLeft: a line's detail widens to the room the cap
// leaves, not to the nearest of a few fixed sizes.
func TestDetailTakesTheRoomLeft(t *testing.T) {
	l := weekLayout(t)
	var learned strings.Builder
	for i := range 80 {
		fmt.Fprintf(&learned, "- lesson %02d: the importer's reader needs the header row before it can map the columns\n", i)
	}
	addSection(t, l, now.AddDate(0, 0, -3), "tue", "### Asked\n- write the importer\n### Learned\n"+learned.String())
	addSection(t, l, now.AddDate(0, 0, -1), "sun", "### Asked\n- set up CI\n### Done\n- committed 0a0b0c0 ci\n")
	for _, max := range []int{2500, 3000, 4200} {
		got, err := Build(Options{Layout: l, Now: now, MaxChars: max})
		if err != nil {
			t.Fatal(err)
		}
		checkCap(t, got, max)
		// A lesson is about 90 characters: the room left is less than
		// two of them.
		if n := utf8.RuneCountInString(got); n < max-200 {
			t.Fatalf("cap %d: %d characters, the detail left room:\n%s", max, n, got)
		}
		if !strings.Contains(got, "lesson 00") {
			t.Fatalf("cap %d: no detail:\n%s", max, got)
		}
	}
}

// TestEverySessionGetsADetail: when the room left cannot give every
// line its whole detail, it is shared: each session of the timeline says
// what it learned, not the newest alone.
func TestEverySessionGetsADetail(t *testing.T) {
	l := weekLayout(t)
	topics := []string{"importer", "exporter", "scheduler", "mailer", "billing"}
	for i, topic := range topics {
		var learned strings.Builder
		for j := range 8 {
			fmt.Fprintf(&learned, "- %s lesson %d: the %s needs its config read before the first run starts\n", topic, j, topic)
		}
		addSection(t, l, now.AddDate(0, 0, -6+i), topic, "### Asked\n- build the "+topic+"\n### Learned\n"+learned.String())
	}
	addSection(t, l, now.AddDate(0, 0, -1), "sun", "### Asked\n- set up CI\n### Done\n- committed 0a0b0c0 ci\n")
	const max = 3000
	got, err := Build(Options{Layout: l, Now: now, MaxChars: max})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, max)
	for _, topic := range topics {
		if !strings.Contains(got, "learned: "+topic+" lesson 0") && !strings.Contains(got, "learned:\n    - "+topic+" lesson 0") {
			t.Errorf("no detail for the %s session:\n%s", topic, got)
		}
	}
}

// TestSectionsWholeWithoutAGap: a long session's sections come whole
// newest first; once one does not fit, an older one does not come whole
// after the gap, and its items are in the line's detail.
func TestSectionsWholeWithoutAGap(t *testing.T) {
	l := weekLayout(t)
	add := func(at time.Time, seq int, body string) {
		t.Helper()
		if _, err := daily.Append(l.DailyDir(), "proj", daily.Section{Start: at, End: at.Add(10 * time.Minute), SessionID: "long", Trigger: "auto", Seq: seq, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	add(now.Add(-4*time.Hour), 1, "### Asked\n- build the importer\n### Decided\n- CSV before JSON (the users have spreadsheets)\n")
	add(now.Add(-3*time.Hour), 2, "### Asked\n- add the exporter\n### Learned\n"+strings.Repeat("- the exporter's BOM confuses Excel, and a long account of why\n", 80))
	add(now.Add(-2*time.Hour), 3, "### Asked\n- write the docs\n### Final message\n- The docs are written.\n")
	const max = 3000
	got, err := Build(Options{Layout: l, Now: now, MaxChars: max})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, max)
	if !strings.Contains(got, "## 08:00–08:10 · session long") || strings.Contains(got, "## 07:00") || strings.Contains(got, "## 06:00") {
		t.Fatalf("the newest section alone should be whole:\n%s", got)
	}
	if !strings.Contains(got, "decided: CSV before JSON") {
		t.Fatalf("the oldest section is not in the line's detail:\n%s", got)
	}
}

// TestTimelineDetailSaysWhatElseWasAsked: a timeline's line stands alone
// for its session, so its detail gives the session's other requests
// before the replies' openings under them.
func TestTimelineDetailSaysWhatElseWasAsked(t *testing.T) {
	l := weekLayout(t)
	answer := "  - answer: " + strings.Repeat("The importer reads the header row first and maps each column by name. ", 3) + "\n"
	addSection(t, l, now.AddDate(0, 0, -3), "tue", "### Asked\n- write the importer\n"+answer+"- also run it on every push\n  - answer: done, the workflow runs on every push\n")
	addSection(t, l, now.AddDate(0, 0, -1), "sun", "### Asked\n- set up CI\n### Done\n- committed 0a0b0c0 ci\n")
	got, err := Build(Options{Layout: l, Now: now, MaxChars: 1600})
	if err != nil {
		t.Fatal(err)
	}
	checkCap(t, got, 1600)
	if !strings.Contains(got, "  - asked: also run it on every push") && !strings.Contains(got, "  - asked:\n    - also run it on every push") {
		t.Fatalf("the timeline's detail does not say what else was asked:\n%s", got)
	}
}
