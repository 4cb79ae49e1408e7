package evolve

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestProposalFollowsTheLastTenRunsOfTheSkill(t *testing.T) {
	j := runrec.Journal{Dir: t.TempDir()}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	sk := []runrec.Skill{{Name: "use-memory"}}
	add := func(id, verdict string, r runrec.Run) {
		r.ID, r.Time, r.Skills = id, now, sk
		if r.Kind == "" {
			r.Kind = runrec.KindRecall
		}
		j.Append(r)
		if verdict != "" {
			j.Verdict(runrec.Verdict{Run: id, Time: now, Verdict: verdict, Source: "person"})
		}
	}
	refresh := func(after int) string {
		t.Helper()
		st, err := runrec.OpenStore(j)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := RefreshProposal(st, j, "use-memory", after); err != nil {
			t.Fatal(err)
		}
		return ReadProposal(j, "use-memory")
	}
	add("b1", runrec.Bad, runrec.Run{})
	add("m1", "", runrec.Run{Depth: 5, AnswerKind: "none"})
	// Shadow arms and a shadow arm's children are no evidence on the active version.
	add("s1", runrec.Bad, runrec.Run{Kind: runrec.KindShadow})
	add("c1", runrec.Bad, runrec.Run{Parent: "s1"})
	if p := refresh(0); p != "" {
		t.Fatalf("two failures under the default of %d: %q", DefaultProposeAfter, p)
	}
	if p := refresh(2); !strings.Contains(p, "1 bad verdicts and 1 misses") || !strings.Contains(p, "in its last 2 runs") {
		t.Fatalf("propose_after 2: %q", p)
	}
	add("b2", runrec.Bad, runrec.Run{})
	if p := refresh(0); !strings.Contains(p, "2 bad verdicts and 1 misses") || !strings.Contains(p, "memhook skill candidate use-memory") {
		t.Fatalf("three failures: %q", p)
	}
	// Good runs push the failures out of the window: the note goes.
	for i := 0; i < ProposalWindow-1; i++ {
		add(fmt.Sprint("g", i), runrec.Good, runrec.Run{})
	}
	if p := refresh(1); !strings.Contains(p, "1 bad verdicts and 0 misses") || !strings.Contains(p, "in its last 10 runs") {
		t.Fatalf("b1 and m1 left the window: %q", p)
	}
	add("g9", runrec.Good, runrec.Run{})
	if p := refresh(1); p != "" {
		t.Fatalf("a skill that recovered keeps its proposal: %q", p)
	}
}

func TestGiveVerdictNeedsARunAndRefreshesItsSkills(t *testing.T) {
	j := runrec.Journal{Dir: t.TempDir()}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	if err := GiveVerdict(j, runrec.Verdict{Run: "nope", Verdict: "good", Time: now}, 0); !errors.Is(err, ErrNoRun) {
		t.Fatalf("unknown run: %v", err)
	}
	j.Append(runrec.Run{ID: "r1", Time: now, Kind: runrec.KindRecall, Skills: []runrec.Skill{{Name: "relearn"}}})
	if err := GiveVerdict(j, runrec.Verdict{Run: "r1", Verdict: "maybe", Time: now}, 0); err == nil || errors.Is(err, ErrNoRun) {
		t.Fatalf("a verdict is good or bad: %v", err)
	}
	if err := GiveVerdict(j, runrec.Verdict{Run: "r1", Verdict: "BAD", Time: now, Source: "person"}, 1); err != nil {
		t.Fatal(err)
	}
	st, _ := runrec.OpenStore(j)
	r, _, _ := st.Get("r1")
	st.Close()
	if r.Verdict != runrec.Bad {
		t.Errorf("verdict recorded as %q", r.Verdict)
	}
	if p := ReadProposal(j, "relearn"); !strings.Contains(p, "skill relearn: 1 bad verdicts") {
		t.Errorf("the run's skill was not refreshed: %q", p)
	}
}

func TestShadowWantedNeedsShareBudgetAndCandidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "use-memory", "SKILL.md")
	testfile.Write(t, file, "active\n")
	id := "r-any"
	if ShadowWanted(id, 1, 10, file) {
		t.Fatal("no candidate yet")
	}
	testfile.Write(t, filepath.Join(dir, "use-memory", CandidatesDir, "c1", "SKILL.md"), "cand\n")
	if !ShadowWanted(id, 1, 10, file) {
		t.Fatal("share 1, budget, candidate: want a shadow")
	}
	if ShadowWanted(id, 1, 0, file) || ShadowWanted(id, 0, 10, file) || ShadowWanted(id, 1, 10, "") {
		t.Fatal("no budget, no share or no skill file: no shadow")
	}
}
