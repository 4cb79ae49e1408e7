package blackbox

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/tables"
)

// standIn writes a stand-in `claude` that answers like a research run and
// records that CEREBRO_NESTED reached it.
func standIn(t *testing.T, reply string) (cmd, marker string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	dir := t.TempDir()
	marker = filepath.Join(dir, "nested")
	cmd = filepath.Join(dir, "claude")
	script := "#!/bin/sh\nprintf '%s' \"$CEREBRO_NESTED\" > '" + marker + "'\nprintf '%s\\n' \"$@\" > '" + marker + ".args'\nprintf '%s\\n' '" + reply + "'\n"
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd, marker
}

func withResearch(b *Box, cmd string) {
	b.ResearchCalls, b.ResearchSeconds = 2, 20
	b.Research = ClaudeResearch{Command: cmd, Memhook: "/x/memhook", Dir: b.Root, Env: []string{"PATH=/usr/bin:/bin", "CEREBRO_NESTED=1"},
		MaxCalls: 2, Budget: 20 * time.Second, Now: time.Now}
}

func TestRelearnMakesTheNextRecallCheaper(t *testing.T) {
	b := newBox(t)
	answer := "Denis may have known Yeltsin: he served in the Kremlin regiment 1992-1994 (record of automation 134)."
	cmd, marker := standIn(t, answer)
	withResearch(b, cmd)
	q := `{"text":"could Denis have known Yeltsin?","depth":"extreme"}`

	before := recall(t, b, q)
	if before.DepthUsed != LevelResearch || before.Answer != answer || before.Relearn == "" {
		t.Fatalf("before relearn the question needs level 5: %+v", before)
	}
	if got, _ := os.ReadFile(marker); string(got) != "1" {
		t.Fatalf("the research child must run with CEREBRO_NESTED=1, saw %q", got)
	}
	args, _ := os.ReadFile(marker + ".args")
	if !strings.Contains(string(args), "-p\n") || !strings.Contains(string(args), "--allowedTools\nRead,Grep,Glob,Bash(\"/x/memhook\" recall:*)\n") {
		t.Fatalf("the child gets read-only tools and memhook recall, nothing else:\n%s", args)
	}
	if !strings.Contains(before.Report[4].Note, "1 model calls") {
		t.Fatalf("level 5 reports its cost: %+v", before.Report[4])
	}

	// The entity has a link table: promote kind links of table denis.
	b.Tables.Create("denis", t0)
	b.Tables.NewKind("denis", "links", t0)
	if _, _, err := b.Tables.Promote("denis", "links", "", "Denis", "", "", t0); err != nil {
		t.Fatal(err)
	}
	res, err := b.Relearn(context.Background(), RelearnRequest{Artifact: []byte("# research\n" + answer + "\n"), ArtifactName: "research.md", Summary: answer, About: "Denis"}, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Object, "sha256-") || res.Summary == "" || res.Relation == "" || res.LinkTable.Status != "appended" || res.LinkTable.ID == "" {
		t.Fatalf("every id of the cycle: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(b.Root, filepath.FromSlash(res.ObjectPath))); err != nil {
		t.Fatalf("object file: %v", err)
	}
	os.Remove(marker)
	after := recall(t, b, q)
	if after.DepthUsed > LevelGraph || after.DepthUsed < LevelText {
		t.Fatalf("after relearn the same question must cost level 2–3, used %d: %+v", after.DepthUsed, after.Report)
	}
	obj, isObj := after.Answer.(map[string]string)
	if !isObj || obj["object"] != res.Object || !strings.Contains(obj["summary"], "Kremlin regiment") {
		t.Fatalf("answer is the object id with its summary: %#v", after.Answer)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("no model call after relearn")
	}
	cells, _ := b.Tables.Lookup(tables.Query{Table: "denis_links", Key: "Denis"})
	if len(cells) != 1 || cells[0].Value != res.Object {
		t.Fatalf("link table row: %+v", cells)
	}
	// Denying the conclusion extends the summary; it is not offered again
	// for this question, and the summary and its object stay.
	d, err := b.Deny(after.Items[0].ID, "they served together but never met", t0)
	if err != nil || d.Summary != res.SummaryPath {
		t.Fatalf("deny: %+v %v", d, err)
	}
	page, _ := os.ReadFile(filepath.Join(b.Root, filepath.FromSlash(res.SummaryPath)))
	if !strings.Contains(string(page), answer) || !strings.Contains(string(page), "never met") {
		t.Fatalf("summary after denial:\n%s", page)
	}
	b.Research = nil
	again := recall(t, b, q)
	if again.Report[1].Denied != 1 || again.DepthUsed == LevelText {
		t.Fatalf("a denied conclusion must not come back: %+v", again)
	}
	for _, it := range again.Items {
		if it.ID == after.Items[0].ID {
			t.Fatal("denied inference offered again")
		}
	}
}

func TestRelearnWithoutLinkTableStillCompletes(t *testing.T) {
	b := newBox(t)
	res, err := b.Relearn(context.Background(), RelearnRequest{Artifact: []byte("a,b\n1,2\n"), ArtifactName: "t.csv", Summary: "Revenue May to August was 10 units; details in the table.", About: "Revenue"}, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.LinkTable.Status != "skipped" || !strings.Contains(res.LinkTable.Note, "revenue_links") {
		t.Fatalf("%+v", res.LinkTable)
	}
	a := recall(t, b, `{"text":"revenue May August"}`)
	if a.DepthUsed != LevelText {
		t.Fatalf("%+v", a.Report)
	}
	if _, err := b.Relearn(context.Background(), RelearnRequest{Summary: "x", About: "a]]b"}, nil, t0); err == nil {
		t.Fatal("an entity that breaks a wikilink must be refused")
	}
}

func TestNestedRecallNeverClimbsToFive(t *testing.T) {
	b := newBox(t)
	cmd, marker := standIn(t, "should not run")
	withResearch(b, cmd)
	b.Nested = true
	a := recall(t, b, `{"text":"quarterly penguin census","depth":"extreme"}`)
	if a.DepthUsed != LevelGraph || a.Kind != KindNone {
		t.Fatalf("%+v", a)
	}
	if r := a.Report[len(a.Report)-1]; r.Level != 5 || r.Status != "skipped" || !strings.Contains(r.Note, "CEREBRO_NESTED") {
		t.Fatalf("level 5 must say why it did not run: %+v", r)
	}
	if !strings.Contains(a.Params["depth"].Note, "never runs inside") {
		t.Fatalf("depth note: %q", a.Params["depth"].Note)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the child ran")
	}
}

func TestResearchNoneAndBudget(t *testing.T) {
	b := newBox(t)
	cmd, _ := standIn(t, NoAnswer)
	withResearch(b, cmd)
	a := recall(t, b, `{"text":"quarterly penguin census","depth":"extreme"}`)
	if a.DepthUsed != LevelResearch || a.Kind != KindNone {
		t.Fatalf("%+v", a)
	}
	slow := filepath.Join(t.TempDir(), "claude")
	os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 5\n"), 0o755)
	r := ClaudeResearch{Command: slow, Dir: b.Root, MaxCalls: 3, Budget: 200 * time.Millisecond, Now: time.Now}
	start := time.Now()
	res, err := r.Research(context.Background(), "q")
	if err == nil || !strings.Contains(err.Error(), "budget") || time.Since(start) > 3*time.Second || res.Calls < 1 || res.Calls > 3 {
		t.Fatalf("budget must stop research: %+v %v", res, err)
	}
}
