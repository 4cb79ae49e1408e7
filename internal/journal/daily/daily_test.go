package daily

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	testfile.Golden(t, filepath.Join("testdata", name+".golden"), got)
}

var day = time.Date(2026, 11, 30, 9, 12, 0, 0, time.Local)

func section(session string, seq int) Section {
	return Section{Start: day, End: day.Add(28 * time.Minute), SessionID: session, Trigger: "auto", From: 0, To: 48211, Seq: seq,
		Body: "### Asked\n- add a flag\n### Done\n- added `--json`\n"}
}

func TestDailyFileGolden(t *testing.T) {
	dir := t.TempDir()
	if _, err := Append(dir, "myproj", section("8f825584-c7d3-4270-8057-34e78af5df60", 1)); err != nil {
		t.Fatal(err)
	}
	s2 := section("8f825584-c7d3-4270-8057-34e78af5df60", 2)
	s2.Trigger, s2.From, s2.To = "session-end", 48211, 50000
	path, err := Append(dir, "myproj", s2)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	golden(t, "daily", string(data))
	if ok, _ := HasSegment(path, "8f825584-c7d3-4270-8057-34e78af5df60", 2, 0); !ok {
		t.Fatal("HasSegment misses seq 2")
	}
	if ok, _ := HasSegment(path, "8f825584-c7d3-4270-8057-34e78af5df60", 3, 0); ok {
		t.Fatal("HasSegment finds a section never written")
	}
	if n := len(Parse(data).Sections); n != 2 {
		t.Fatalf("%d sections, want 2", n)
	}
}

func TestConcurrentAppendsKeepEverySection(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := Append(dir, "p", section(fmt.Sprintf("session-%02d", i), 1)); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	data, _ := os.ReadFile(Path(dir, day))
	if strings.Count(string(data), "type: daily") != 1 || len(Parse(data).Sections) != 20 {
		t.Fatalf("want one frontmatter and 20 sections:\n%s", data)
	}
}

func TestSectionsIgnoreHeadingsInCode(t *testing.T) {
	data := "---\ntype: daily\n---\n\n# d\n\n## a\ntext\n```\n## not a heading\n```\n## b\n"
	if got := Parse([]byte(data)).Sections; len(got) != 2 || !strings.Contains(got[0].Raw, "not a heading") {
		t.Fatalf("%+v", got)
	}
}

func TestProjectNameQuotedInFrontmatter(t *testing.T) {
	if h := Header(day, "a: b"); !strings.Contains(h, `project: "a: b"`) {
		t.Fatal(h)
	}
}

// TestAppendLeavesNoLockBesideTheNote: the daily folder holds notes only.
func TestAppendLeavesNoLockBesideTheNote(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude", "memory_short", "daily")
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.Local)
	if _, err := Append(dir, "p", Section{Start: day, End: day, SessionID: "s1", Trigger: "auto", Seq: 1, Body: "### Asked\n- x\n"}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "2026-11-30.md" {
			t.Errorf("%s beside the note", e.Name())
		}
	}
	if _, err := os.Stat(LockPath(dir, day) + ".lock"); err != nil {
		t.Errorf("lock not under .claude/.cerebro/locks: %v", err)
	}
}
