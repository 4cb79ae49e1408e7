package inject

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/project"
)

func addSeq(t *testing.T, l project.Layout, at time.Time, session string, seq int, body string) {
	t.Helper()
	_, err := daily.Append(l.DailyDir(), "proj", daily.Section{Start: at, End: at.Add(time.Minute), SessionID: session, Trigger: "auto", Seq: seq, Body: body})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGivenSectionsAreNotHandedAgain: what a session was handed is left
// out of its next inject, its own sections too; Gave names exactly the
// sections the text holds, and a new section of the same session is
// handed.
func TestGivenSectionsAreNotHandedAgain(t *testing.T) {
	l := project.Layout{Root: filepath.Join(t.TempDir(), "proj")}
	addSeq(t, l, now.Add(-3*time.Hour), "other", 1, "### Asked\n- migrate the orders table\n")
	addSeq(t, l, now.Add(-2*time.Hour), "self", 1, "### Asked\n- add --json to lint\n")
	g := &Given{}
	got, err := Build(Options{Layout: l, Now: now, Session: "self", Given: g})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "orders table") || strings.Contains(got, "--json") {
		t.Fatalf("first resume:\n%s", got)
	}
	if len(g.Gave) != 1 || g.Gave[0] != "other#1" {
		t.Fatalf("gave %v, want [other#1]", g.Gave)
	}
	had := map[string]bool{"other#1": true}
	g = &Given{Had: had}
	got, err = Build(Options{Layout: l, Now: now, Session: "self", Given: g})
	if err != nil || got != "" || len(g.Gave) != 0 {
		t.Fatalf("second resume handed %v again (%v):\n%s", g.Gave, err, got)
	}
	addSeq(t, l, now.Add(-time.Hour), "other", 2, "### Asked\n- index the orders by date\n")
	addSeq(t, l, now.Add(-30*time.Minute), "third", 1, "### Decided\n- keep the cap\n")
	g = &Given{Had: had}
	got, err = Build(Options{Layout: l, Now: now, Session: "self", Given: g})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "migrate the orders table") || !strings.Contains(got, "index the orders by date") || !strings.Contains(got, "keep the cap") {
		t.Fatalf("third resume:\n%s", got)
	}
	// In time order, the newest last.
	if strings.Index(got, "keep the cap") < strings.Index(got, "index the orders") {
		t.Fatalf("sections out of order:\n%s", got)
	}
	if gave := strings.Join(sorted(g.Gave), ","); gave != "other#2,third#1" {
		t.Fatalf("gave %v", g.Gave)
	}
}

// TestGaveLeavesOutWhatTheCapDropped: what the cap left out was not
// given, so it is not remembered as given, and the note names its file; a
// section shown as one line is remembered as a line, one shown whole by
// its key.
func TestGaveLeavesOutWhatTheCapDropped(t *testing.T) {
	l := project.Layout{Root: filepath.Join(t.TempDir(), "proj")}
	for i := range 6 {
		addSeq(t, l, now.Add(-time.Duration(100-i)*time.Minute), "s"+itoaTest(i), 1, "### Asked\n- "+strings.Repeat("padding words ", 30)+"\n")
	}
	g := &Given{}
	got, err := Build(Options{Layout: l, Now: now, MaxChars: 2650, Given: g})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "- .claude/memory_short/daily/2026-11-30.md: 3 sections shown only in their session's line\n") {
		t.Fatalf("no omission note:\n%s", got)
	}
	if gave := strings.Join(g.Gave, ","); gave != "line:s0#1,line:s1#1,line:s2#1,s3#1,s4#1,s5#1" {
		t.Fatalf("gave %s", gave)
	}
	// Whole in time order, the newest last, and the note after it.
	newest, note := strings.Index(got, "session s5 "), strings.Index(got, "Left out to fit")
	if newest < 0 || note < newest || newest < strings.LastIndex(got, "\n- 08:") || strings.Count(got, "\n## ") != 3 {
		t.Fatalf("not in time order:\n%s", got)
	}
	g = &Given{}
	got, err = Build(Options{Layout: l, Now: now, MaxChars: 1100, Given: g})
	if err != nil {
		t.Fatal(err)
	}
	if utf8.RuneCountInString(got) > 1100 || !strings.Contains(got, "Left out to fit the 1100-character cap") || len(g.Gave) == 0 || len(g.Gave) == 6 || slices.Contains(g.Gave, "line:s0#1") {
		t.Fatalf("gave %v for\n%s", g.Gave, got)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestSectionKeyOfHostileMarkers(t *testing.T) {
	tests := []struct {
		name, sec, want string
	}{
		{"plain", "## 09:00 · session ab\n<!-- cerebro:segment session=ab-12 from=0 to=9 seq=3 -->\nbody\n", "ab-12#3"},
		{"no marker", "## hand written\n- note\n", ""},
		{"marker without seq", "## x\n<!-- cerebro:segment session=ab from=0 -->\n", ""},
		{"spaces and markup in the id", "## x\n<!-- cerebro:segment session=a<b>\"c seq=1 -->\n", ""},
		{"huge id", "## x\n<!-- cerebro:segment session=" + strings.Repeat("x", 5000) + " seq=1 -->\n", ""},
		{"newline injection", "## x\n<!-- cerebro:segment session=a\nseq=1 -->\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := SectionKey(onlySection(t, tt.sec))
			if !ValidKey(k) {
				t.Fatalf("key %q is not valid", k)
			}
			if tt.want != "" && k != tt.want {
				t.Fatalf("key %q, want %q", k, tt.want)
			}
			if tt.want == "" && !strings.HasPrefix(k, "sha256:") {
				t.Fatalf("key %q, want a hash", k)
			}
		})
	}
	if SectionKey(onlySection(t, "## a\n- x\n")) == SectionKey(onlySection(t, "## a\n- y\n")) {
		t.Fatal("two texts without a marker share a key")
	}
}

// onlySection parses text as a daily file holding one section.
func onlySection(t *testing.T, text string) daily.Entry {
	t.Helper()
	secs := daily.Parse([]byte(text)).Sections
	if len(secs) != 1 {
		t.Fatalf("%q parses as %d sections, want 1", text, len(secs))
	}
	return secs[0]
}
