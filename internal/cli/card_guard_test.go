package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWikiWriteRefusesMemory: the plain page writer refuses to write over
// a card's facts, truth and archive, and into memory's own folders, naming
// the writer to use; a write that keeps a card's memory goes through.
func TestWikiWriteRefusesMemory(t *testing.T) {
	e := newNightEnv(t, false)
	e.writeDay(t, time.Date(2026, 11, 2, 0, 0, 0, 0, time.Local), 2)
	if _, errOut, code := e.run(t, "", "fact", "add", "wiki/Releases.md", "release train for sprint 2 leaves on Friday", "--evidence", "daily/2026-11-02", "--project", e.proj); code != 0 {
		t.Fatal(errOut)
	}
	card := e.long("wiki/Releases.md")
	before := readFile(t, card)
	over := "---\ntype: topic\n---\n\n# Releases\n\nRewritten from scratch.\n"
	_, errOut, code := e.run(t, over, "wiki", "write", "wiki/Releases.md", "--project", e.proj)
	if code == 0 || !strings.Contains(errOut, "it is a card, and this text changes 1 dated fact(s)") || !strings.Contains(errOut, "memhook fact add") {
		t.Fatalf("wiki write over a card: exit %d\n%s", code, errOut)
	}
	if readFile(t, card) != before {
		t.Fatal("the refused write changed the card")
	}
	// The prose may change as long as the facts stay.
	kept := strings.Replace(before, "How releases leave.", "How and when releases leave.", 1)
	if _, errOut, code := e.run(t, kept, "wiki", "write", "wiki/Releases.md", "--project", e.proj); code != 0 {
		t.Fatalf("a write keeping the facts was refused: %s", errOut)
	}
	for page, want := range map[string]string{
		"daily/2026-11-02.md":                "short-term memory's name",
		"rollups/week/2026-W45.md":           "short-term memory's name",
		"wiki/_private/digest-2026-11-02.md": "written by the night pass",
	} {
		_, errOut, code := e.run(t, over, "wiki", "write", page, "--project", e.proj)
		if code == 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "hint:") {
			t.Errorf("wiki write %s: exit %d\n%s", page, code, errOut)
		}
		if exists(e.long(page)) {
			t.Errorf("%s was written", page)
		}
	}
}

// TestFactMergeOnlyByAPerson: a merge is refused without a terminal (even
// with --yes) and inside a Claude Code session (even at a terminal).
func TestFactMergeOnlyByAPerson(t *testing.T) {
	e := newNightEnv(t, false)
	other := "---\ntype: topic\n---\n\n# Trains\n\nOld notes.\n"
	if _, errOut, code := e.run(t, other, "wiki", "write", "wiki/Trains.md", "--project", e.proj); code != 0 {
		t.Fatal(errOut)
	}
	before := claudeTree(t, e.proj)
	_, errOut, code := e.run(t, "y\n", "fact", "merge", "wiki/Releases.md", "--from", "wiki/Trains.md", "--yes", "--project", e.proj)
	if code == 0 || !strings.Contains(errOut, "fact merge: refused without a terminal") {
		t.Fatalf("merge without a terminal: exit %d\n%s", code, errOut)
	}
	master, slave := openPTY(t)
	e.env["CLAUDECODE"] = "1"
	master.WriteString("y\n")
	_, errOut, code = e.runIn(t, slave, "fact", "merge", "wiki/Releases.md", "--from", "wiki/Trains.md", "--project", e.proj)
	if code == 0 || !strings.Contains(errOut, "refused inside Claude Code") {
		t.Fatalf("merge inside a session: exit %d\n%s", code, errOut)
	}
	if ch := diffTrees(before, claudeTree(t, e.proj)); len(ch) > 0 {
		t.Fatalf("a refused merge changed %v", ch)
	}
	// The refused run read nothing: the "y" typed before it answers this one.
	delete(e.env, "CLAUDECODE")
	out, errOut, code := e.runIn(t, slave, "fact", "merge", "wiki/Releases.md", "--from", "wiki/Trains.md", "--project", e.proj)
	if code != 0 || !strings.Contains(out, "merged wiki/Trains.md into wiki/Releases.md") {
		t.Fatalf("merge by a person: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(readFile(t, filepath.Join(e.proj, ".claude", "memory_long", "wiki", "Trains.md")), "type: redirect") {
		t.Fatal("no redirect after the merge")
	}
}
