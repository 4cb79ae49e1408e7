package daily

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestWindowListsAWeekAndNamesTheOlderDays(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"2026-11-01.md", "2026-11-22.md", "2026-11-23.md", "2026-11-27.md", "2026-11-30.md", "2026-12-01.md", "notes.md", "2026-11-2x.md"} {
		testfile.Write(t, filepath.Join(dir, n), "x\n")
	}
	today := time.Date(2026, 11, 30, 9, 0, 0, 0, time.Local)
	files, older, err := Window(dir, today, 7)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if !reflect.DeepEqual(names, []string{"2026-11-30.md", "2026-11-27.md", "2026-11-23.md"}) {
		t.Fatalf("window %v", names)
	}
	if !reflect.DeepEqual(older, []string{"2026-11-01", "2026-11-22"}) {
		t.Fatalf("older %v", older)
	}
	if files, older, err := Window(filepath.Join(dir, "none"), today, 7); files != nil || older != nil || err != nil {
		t.Fatal("a missing folder is not an empty window")
	}
}

func TestTextWithoutDropsItemsAndAnEmptiedHeading(t *testing.T) {
	body := "### Asked\n- fix the flush\n### Open\n- push the branch\n- write the docs\n### Learned\n- x\n"
	raw := Render(Section{Start: time.Now(), End: time.Now(), SessionID: "s", Trigger: "auto", Seq: 1, Body: body})
	e := Parse([]byte(Header(time.Now(), "p") + raw)).Sections[0]
	got := e.TextWithout(func(h, it string) bool { return h == HeadOpen && it == "push the branch" })
	if strings.Contains(got, "push the branch") || !strings.Contains(got, "### Open\n- write the docs\n### Learned") {
		t.Fatalf("one item:\n%s", got)
	}
	got = e.TextWithout(func(h, _ string) bool { return strings.EqualFold(h, "open") })
	if strings.Contains(got, "### Open") || strings.Contains(got, "write the docs") || !strings.Contains(got, "- fix the flush\n### Learned\n- x") {
		t.Fatalf("all items:\n%s", got)
	}
	if e.TextWithout(func(string, string) bool { return false }) != e.Text() {
		t.Fatal("nothing dropped, yet the text changed")
	}
	// An item quoted in fenced code is not a list item.
	fenced := Parse([]byte(Header(time.Now(), "p") + Render(Section{Start: time.Now(), End: time.Now(), SessionID: "s", Trigger: "auto", Seq: 2,
		Body: "### Open\n```\n- push the branch\n```\n"}))).Sections[0]
	if got := fenced.TextWithout(func(h, _ string) bool { return h == HeadOpen }); got != fenced.Text() {
		t.Fatalf("fenced text cut:\n%s", got)
	}
}
