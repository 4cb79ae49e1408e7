package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

const (
	activeText = "---\nname: memory\ndescription: memory, active version\n---\nACTIVE-TEXT: recall first.\n"
	candText   = "---\nname: memory\ndescription: memory, candidate version\n---\nCANDIDATE-TEXT: recall with the scope.\n"
)

// newEvolveEnv is a project in a real git repository with the memory
// skill's evolving copy committed in it.
func newEvolveEnv(t *testing.T) *hookEnv {
	t.Helper()
	h := newHookEnv(t)
	os.RemoveAll(filepath.Join(h.proj, ".git"))
	if _, err := gitrepo.Init(h.proj); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(h.proj, ".claude", "skills", "use-memory", "SKILL.md")
	testfile.Write(t, f, activeText)
	repo, _ := gitrepo.Open(h.proj)
	if _, err := repo.CommitPaths([]string{f}, "skill use-memory: first", time.Now()); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *hookEnv) mh(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, h.env, stdin, append(args, "--project", h.proj)...)
	if code != 0 {
		t.Fatalf("memhook %s: exit %d: %s%s", strings.Join(args, " "), code, errOut, out)
	}
	return out
}

func (h *hookEnv) journal() runrec.Journal {
	return runrec.Journal{Dir: filepath.Join(h.env["CEREBRO_STATE_DIR"], "runs", project.ID(h.proj))}
}

func (h *hookEnv) runs(t *testing.T) ([]runrec.Run, runrec.Summary) {
	t.Helper()
	var v struct {
		Summary runrec.Summary `json:"summary"`
		Runs    []runrec.Run   `json:"runs"`
	}
	if err := json.Unmarshal([]byte(h.mh(t, "", "runs", "--json", "--limit", "0")), &v); err != nil {
		t.Fatal(err)
	}
	return v.Runs, v.Summary
}

func runID(t *testing.T, answer string) string {
	t.Helper()
	var v struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(answer), &v); err != nil || v.RunID == "" {
		t.Fatalf("the answer carries no run_id: %v\n%s", err, answer)
	}
	return v.RunID
}

func TestRunRecordsForEachKind(t *testing.T) {
	h := newEvolveEnv(t)
	rem := h.mh(t, "", "remember", "the deploy key rotates every Friday")
	rec := h.mh(t, "", "recall", "when does the deploy key rotate")
	art := filepath.Join(t.TempDir(), "a.md")
	testfile.Write(t, art, "table of rotations\n")
	rel := h.mh(t, "", "relearn", "--artifact", art, "--summary", "rotation table", "--about", "deploy key")
	ids := map[string]string{"remember": runID(t, rem), "recall": runID(t, rec), "relearn": runID(t, rel)}
	var ans struct {
		DepthUsed int    `json:"depth_used"`
		Kind      string `json:"kind"`
	}
	json.Unmarshal([]byte(rec), &ans)

	// A turn the Skill tool drives: the skill, the tools it led to, then Stop.
	s := "sess-1"
	in := func(tool string, input map[string]any) string {
		b, _ := json.Marshal(map[string]any{"session_id": s, "cwd": h.proj, "hook_event_name": "PostToolUse", "tool_name": tool, "tool_input": input})
		return string(b)
	}
	h.hook(t, "post-tool-use", in("Skill", map[string]any{"skill": "cerebro:use-memory"}))
	h.hook(t, "post-tool-use", in("Bash", map[string]any{"command": "memhook recall deploy key"}))
	// The verb is the call's command word, not a verb among its arguments.
	h.hook(t, "post-tool-use", in("Bash", map[string]any{"command": "memhook remember we should recall the deploy key"}))
	h.hook(t, "post-tool-use", in("Write", map[string]any{"file_path": filepath.Join(h.proj, "notes.md")}))
	h.hook(t, "stop", h.input(s, "Stop", "last_assistant_message", "done"))
	// A tool after Stop belongs to no skill-driven turn.
	h.hook(t, "post-tool-use", in("Bash", map[string]any{"command": "ls"}))

	runs, sum := h.runs(t)
	byKind := map[string]runrec.Run{}
	for _, r := range runs {
		byKind[r.Kind] = r
	}
	version := evolve.Version([]byte(activeText))
	for kind, id := range ids {
		r := byKind[kind]
		if r.ID != id || r.Seconds <= 0 || r.Request == "" {
			t.Errorf("%s record %+v, want id %s with request and seconds", kind, r, id)
		}
	}
	if r := byKind["recall"]; r.Depth != ans.DepthUsed || r.AnswerKind != ans.Kind || len(r.Skills) != 1 || r.Skills[0].Name != "use-memory" || r.Skills[0].Version != version {
		t.Errorf("recall record %+v, want depth %d kind %s and skill use-memory@%s", r, ans.DepthUsed, ans.Kind, version)
	}
	turn := byKind["turn"]
	if turn.Open || len(turn.Skills) != 1 || turn.Skills[0].Name != "use-memory" || turn.Skills[0].Version != version ||
		strings.Join(turn.Tools, ",") != "Skill(use-memory),Bash(memhook recall),Bash(memhook remember),Write" {
		t.Errorf("turn record %+v, want closed, skill use-memory, tools Skill(use-memory),Bash(memhook recall),Bash(memhook remember),Write", turn)
	}
	if sum.Runs != 4 || sum.Unfinished != 4 || sum.Good != 0 {
		t.Errorf("summary %+v: four runs, all unfinished (nobody judged them)", sum)
	}
}

func TestVerdictsFromOutsideAndUnfinishedRuns(t *testing.T) {
	h := newEvolveEnv(t)
	h.env["CEREBRO_EVOLUTION_PROPOSE_AFTER"] = "2"
	h.mh(t, "", "remember", "the staging host is blue")
	a := runID(t, h.mh(t, "", "recall", "staging host"))
	b := runID(t, h.mh(t, "", "recall", "staging host colour"))
	if out := h.mh(t, "", "verdict", a, "bad", "--note", "wrong host"); !strings.Contains(out, "verdict bad recorded for run "+a) {
		t.Fatalf("verdict output %q", out)
	}
	// The calling model judges b with its next request.
	next := h.mh(t, "", "recall", "staging host name", "--param", `verdict={"run":"`+b+`","verdict":"bad"}`)
	var ans struct {
		Params   map[string]map[string]string `json:"params"`
		Proposal string                       `json:"proposal"`
	}
	json.Unmarshal([]byte(next), &ans)
	if ans.Params["verdict"]["fate"] != "accepted" {
		t.Errorf("the verdict field's fate: %v", ans.Params["verdict"])
	}
	if !strings.Contains(ans.Proposal, "memhook skill candidate use-memory --from FILE") {
		t.Errorf("two bad verdicts make a proposal the model reads in the answer; got %q", ans.Proposal)
	}
	runs, sum := h.runs(t)
	got := map[string]runrec.Run{}
	for _, r := range runs {
		got[r.ID] = r
	}
	if got[a].Verdict != "bad" || got[a].VerdictNote != "wrong host" || got[b].Verdict != "bad" {
		t.Errorf("verdicts: a=%+v b=%+v", got[a], got[b])
	}
	if sum.Runs != 4 || sum.Bad != 2 || sum.Good != 0 || sum.Unfinished != 2 {
		t.Errorf("summary %+v: remember and the last recall have no verdict and are unfinished, never good", sum)
	}
	// The newest verdict wins; a bad form is refused and names the form.
	h.mh(t, "", "verdict", a, "good")
	if _, s := h.runs(t); s.Good != 1 || s.Bad != 1 {
		t.Errorf("after the second verdict: %+v", s)
	}
	bad := h.mh(t, "", "recall", "staging", "--param", `verdict="yes"`)
	if !strings.Contains(bad, `"fate": "bad_form"`) {
		t.Errorf("a verdict that is not an object: %s", bad)
	}
}

// standInShadowClaude records its arguments and prompt and answers with a
// marker naming the arm whose text it was given.
func standInShadowClaude(t *testing.T) (dir, log string) {
	dir = t.TempDir()
	log = filepath.Join(dir, "calls.log")
	script := "#!/bin/sh\n" +
		`prompt=$(cat)` + "\n" +
		`printf 'ARGS %s\n' "$*" >> "` + log + `"` + "\n" +
		`printf 'NESTED %s CLAUDECODE %s PARENT %s\n' "$CEREBRO_NESTED" "$CLAUDECODE" "$CEREBRO_RUN_PARENT" >> "` + log + `"` + "\n" +
		`case "$prompt" in *CANDIDATE-TEXT*) a="STANDIN-ANSWER from the candidate";; *ACTIVE-TEXT*) a="STANDIN-ANSWER from the active";; *) a=NONE;; esac` + "\n" +
		`printf '{"type":"result","result":"%s","usage":{"input_tokens":10,"cache_read_input_tokens":3,"output_tokens":5}}\n' "$a"` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

func TestShadowRunsOnTheShareWithinBudgetAndReturnsNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	h := newEvolveEnv(t)
	bin, calls := standInShadowClaude(t)
	cand := filepath.Join(t.TempDir(), "cand.md")
	testfile.Write(t, cand, candText)
	h.mh(t, "", "skill", "candidate", "use-memory", "--from", cand, "--id", "scoped")
	h.mh(t, "", "remember", "the staging host is blue")

	extra := []string{"PATH=" + bin + ":/usr/bin:/bin", "CLAUDECODE=1",
		"CEREBRO_EVOLUTION_SHADOW_SHARE=1", "CEREBRO_EVOLUTION_DAILY_BUDGET=2"}
	out, code := h.proc(t, "", extra, "recall", "staging host", "--project", h.proj)
	if code != 0 || strings.Contains(out, "STANDIN-ANSWER") {
		t.Fatalf("recall exit %d; the shadow's answer must never be returned:\n%s", code, out)
	}
	parent := runID(t, out)
	st := func() []runrec.Run {
		s, err := runrec.OpenStore(h.journal())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		r, _ := s.Runs(runrec.Filter{Kind: runrec.KindShadow})
		return r
	}
	waitFor(t, "the shadow pair", func() bool { return len(st()) == 2 })
	arms := map[string]runrec.Run{}
	for _, r := range st() {
		arms[r.Arm] = r
	}
	ac, cc := arms[runrec.ArmActive], arms[runrec.ArmCandidate]
	if ac.Parent != parent || cc.Parent != parent || ac.Pair == "" || ac.Pair != cc.Pair {
		t.Errorf("the arms must shadow run %s as one pair: %+v %+v", parent, ac, cc)
	}
	if !strings.Contains(ac.Answer, "from the active") || !strings.Contains(cc.Answer, "from the candidate") || cc.Skills[0].Candidate != "scoped" || cc.ModelCalls != 1 || cc.Tokens != 18 || ac.Tokens != 18 {
		t.Errorf("each arm runs its own text and records its answer: active %+v candidate %+v", ac, cc)
	}
	log := readFile(t, calls)
	// Only memhook's recall: Claude Code's own read tools would read the
	// repository past the safe file layer and the secret guard.
	if strings.Count(log, "ARGS -p --output-format text --allowedTools Bash(") != 2 || strings.Count(log, "recall:*) --output-format json --tools Bash\n") != 2 ||
		strings.Contains(log, "Read,") || strings.Contains(log, "STANDIN") ||
		strings.Count(log, "NESTED 1 CLAUDECODE  PARENT r") != 2 {
		t.Errorf("two bounded, nested calls with the prompt on stdin, CLAUDECODE stripped and the arm's run id passed:\n%s", log)
	}
	// The budget (2 calls = one pair) is spent: the next sampled recall
	// starts no model call.
	out, _ = h.proc(t, "", extra, "recall", "staging host colour", "--project", h.proj)
	runID(t, out)
	logs := filepath.Join(h.env["CEREBRO_STATE_DIR"], "logs")
	waitFor(t, "the refused shadow", func() bool {
		var all strings.Builder
		filepath.WalkDir(logs, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				all.Write(b)
			}
			return nil
		})
		return strings.Contains(all.String(), "daily budget of shadow model calls is spent")
	})
	if n := len(st()); n != 2 {
		t.Errorf("%d shadow runs, want the 2 of the first pair only", n)
	}
	if got := strings.Count(readFile(t, calls), "ARGS "); got != 2 {
		t.Errorf("claude was called %d times, want 2 (the budget)", got)
	}
	// With the share at 0 (the default), no shadow is ever started.
	before := len(readFile(t, filepath.Join(h.journal().Path())))
	extra[2] = "CEREBRO_EVOLUTION_SHADOW_SHARE=0"
	h.proc(t, "", extra, "recall", "staging", "--project", h.proj)
	time.Sleep(200 * time.Millisecond)
	if j := readFile(t, h.journal().Path()); strings.Count(j[before:], `"t":"slot"`) != 0 {
		t.Errorf("share 0 reserved a shadow slot:\n%s", j[before:])
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pairs writes n judged shadow pairs of candidate c against the active
// version: the candidate judged good in candGood of them, the active in
// actGood.
func pairs(t *testing.T, j runrec.Journal, c string, n, candGood, actGood int, now time.Time) {
	t.Helper()
	for i := 0; i < n; i++ {
		pair := "p-" + c + "-" + string(rune('a'+i))
		for _, arm := range []string{runrec.ArmActive, runrec.ArmCandidate} {
			id := pair + "-" + arm
			sk := runrec.Skill{Name: "use-memory"}
			good := i < actGood
			if arm == runrec.ArmCandidate {
				sk.Candidate, good = c, i < candGood
			}
			if err := j.Append(runrec.Run{ID: id, Time: now, Kind: runrec.KindShadow, Pair: pair, Arm: arm, ModelCalls: 1, Seconds: 2, Skills: []runrec.Skill{sk}, Parent: "r0"}); err != nil {
				t.Fatal(err)
			}
			v := runrec.Bad
			if good {
				v = runrec.Good
			}
			j.Verdict(runrec.Verdict{Run: id, Time: now, Verdict: v, Source: "judge"})
		}
	}
}

func TestEvolvePromotesTheWinnerAndRemovesTheLoser(t *testing.T) {
	h := newEvolveEnv(t)
	for id, text := range map[string]string{"winner": candText, "loser": "---\nname: memory\n---\nLOSER\n"} {
		f := filepath.Join(t.TempDir(), id+".md")
		testfile.Write(t, f, text)
		h.mh(t, "", "skill", "candidate", "use-memory", "--from", f, "--id", id)
	}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local)
	pairs(t, h.journal(), "winner", 5, 5, 2, now) // 5 of 5 good against 2: lead 0.6
	pairs(t, h.journal(), "loser", 5, 1, 4, now)  // 1 of 5 good against 4: lost
	repo, _ := gitrepo.Open(h.proj)
	before, _ := repo.Log("", 0)

	if out := h.mh(t, "", "evolve", "--dry-run"); !strings.Contains(out, "would promote") || !strings.Contains(out, "would remove") {
		t.Fatalf("dry run:\n%s", out)
	}
	if after, _ := repo.Log("", 0); len(after) != len(before) {
		t.Fatal("a dry run committed")
	}
	// The daily job decides in every registered project.
	if _, e, code := run(t, h.env, "", "registry", "add", h.proj); code != 0 {
		t.Fatal(e)
	}
	out, e, code := run(t, h.env, "", "evolve", "--all")
	if code != 0 || !strings.Contains(out, "("+h.proj+"):") {
		t.Fatalf("evolve --all: %d %s\n%s", code, e, out)
	}
	skillFile := filepath.Join(h.proj, ".claude", "skills", "use-memory", "SKILL.md")
	if got := readFile(t, skillFile); got != candText {
		t.Fatalf("the active file after promotion: %q\n%s", got, out)
	}
	for _, id := range []string{"winner", "loser"} {
		if _, err := os.Stat(filepath.Join(h.proj, ".claude", "skills", "use-memory", "candidates", id)); !os.IsNotExist(err) {
			t.Errorf("candidate %s still exists", id)
		}
	}
	after, _ := repo.Log("", 0)
	if len(after) != len(before)+2 {
		t.Fatalf("want exactly one commit per decision, got %d new", len(after)-len(before))
	}
	msgs := after[0].Message + "\n" + after[1].Message
	if !strings.Contains(msgs, "skill use-memory: promote candidate winner — won on verdicts: good 5 of 5 judged pairs against 2") ||
		!strings.Contains(msgs, "skill use-memory: remove candidate loser — lost on verdicts: good 1 of 5") {
		t.Errorf("commit messages:\n%s", msgs)
	}
	var v struct {
		Decisions []runrec.Decision `json:"decisions"`
	}
	json.Unmarshal([]byte(h.mh(t, "", "evolve", "log", "--json")), &v)
	if len(v.Decisions) != 2 {
		t.Fatalf("evolve log: %+v", v)
	}
	for _, d := range v.Decisions {
		if d.Commit == "" || d.Figures["judged"] != float64(5) || d.Why == "" {
			t.Errorf("decision without its commit or figures: %+v", d)
		}
		if d.Action == "promote" && d.Commit != after[0].Hash && d.Commit != after[1].Hash {
			t.Errorf("the promotion's record names commit %s", d.Commit)
		}
	}
	// The promotion commit holds the active file and the candidate's
	// removal, nothing else.
	for _, c := range after[:2] {
		d, err := repo.Diff("", mustParent(t, repo, c.Hash), c.Hash)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(d, "\n") {
			if strings.HasPrefix(l, "diff --git") && !strings.Contains(l, ".claude/skills/use-memory/") {
				t.Errorf("commit %s touched %s", c.Message, l)
			}
		}
	}
}

func mustParent(t *testing.T, r *gitrepo.Repo, h string) string {
	p, err := r.Parent(h)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hashTree hashes every file under dirs except those skip accepts.
func hashTree(t *testing.T, skip func(string) bool, dirs ...string) map[string]string {
	out := map[string]string{}
	for _, d := range dirs {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || skip(p) {
				return nil
			}
			b, _ := os.ReadFile(p)
			s := sha256.Sum256(b)
			out[p] = hex.EncodeToString(s[:])
			return nil
		})
	}
	return out
}

func TestInstructionResetRestoresOnlyTheInstruction(t *testing.T) {
	h := newEvolveEnv(t)
	skillFile := filepath.Join(h.proj, ".claude", "skills", "use-memory", "SKILL.md")
	var out bytes.Buffer
	sys := factory.System{In: strings.NewReader("yes\n"), Out: &out, Err: &out, Getenv: func(k string) string { return h.env[k] }, Environ: os.Environ, Now: time.Now}
	f := factory.New(sys)
	opts := instructionOptions(f)
	opts.Action, opts.Project, opts.StdinTerminal = "set-reference", h.proj, true
	if err := instructionRun(opts); err != nil {
		t.Fatalf("set-reference by a person at a terminal: %v\n%s", err, out.String())
	}

	// Refused under CLAUDECODE=1 even with a terminal and a "yes".
	h.env["CLAUDECODE"] = "1"
	testfile.Write(t, filepath.Join(h.proj, "other.md"), "OTHER\n")
	opts = instructionOptions(factory.New(factory.System{In: strings.NewReader("yes\n"), Out: &out, Err: &out, Getenv: sys.Getenv, Environ: os.Environ, Now: time.Now}))
	opts.Action, opts.Project, opts.From, opts.StdinTerminal = "set-reference", h.proj, filepath.Join(h.proj, "other.md"), true
	if err := instructionRun(opts); err == nil || !strings.Contains(err.Error(), "refused inside Claude Code") {
		t.Fatalf("set-reference under CLAUDECODE=1: %v", err)
	}
	if _, _, code := run(t, h.env, "yes\n", "instruction", "set-reference", "--project", h.proj); code == 0 {
		t.Fatal("set-reference through the command line under CLAUDECODE=1 succeeded")
	}
	delete(h.env, "CLAUDECODE")

	// Memory grows: a table, records, a candidate, another skill; the model
	// edits the instruction (committed by the hook).
	h.mh(t, "", "remember", "blue", "--table", "hosts", "--key", "staging", "--kind", "colour")
	id := runID(t, h.mh(t, "", "recall", "staging"))
	h.mh(t, "", "verdict", id, "good")
	cand := filepath.Join(t.TempDir(), "c.md")
	testfile.Write(t, cand, candText)
	h.mh(t, "", "skill", "candidate", "use-memory", "--from", cand, "--id", "kept")
	testfile.Write(t, filepath.Join(h.proj, ".claude", "skills", "use-tables", "SKILL.md"), "tables skill\n")
	testfile.Write(t, skillFile, "DEGRADED instruction\n")
	h.hook(t, "post-tool-use", h.input("s1", "PostToolUse", "tool_name", "Edit", "tool_input", "x"))
	b, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": h.proj, "tool_name": "Edit", "tool_input": map[string]any{"file_path": skillFile}})
	h.hook(t, "post-tool-use", string(b))
	repo, _ := gitrepo.Open(h.proj)
	before, _ := repo.Log("", 0)
	if !strings.HasPrefix(before[0].Message, "skill use-memory: Edit") {
		t.Fatalf("the edit was not committed: %+v", before[0])
	}

	skip := func(p string) bool {
		return p == skillFile || strings.Contains(p, string(filepath.Separator)+".git"+string(filepath.Separator)) || strings.Contains(p, string(filepath.Separator)+"logs"+string(filepath.Separator))
	}
	was := hashTree(t, skip, h.proj, h.env["CEREBRO_STATE_DIR"])
	out2 := h.mh(t, "", "instruction", "reset")
	if got := readFile(t, skillFile); got != activeText {
		t.Fatalf("reset left %q\n%s", got, out2)
	}
	now := hashTree(t, skip, h.proj, h.env["CEREBRO_STATE_DIR"])
	if len(now) != len(was) || len(was) < 6 {
		t.Errorf("files before %d, after %d", len(was), len(now))
	}
	for p, sum := range was {
		if now[p] != sum {
			t.Errorf("reset touched %s", p)
		}
	}
	after, _ := repo.Log("", 0)
	if len(after) != len(before)+1 {
		t.Fatalf("want one commit, got %d", len(after)-len(before))
	}
	if d, _ := repo.Diff("", before[0].Hash, after[0].Hash); strings.Count(d, "diff --git") != 1 || !strings.Contains(d, ".claude/skills/use-memory/SKILL.md") {
		t.Errorf("the reset commit touches more than the instruction:\n%s", d)
	}
	// Nothing the model reads mentions it: the command is hidden from help.
	if help, _, _ := run(t, h.env, "", "--help"); strings.Contains(help, "instruction") || strings.Contains(help, "reference") {
		t.Errorf("memhook --help shows the person's command:\n%s", help)
	}
}

func TestJudgeBlindPairs(t *testing.T) {
	h := newEvolveEnv(t)
	j := h.journal()
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local)
	for _, arm := range []string{runrec.ArmActive, runrec.ArmCandidate} {
		sk := runrec.Skill{Name: "use-memory"}
		if arm == runrec.ArmCandidate {
			sk.Candidate = "c1"
		}
		j.Append(runrec.Run{ID: "x-" + arm, Time: now, Kind: runrec.KindShadow, Pair: "p1", Arm: arm, ModelCalls: 1,
			Request: "which host", Answer: "ANSWER OF THE " + strings.ToUpper(arm), Skills: []runrec.Skill{sk}})
	}
	h.env["CLAUDECODE"] = "1"
	if _, e, code := run(t, h.env, "1\n", "evolve", "judge", "--project", h.proj); code == 0 || !strings.Contains(e, "refused inside Claude Code") {
		t.Fatalf("the model must not judge: %d %s", code, e)
	}
	delete(h.env, "CLAUDECODE")
	out := h.mh(t, "1\n", "evolve", "judge")
	if strings.Contains(out, "candidate]") || strings.Contains(out, "c1") || !strings.Contains(out, "1 pairs judged") {
		t.Fatalf("the pair must be shown blind and judged:\n%s", out)
	}
	// Which verdict each arm got is evolve's (TestUnjudgedPairsAreBlindAndJudgedOnce);
	// here: the choice typed at the terminal was recorded on both arms.
	runs, _ := h.runs(t)
	for _, r := range runs {
		if r.Verdict == "" {
			t.Errorf("%s arm: no verdict after the judge chose answer 1", r.Arm)
		}
	}
	if out := h.mh(t, "", "evolve", "judge", "--list"); strings.Contains(out, "p1") {
		t.Errorf("a judged pair is listed again:\n%s", out)
	}
}

// A mistyped --home must not run the daily round on a fresh, empty desk:
// evolve --all checks the desk exists, as every --home does.
func TestEvolveAllRefusesAMissingDesk(t *testing.T) {
	h := newEvolveEnv(t)
	missing := filepath.Join(t.TempDir(), "no-such-desk")
	out, e, code := run(t, h.env, "", "evolve", "--all", "--home", missing)
	if code == 0 || !strings.Contains(e, "evolve: desk "+missing+" is not a folder") {
		t.Fatalf("evolve --all --home missing: exit %d\n%s%s", code, e, out)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing desk was created: %v", err)
	}
	// An existing desk is used: its registry, here one project.
	desk := t.TempDir()
	h.env["CEREBRO_HOME"] = desk
	if _, e, code := run(t, h.env, "", "registry", "add", h.proj); code != 0 {
		t.Fatal(e)
	}
	delete(h.env, "CEREBRO_HOME")
	out, e, code = run(t, h.env, "", "evolve", "--all", "--home", desk)
	if code != 0 || !strings.Contains(out, "("+h.proj+"):") {
		t.Fatalf("evolve --all --home desk: exit %d\n%s%s", code, e, out)
	}
}
