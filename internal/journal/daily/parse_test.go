package daily

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// sameSection compares what Render writes with what Parse gives back.
func sameSection(t *testing.T, got, want Section) {
	t.Helper()
	want.Body = strings.TrimSpace(want.Body)
	if !got.Start.Equal(want.Start) || !got.End.Equal(want.End) {
		t.Errorf("times %v–%v, want %v–%v", got.Start, got.End, want.Start, want.End)
	}
	got.Start, got.End, want.Start, want.End = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("section\n got %+v\nwant %+v", got, want)
	}
}

func TestParseRoundTrip(t *testing.T) {
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, time.Local) }
	cases := []struct {
		name    string
		project string
		s       Section
	}{
		{"plain", "myproj", section("8f825584-c7d3-4270-8057-34e78af5df60", 1)},
		{"every list", "a: b's", Section{Start: at(30, 14, 2), End: at(30, 15, 59), SessionID: "s", Trigger: "pre-compact", From: 48211, To: 1 << 40, Seq: 7,
			Body: "### Asked\n- fix the flush\n### Done\n- fixed ([abc1234])\n### Decided\n- temp+rename rather than fsync of the dir\n### Learned\n- rename is atomic on one fs\n### Files and commands\n- `internal/x.go`\n- `go test ./...` ×3\n### Open\n- push"}},
		{"titled", "p", Section{Start: at(30, 9, 0), End: at(30, 9, 30), SessionID: "8f825584-c7d3", Trigger: "auto", Title: "Fix the flush · and its cursor", To: 9, Seq: 1,
			Body: "### Asked\n- fix it"}},
		{"empty body", "p", Section{Start: at(30, 9, 0), End: at(30, 9, 0), SessionID: "abc", Trigger: "manual", Seq: 1}},
		{"across midnight", "p", Section{Start: at(29, 23, 50), End: at(30, 0, 10), SessionID: "x-y", Trigger: "session-end", To: 5, Seq: 2, Body: "### Asked\n- late"}},
		{"code in body", "p", Section{Start: at(30, 10, 0), End: at(30, 11, 0), SessionID: "c", Trigger: "auto", Seq: 3,
			Body: "### Done\n- wrote it\n\n```md\n## not a section\n\n<!-- cerebro:segment session=other from=0 to=1 seq=9 -->\n```\n### Open\n- more"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := Header(c.s.End, c.project) + Render(c.s)
			d := Parse([]byte(file))
			if d.Type != "daily" || d.Date != c.s.End.Format(time.DateOnly) || d.Project != c.project || d.Title != d.Date {
				t.Fatalf("header %+v", d)
			}
			if len(d.Sections) != 1 {
				t.Fatalf("%d sections: %q", len(d.Sections), file)
			}
			e := d.Sections[0]
			sameSection(t, e.Section, c.s)
			if !e.Marked || e.Short != c.s.SessionID[:min(8, len(c.s.SessionID))] {
				t.Errorf("marked %v short %q", e.Marked, e.Short)
			}
			if d.Preamble+e.Raw != file {
				t.Errorf("raw text lost")
			}
			if strings.Contains(e.Text(), "cerebro:segment session="+c.s.SessionID) {
				t.Errorf("Text keeps the marker: %q", e.Text())
			}
		})
	}
}

func TestParseGolden(t *testing.T) {
	data := testfile.Read(t, filepath.Join("testdata", "daily.golden"))
	d := Parse([]byte(data))
	var b strings.Builder
	fmt.Fprintf(&b, "type=%s date=%s project=%s title=%s\n", d.Type, d.Date, d.Project, d.Title)
	for _, e := range d.Sections {
		fmt.Fprintf(&b, "## %s | %s–%s | %s–%s | short=%s trigger=%s session=%s from=%d to=%d seq=%d marked=%v\n",
			e.Heading, e.StartClock, e.EndClock, e.Start.Format("2006-01-02 15:04"), e.End.Format("2006-01-02 15:04"),
			e.Short, e.Trigger, e.SessionID, e.From, e.To, e.Seq, e.Marked)
		for _, l := range e.Lists {
			fmt.Fprintf(&b, "  %s: %q\n", l.Head, l.Items)
		}
		fmt.Fprintf(&b, "  text: %q\n", e.Text())
	}
	golden(t, "daily-parsed", b.String())
	// The file Append wrote is what two Renders give back.
	s1 := section("8f825584-c7d3-4270-8057-34e78af5df60", 1)
	s2 := section("8f825584-c7d3-4270-8057-34e78af5df60", 2)
	s2.Trigger, s2.From, s2.To = "session-end", 48211, 50000
	if len(d.Sections) != 2 {
		t.Fatalf("%d sections", len(d.Sections))
	}
	sameSection(t, d.Sections[0].Section, s1)
	sameSection(t, d.Sections[1].Section, s2)
}

// TestParseHandWrittenDay: a file as people and older tests write it — no
// frontmatter date, sections without markers, CRLF, a marker without seq.
func TestParseHandWrittenDay(t *testing.T) {
	data := "\ufeff---\r\ntype: daily\r\n---\r\n\r\n# 2026-11-24\r\n\r\n## Notes\r\n- loose\r\n### Asked\r\n- why\r\n\r\n" +
		"## 09:12–23:59 · session 8f825584 · auto\r\n<!-- cerebro:segment session=8f825584 from=0 to=10 -->\r\n\r\n### Asked\r\n- q1\r\n-  \r\n  - nested\r\n#### Other\r\n- not asked\r\n"
	d := Parse([]byte(data))
	if d.Date != "2026-11-24" || len(d.Sections) != 2 {
		t.Fatalf("%+v", d)
	}
	n := d.Sections[0]
	if n.Marked || n.SessionID != "" || n.StartClock != "" || !n.Start.IsZero() || !reflect.DeepEqual(n.Items(HeadAsked), []string{"why"}) {
		t.Errorf("hand-written section %+v", n)
	}
	m := d.Sections[1]
	if !m.Marked || m.SessionID != "8f825584" || m.To != 10 || m.Seq != 0 || m.StartClock != "09:12" || m.Start.Hour() != 9 {
		t.Errorf("marked section %+v", m)
	}
	if got := m.Items("asked"); !reflect.DeepEqual(got, []string{"q1", "nested"}) {
		t.Errorf("asked %q", got)
	}
	if strings.Contains(m.Text(), "cerebro:segment") || !strings.HasPrefix(m.Text(), "## 09:12") {
		t.Errorf("text %q", m.Text())
	}
}

// TestTitleIsOneSafeLine: a title is a model's words; in the heading it is
// one line that cannot start a section, close the heading or fake a
// segment marker, and Parse reads back what Render wrote of it.
func TestTitleIsOneSafeLine(t *testing.T) {
	s := section("8f825584-c7d3", 1)
	s.Title = "## Evil\n<!-- cerebro:segment session=x from=0 to=1 seq=1 -->\n### Done\n- " + strings.Repeat("long ", 40)
	file := Header(s.End, "p") + Render(s)
	d := Parse([]byte(file))
	if len(d.Sections) != 1 {
		t.Fatalf("%d sections:\n%s", len(d.Sections), file)
	}
	e := d.Sections[0]
	if e.Title != CleanTitle(s.Title) || e.Trigger != "auto" || !e.Marked || e.Seq != 1 {
		t.Errorf("title %q trigger %q marked %v", e.Title, e.Trigger, e.Marked)
	}
	if strings.Contains(e.Title, "<!--") || strings.HasPrefix(e.Title, "#") || len([]rune(e.Title)) > MaxTitle {
		t.Errorf("unsafe title %q", e.Title)
	}
	if got := e.Items(HeadDone); len(got) != 1 || got[0] != "added `--json`" {
		t.Errorf("the title's words leaked into the body: %q", got)
	}
}

// TestParseHeadingsOldAndNew: headings written before titles existed parse
// as they did; a hand-written heading's last part stays its trigger.
func TestParseHeadingsOldAndNew(t *testing.T) {
	cases := []struct{ h, start, end, short, trigger, title string }{
		{"09:12–09:40 · session 8f825584 · auto", "09:12", "09:40", "8f825584", "auto", ""},
		{"09:12–09:40 · session 8f825584 · session-end · Port the flush", "09:12", "09:40", "8f825584", "session-end", "Port the flush"},
		{"09:12–09:40 · session 8f825584 · manual · a · b", "09:12", "09:40", "8f825584", "manual", "a · b"},
		{"09:12 · notes", "09:12", "", "", "notes", ""},
		{"09:12–09:40 · session 8f825584", "09:12", "09:40", "8f825584", "", ""},
	}
	for _, c := range cases {
		s, e, short, trig, title := parseHeading(c.h)
		if s != c.start || e != c.end || short != c.short || trig != c.trigger || title != c.title {
			t.Errorf("%q: %q %q %q %q %q", c.h, s, e, short, trig, title)
		}
	}
}

// TestParseOpenFenceStopsAtNextSection: a hand edit that leaves a code
// fence open hides nothing cerebro appends after it; a heading without a
// marker inside the fence stays code.
func TestParseOpenFenceStopsAtNextSection(t *testing.T) {
	first := Render(section("aaaaaaaa-1", 1))
	data := Header(day, "p") + strings.Replace(first, "### Done", "```\n## example heading\n### Done", 1) + Render(section("bbbbbbbb-2", 1))
	d := Parse([]byte(data))
	if len(d.Sections) != 2 || d.Sections[1].SessionID != "bbbbbbbb-2" {
		t.Fatalf("%d sections", len(d.Sections))
	}
	if !strings.Contains(d.Sections[0].Raw, "## example heading") || len(d.Sections[0].Items(HeadDone)) != 0 {
		t.Errorf("first section %+v", d.Sections[0])
	}
	if ok, err := HasSegment(writeTemp(t, data), "bbbbbbbb-2", 1, 0); !ok || err != nil {
		t.Errorf("HasSegment misses the section after the open fence: %v", err)
	}
}

func writeTemp(t *testing.T, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-11-30.md")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAppendAfterOpenLastLine: a file whose last line a person left
// without a newline still gets its section on a line of its own.
func TestAppendAfterOpenLastLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude", "memory_short", "daily")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := Path(dir, day.Add(28*time.Minute))
	os.WriteFile(path, []byte(Header(day, "p")+"a note without newline"), 0o644)
	if _, err := Append(dir, "p", section("s1", 1)); err != nil {
		t.Fatal(err)
	}
	if ok, err := HasSegment(path, "s1", 1, 0); !ok || err != nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("section not found (%v):\n%s", err, data)
	}
}

func TestParseNoSections(t *testing.T) {
	for _, in := range []string{"", "x", "---\n", "## ", "##", "```\n## a\n", "---\ndate: nope\n---\n## 99:99–00:00 · session \n"} {
		d := Parse([]byte(in))
		var joined strings.Builder
		joined.WriteString(d.Preamble)
		for _, e := range d.Sections {
			joined.WriteString(e.Raw)
		}
		if joined.String() != in {
			t.Errorf("%q: text lost: %+v", in, d)
		}
	}
}

// FuzzParse: Parse never panics, loses no byte (its parts join to the
// input), stays linear in what it returns, and Render's output reads back.
func FuzzParse(f *testing.F) {
	f.Add([]byte(testfile.Read(f, filepath.Join("testdata", "daily.golden"))), "### Asked\n- x", "auto")
	f.Add([]byte("```\n## a\n<!-- cerebro:segment session=x -->\n~~~~\n## b\n"), "```\n## in code\n```", "manual")
	f.Add([]byte("\ufeff---\r\ndate: '2026-01-01'\r\n---\r\n# t\r\n## 23:59–00:00 · session · \r\n"), "", "recovery")
	f.Fuzz(func(t *testing.T, data []byte, body, trigger string) {
		d := Parse(data)
		n := len(d.Preamble)
		joined := d.Preamble
		for _, e := range d.Sections {
			joined += e.Raw
			n += len(e.Body) + len(e.Text())
			for _, l := range e.Lists {
				n += len(l.Head)
				for _, it := range l.Items {
					n += len(it)
				}
			}
		}
		if joined != string(data) {
			t.Fatalf("parts do not join to the input")
		}
		if n > 4*len(data)+8 {
			t.Fatalf("output of %d bytes for %d of input", n, len(data))
		}
		// Render → Parse, for a body as the distillers write it (no "## "
		// line outside code) and a one-word trigger.
		trigger = strings.Join(strings.Fields(strings.ReplaceAll(trigger, "·", "")), "-")
		if trigger == "" || hasSectionLine(body) || strings.TrimSpace(body) == emptyBody {
			return
		}
		s := Section{Start: day, End: day.Add(time.Hour), SessionID: "8f825584-c7d3", Trigger: trigger, From: 1, To: 2, Seq: 3, Body: body}
		got := Parse([]byte(Header(s.End, "p") + Render(s)))
		if len(got.Sections) != 1 {
			t.Fatalf("%d sections for body %q", len(got.Sections), body)
		}
		if b := got.Sections[0].Body; b != strings.TrimSpace(body) || got.Sections[0].Trigger != trigger || got.Sections[0].Seq != 3 {
			t.Fatalf("body %q trigger %q, want %q %q", b, got.Sections[0].Trigger, strings.TrimSpace(body), trigger)
		}
	})
}

// hasSectionLine reports whether body would start a section of its own:
// a "## " line outside code.
func hasSectionLine(body string) bool {
	return len(sectionStarts(strings.TrimSpace(body), 0)) > 0
}

// BenchmarkParse reads a day of 200 sections (about 200 KB), the size a
// busy day reaches; inject parses two such files at every SessionStart.
func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(Header(day, "p"))
	for i := 0; i < 200; i++ {
		s := section(fmt.Sprintf("session-%03d-c7d3-4270-8057", i), 1)
		s.Body = strings.Repeat("### Done\n- "+strings.Repeat("word ", 40)+"\n", 5)
		sb.WriteString(Render(s))
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if d := Parse(data); len(d.Sections) != 200 {
			b.Fatal(len(d.Sections))
		}
	}
}
