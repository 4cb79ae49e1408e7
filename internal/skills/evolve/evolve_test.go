package evolve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestSampledKeepsTheDeclaredShare(t *testing.T) {
	for _, share := range []float64{0.1, 0.3, 0.5} {
		n := 0
		for i := 0; i < 4000; i++ {
			if Sampled(fmt.Sprintf("r2611301000%08x", i*7919), share) {
				n++
			}
		}
		if got := float64(n) / 4000; got < share-0.03 || got > share+0.03 {
			t.Errorf("share %.2f: sampled %.3f", share, got)
		}
	}
	sampled := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := fmt.Sprint("r", i)
		if Sampled(id, 0) || !Sampled(id, 1) {
			t.Fatalf("share 0 samples nothing, share 1 everything (%s)", id)
		}
		sampled[id] = Sampled(id, 0.4)
	}
	n := 0
	for id, first := range sampled {
		if again := Sampled(id, 0.4); again != first {
			t.Fatalf("run %s sampled %v, then %v: the same run must get the same answer", id, first, again)
		}
		if first {
			n++
		}
	}
	if n < 300 || n > 500 {
		t.Errorf("share 0.4 sampled %d of 1000 runs", n)
	}
}

// arms makes one pair's two runs with verdicts and the tokens each arm's
// model reported; the seconds are the reverse of the tokens, so that a
// decision weighing wall time would come out the other way.
func arms(pair, cand, actV, candV string, actTok, candTok int) []runrec.Run {
	return []runrec.Run{
		{ID: pair + "a", Kind: runrec.KindShadow, Pair: pair, Arm: runrec.ArmActive, ModelCalls: 1, Tokens: actTok, Seconds: float64(candTok), Verdict: actV, Skills: []runrec.Skill{{Name: "use-memory"}}},
		{ID: pair + "c", Kind: runrec.KindShadow, Pair: pair, Arm: runrec.ArmCandidate, ModelCalls: 1, Tokens: candTok, Seconds: float64(actTok), Verdict: candV, Skills: []runrec.Skill{{Name: "use-memory", Candidate: cand}}},
	}
}

func TestDecideByVerdictsThenPrice(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	c := Candidate{Skill: "use-memory", ID: "c1", Since: now.Add(-24 * time.Hour)}
	build := func(n int, actV, candV string, actTok, candTok int) []runrec.Run {
		var out []runrec.Run
		for i := 0; i < n; i++ {
			out = append(out, arms(fmt.Sprint("p", i), "c1", actV, candV, actTok, candTok)...)
		}
		return out
	}
	r := DefaultRules()
	cases := []struct {
		name string
		runs []runrec.Run
		want string
		why  string
	}{
		{"too few verdicts", build(4, "bad", "good", 2, 2), Wait, "4 of 5 judged pairs needed"},
		{"won at the same price", build(5, "bad", "good", 2, 2), Promote, "won on verdicts"},
		{"won but dearer in tokens (quicker on the clock)", build(5, "bad", "good", 200, 300), Wait, "costs more"},
		{"won, cheaper in tokens though slower on the clock", build(5, "bad", "good", 300, 200), Promote, "seconds 300.0/200.0, not weighed"},
		{"won, no tokens reported", build(5, "bad", "good", 0, 0), Promote, "tokens 0/0"},
		{"lost", build(5, "good", "bad", 2, 2), Remove, "lost on verdicts"},
		{"tie waits", build(5, "good", "good", 2, 2), Wait, "judged pairs needed"},
		{"unjudged runs are no evidence", build(40, "", "", 2, 2), Remove, "trial ran out: 40 pairs"},
	}
	for _, tc := range cases {
		d := Decide(tc.runs, c, r, now)
		if d.Action != tc.want || !strings.Contains(d.Why, tc.why) {
			t.Errorf("%s: %s — %s; want %s (%s)", tc.name, d.Action, d.Why, tc.want, tc.why)
		}
	}
	// A deeper climb of the candidate's recalls is a higher price.
	runs := build(5, "bad", "good", 2, 2)
	for i := 0; i < 5; i++ {
		runs = append(runs, runrec.Run{ID: fmt.Sprint("n", i), Kind: runrec.KindRecall, Parent: fmt.Sprint("p", i, "c"), Depth: 5},
			runrec.Run{ID: fmt.Sprint("m", i), Kind: runrec.KindRecall, Parent: fmt.Sprint("p", i, "a"), Depth: 2})
	}
	if d := Decide(runs, c, r, now); d.Action != Wait || d.Cand.Depth != 5 || d.Act.Depth != 2 {
		t.Errorf("deeper candidate: %+v", d)
	}
	old := c
	old.Since = now.Add(-31 * 24 * time.Hour)
	if d := Decide(build(2, "", "", 2, 2), old, r, now); d.Action != Remove || !strings.Contains(d.Why, "31 days") {
		t.Errorf("old candidate: %+v", d)
	}
}

func TestReferenceRefusesATamperedCopy(t *testing.T) {
	dir := t.TempDir()
	ref := Reference{Dir: filepath.Join(dir, "ref")}
	f := filepath.Join(dir, "skills", "use-memory", "SKILL.md")
	testfile.Write(t, f, "first\n")
	if took, err := ref.EnsureInitial([]string{f}, time.Now()); !took || err != nil {
		t.Fatalf("initial reference: %v %v", took, err)
	}
	testfile.Write(t, f, "second\n")
	if took, _ := ref.EnsureInitial([]string{f}, time.Now()); took {
		t.Fatal("the initial reference is taken once")
	}
	if _, err := ref.Reset([]string{f}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f); string(b) != "first\n" {
		t.Fatalf("reset: %q", b)
	}
	stored := filepath.Join(ref.Dir, "files", "use-memory", "SKILL.md")
	if st, _ := os.Stat(stored); st.Mode().Perm()&0o222 != 0 {
		t.Errorf("the stored copy is writable: %v", st.Mode())
	}
	os.Chmod(stored, 0o600)
	os.WriteFile(stored, []byte("planted\n"), 0o600)
	if _, err := ref.Reset([]string{f}, time.Now()); err == nil || !strings.Contains(err.Error(), "does not match its hash") {
		t.Fatalf("a changed reference must be refused: %v", err)
	}
}

func TestVersionIsGitsObjectID(t *testing.T) {
	// `printf 'hello\n' | git hash-object --stdin`
	if v := Version([]byte("hello\n")); v != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Fatal(v)
	}
}

// TestReferenceIsTheCommittedInstruction: the reference is the plugin's
// instruction as committed, not the edit the tool has just written on
// disk (the hook takes the reference before committing that edit).
func TestReferenceIsTheCommittedInstruction(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "plugin", "skills", "use-memory", "SKILL.md")
	testfile.Write(t, f, "shipped\n")
	sref, _ := skill.Locate(f)
	if _, err := skill.Commit(sref, "Install", time.Now()); err != nil {
		t.Fatal(err)
	}
	testfile.Write(t, f, "edited\n")
	ref := Reference{Dir: filepath.Join(dir, "ref")}
	if _, _, _, err := ref.CommitEdit(f, "Edit", func() string { return "" }, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, files, err := ref.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files[InstructionName]); got != "shipped\n" {
		t.Fatalf("reference %q; want the committed %q", got, "shipped\n")
	}
}
