package verbrun

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

func recorder(t *testing.T) (Recorder, *bytes.Buffer) {
	t.Helper()
	root, state := t.TempDir(), t.TempDir()
	skill := filepath.Join(root, ".claude", "skills", evolve.InstructionSkill, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(skill, []byte("---\nname: use-memory\n---\nRecall first.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	return Recorder{Project: evolve.Project{Root: root, Journal: runrec.Journal{Dir: filepath.Join(state, "runs")},
		Reference: evolve.Reference{Dir: filepath.Join(state, "instruction")}}, Warn: &warn}, &warn
}

func runs(t *testing.T, j runrec.Journal) []runrec.Run {
	t.Helper()
	st, err := runrec.OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Runs(runrec.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// A recall is recorded with what it asked, how deep it went, its model
// calls and the skill version that taught it; the answer carries the run
// id, and the person's reference is taken at this first use.
func TestARecallIsRecordedAndCarriesItsRunID(t *testing.T) {
	r, warn := recorder(t)
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ans := &blackbox.RecallAnswer{Kind: "none", DepthUsed: 5, Params: map[string]blackbox.Fate{},
		Report: []blackbox.StoreReport{{Level: blackbox.LevelResearch, Note: "3 model calls"}}}
	out := r.Record(now, Verb{Kind: runrec.KindRecall, Seconds: 1.5, Raw: blackbox.Raw{"text": json.RawMessage(`"who owns billing?"`)}, Answer: ans})
	b, _ := json.Marshal(out)
	var got struct {
		RunID string `json:"run_id"`
		Kind  string `json:"kind"`
	}
	json.Unmarshal(b, &got)
	rs := runs(t, r.Project.Journal)
	if len(rs) != 1 || got.RunID != rs[0].ID || got.Kind != "none" || warn.Len() != 0 {
		t.Fatalf("answer %s, runs %+v, warnings %q", b, rs, warn)
	}
	run := rs[0]
	if run.Request != "who owns billing?" || run.Depth != 5 || run.ModelCalls != 3 || !run.Miss() ||
		len(run.Skills) != 1 || run.Skills[0].Name != evolve.InstructionSkill || run.Skills[0].Version == "" {
		t.Errorf("run %+v", run)
	}
	if _, _, err := r.Project.Reference.Load(); err != nil {
		t.Errorf("the reference was not taken at the first use: %v", err)
	}
}

// The verdict a caller sends along judges the run it names; one naming
// no run is refused as a bad form, and the verb still answers.
func TestACallersVerdictJudgesTheRunItNames(t *testing.T) {
	r, _ := recorder(t)
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	first := r.Record(now, Verb{Kind: runrec.KindRemember, Answer: &blackbox.RememberAnswer{Params: map[string]blackbox.Fate{}}})
	id := first.(*rememberOut).RunID
	ans := &blackbox.RememberAnswer{Params: map[string]blackbox.Fate{}}
	r.Record(now.Add(time.Minute), Verb{Kind: runrec.KindRemember, Answer: ans,
		Raw: blackbox.Raw{"verdict": json.RawMessage(`{"run": "` + id + `", "verdict": "good", "note": "right"}`)}})
	if f := ans.Params["verdict"]; f.Fate != blackbox.FateAccepted {
		t.Fatalf("verdict fate %+v", f)
	}
	ans = &blackbox.RememberAnswer{Params: map[string]blackbox.Fate{}}
	r.Record(now.Add(2*time.Minute), Verb{Kind: runrec.KindRemember, Answer: ans,
		Raw: blackbox.Raw{"verdict": json.RawMessage(`{"run": "r-nope", "verdict": "bad"}`)}})
	if f := ans.Params["verdict"]; f.Fate != blackbox.FateBadForm || !strings.Contains(f.Reason, `no run "r-nope"`) {
		t.Fatalf("unknown run's verdict fate %+v", f)
	}
	var judged int
	for _, run := range runs(t, r.Project.Journal) {
		if run.Verdict != "" {
			judged++
			if run.ID != id || run.Verdict != runrec.Good || run.VerdictNote != "right" {
				t.Errorf("judged %+v", run)
			}
		}
	}
	if judged != 1 {
		t.Errorf("%d runs judged, want 1", judged)
	}
}

// Anything but a verb's answer passes through unrecorded.
func TestAnythingElsePassesThrough(t *testing.T) {
	r, _ := recorder(t)
	var nilAnswer *blackbox.RecallAnswer
	for _, ans := range []any{"text", nilAnswer} {
		if out := r.Record(time.Now(), Verb{Kind: runrec.KindRecall, Answer: ans}); out != ans {
			t.Errorf("%v became %v", ans, out)
		}
	}
	if rs := runs(t, r.Project.Journal); len(rs) != 0 {
		t.Errorf("recorded %+v", rs)
	}
}
