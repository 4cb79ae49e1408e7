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

// skillWithCandidates is a use-memory skill under dir/skills with the
// given candidates written through AddCandidate.
func skillWithCandidates(t *testing.T, dir string, now time.Time, ids ...string) skill.Ref {
	t.Helper()
	root := filepath.Join(dir, "skills")
	testfile.Write(t, filepath.Join(root, "use-memory", "SKILL.md"), "---\nname: use-memory\n---\nACTIVE\n")
	ref, err := skill.Named(root, "use-memory")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, _, err := AddCandidate(ref, id, []byte("---\nname: use-memory\n---\nCANDIDATE "+id+"\n"), now); err != nil {
			t.Fatal(err)
		}
	}
	return ref
}

func TestRoundPromotesOneCandidatePerSkill(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ref := skillWithCandidates(t, t.TempDir(), now, "c1", "c2")
	var runs []runrec.Run
	for _, c := range []string{"c1", "c2"} {
		for i := 0; i < 5; i++ {
			runs = append(runs, arms(fmt.Sprint(c, "p", i), c, runrec.Bad, runrec.Good, 2, 2)...)
		}
	}
	j := runrec.Journal{Dir: t.TempDir()}

	// A dry run promotes nothing, so it names each winner as it stands.
	dry, err := Round([]skill.Ref{ref}, runs, DefaultRules(), j, now, true)
	if err != nil || len(dry) != 2 || dry[0].Decision.Action != Promote || dry[1].Decision.Action != Promote || dry[0].Commit != "" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if cs, _ := Candidates(ref); len(cs) != 2 {
		t.Fatalf("a dry run changed the candidates: %d left", len(cs))
	}

	items, err := Round([]skill.Ref{ref}, runs, DefaultRules(), j, now, false)
	if err != nil || len(items) != 2 {
		t.Fatalf("%+v %v", items, err)
	}
	won, waited := items[0], items[1]
	if won.Decision.Action != Promote || won.Commit == "" {
		t.Fatalf("first winner: %+v", won)
	}
	if waited.Decision.Action != Wait || !strings.Contains(waited.Decision.Why, "another candidate was just promoted") || waited.Commit != "" {
		t.Fatalf("second winner must wait for pairs against the new version: %+v", waited)
	}
	if b, _ := os.ReadFile(ref.File); !strings.Contains(string(b), "CANDIDATE "+won.Candidate) {
		t.Errorf("the active file is %q, want candidate %s", b, won.Candidate)
	}
	if cs, _ := Candidates(ref); len(cs) != 1 || cs[0].ID != waited.Candidate {
		t.Errorf("candidates left: %+v, want only %s", cs, waited.Candidate)
	}
}

func TestPickCandidateIsFixedPerRunAndSpreads(t *testing.T) {
	cs := []Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	seen := map[string]int{}
	for i := 0; i < 300; i++ {
		id := fmt.Sprint("r", i)
		c := PickCandidate(cs, id)
		if again := PickCandidate(cs, id); again.ID != c.ID {
			t.Fatalf("run %s picked %s, then %s", id, c.ID, again.ID)
		}
		seen[c.ID]++
	}
	for _, c := range cs {
		if seen[c.ID] < 50 {
			t.Errorf("candidate %s raced %d of 300 runs: %v", c.ID, seen[c.ID], seen)
		}
	}
}

func TestWithCandidatesTakesTheFirstFolderHoldingTheSkill(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	project, plugin := t.TempDir(), t.TempDir()
	skillWithCandidates(t, project, now) // the evolving copy, no candidate
	skillWithCandidates(t, plugin, now, "c1")
	testfile.Write(t, filepath.Join(plugin, "skills", "relearn", "SKILL.md"), "relearn\n")
	if refs := WithCandidates([]string{filepath.Join(project, "skills"), filepath.Join(plugin, "skills")}); len(refs) != 0 {
		t.Fatalf("the project's copy has no candidate, the plugin's is not the one loaded: %+v", refs)
	}
	refs := WithCandidates([]string{filepath.Join(plugin, "skills"), filepath.Join(project, "skills")})
	if len(refs) != 1 || refs[0].Name != "use-memory" || refs[0].Root != filepath.Join(plugin, "skills") {
		t.Fatalf("%+v", refs)
	}
}

func TestUnjudgedPairsAreBlindAndJudgedOnce(t *testing.T) {
	j := runrec.Journal{Dir: t.TempDir()}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	candFirst := 0
	for i := 0; i < 20; i++ {
		for _, r := range arms(fmt.Sprint("p", i), "c1", "", "", 2, 2) {
			r.Time, r.Request, r.Answer = now, "which host", "ANSWER OF "+r.Arm
			j.Append(r)
		}
	}
	// An arm that failed leaves its pair out; so does a half pair.
	j.Append(runrec.Run{ID: "ea", Time: now, Kind: runrec.KindShadow, Pair: "err", Arm: runrec.ArmActive, Answer: "x"})
	j.Append(runrec.Run{ID: "ec", Time: now, Kind: runrec.KindShadow, Pair: "err", Arm: runrec.ArmCandidate, Error: "timeout"})
	j.Append(runrec.Run{ID: "ha", Time: now, Kind: runrec.KindShadow, Pair: "half", Arm: runrec.ArmActive})
	st, err := runrec.OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pairs, err := Unjudged(st)
	if err != nil || len(pairs) != 20 {
		t.Fatalf("%d pairs, %v", len(pairs), err)
	}
	for _, p := range pairs {
		if p.Skill != "use-memory" || p.Request != "which host" || p.Answer1 == p.Answer2 {
			t.Fatalf("pair %+v", p)
		}
		if p.Answer1 == "ANSWER OF "+runrec.ArmCandidate {
			candFirst++
		}
	}
	if candFirst < 4 || candFirst > 16 {
		t.Errorf("the candidate's answer came first in %d of 20 pairs: the order must not tell the arm", candFirst)
	}
	p := pairs[0]
	if err := p.Judge(j, "maybe", now); err == nil {
		t.Fatal("a choice is 1, 2, both or neither")
	}
	if err := p.Judge(j, "1", now); err != nil {
		t.Fatal(err)
	}
	st.Sync()
	for _, id := range []string{p.Pair + "a", p.Pair + "c"} {
		r, _, _ := st.Get(id)
		want := runrec.Bad
		if "ANSWER OF "+r.Arm == p.Answer1 {
			want = runrec.Good
		}
		if r.Verdict != want || r.Verdict == "" {
			t.Errorf("%s arm: verdict %q, want %q", r.Arm, r.Verdict, want)
		}
	}
	if again, _ := Unjudged(st); len(again) != 19 {
		t.Errorf("a judged pair is listed again: %d pairs", len(again))
	}
}

func TestJudgeVerdicts(t *testing.T) {
	for choice, want := range map[string][2]string{
		"1": {runrec.Good, runrec.Bad}, " 2 ": {runrec.Bad, runrec.Good},
		"B": {runrec.Good, runrec.Good}, "neither": {runrec.Bad, runrec.Bad},
	} {
		if got, err := JudgeVerdicts(choice); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", choice, got, err, want)
		}
	}
	if _, err := JudgeVerdicts("3"); err == nil {
		t.Error(`"3" accepted`)
	}
}
