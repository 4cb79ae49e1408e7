package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// handOver sets the record memhook-hot would hand memhook (hook.Handed).
func (h *hookEnv) handOver(d hook.Handed) {
	h.env[hook.HandOverEnv] = strings.TrimPrefix(d.Env(), hook.HandOverEnv+"=")
}

// hotStop is a Stop as memhook-hot hands it over: the reply captured
// already, memhook given the input without it.
func (h *hookEnv) hotStop(t *testing.T, session, reply string, d hook.Handed) {
	t.Helper()
	s := capture.Store{Root: filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions")}.Session(project.ID(h.proj), session)
	if _, err := s.Capture(time.Now(), "assistant", reply, capture.Meta{Project: h.proj}); err != nil {
		t.Fatal(err)
	}
	d.Session, d.Captured = session, true
	h.handOver(d)
	h.hook(t, "stop", h.input(session, "Stop"))
	delete(h.env, hook.HandOverEnv)
}

// TestHandedFlushIsNotDecidedAgain: memhook takes memhook-hot's project
// and its "flush due" without resolving or counting again: the flush runs
// though short.flush_replies is far off.
func TestHandedFlushIsNotDecidedAgain(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "40"
	h.turn(t, "s1", "Please rename the flag.", "I renamed the flag.")
	h.hook(t, "user-prompt-submit", h.input("s1", "UserPromptSubmit", "prompt", "And the option?"))
	h.hotStop(t, "s1", "I renamed the option.", hook.Handed{Reason: "flush due", Root: h.proj, FlushDue: true})
	got := h.daily()
	if countContaining(repliesIn(got), "renamed the option") != 1 || countContaining(repliesIn(got), "renamed the flag") != 1 {
		t.Fatalf("the handed flush did not run, or captured twice:\n%s", got)
	}
	last := h.log(t)
	if e := last[len(last)-1]; e.Event != "stop" || e.Level != "info" || e.Message != "from memhook-hot: flush due" {
		t.Fatalf("stop entry %+v", e)
	}
}

// TestTamperedHandOverIsRefused: the hand-over is hostile input. A
// project that is not the cwd's (another repository, a parent of the
// cwd's repository, a relative or unclean path, a worktree) is not taken,
// nor the decisions made with it: memhook resolves the project and decides
// the flush itself, writes nowhere else, and logs why. A record for
// another session is ignored whole.
func TestTamperedHandOverIsRefused(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "40"
	dir := filepath.Dir(h.proj)
	other := filepath.Join(dir, "other")
	os.MkdirAll(filepath.Join(other, ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755) // the cwd's repository sits inside another
	wt := filepath.Join(h.proj, "sub")
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(h.proj, ".git")+"\n"), 0o600)
	for i, root := range []string{other, dir, "proj", h.proj + "/../proj", "/", wt} {
		h.hotStop(t, "s1", "reply "+string(rune('a'+i)), hook.Handed{Reason: "flush due", Root: root, FlushDue: true})
		entries := h.log(t)
		e := entries[len(entries)-1]
		if e.Event != "stop" || e.Level != "warn" || !strings.Contains(e.Message, "from memhook-hot: flush due; hand-over not taken: the handed project") {
			t.Fatalf("root %s: log entry %+v", root, e)
		}
	}
	if h.daily() != "" {
		t.Fatalf("a refused hand-over flushed (its decision was taken):\n%s", h.daily())
	}
	for _, d := range []string{other, dir, wt} {
		if _, err := os.Stat(filepath.Join(d, ".claude")); err == nil {
			t.Errorf("memory written under the handed %s", d)
		}
	}
	// The captures stand (the session matched): six replies, none twice.
	s := capture.Store{Root: filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions")}.Session(project.ID(h.proj), "s1")
	if st, err := s.Load(); err != nil || st.Replies != 6 {
		t.Fatalf("%+v (%v), want 6 replies", st, err)
	}

	// Another session's record: nothing of it is taken, the reply is
	// captured here.
	h.handOver(hook.Handed{Reason: "flush due", Session: "s0", Root: h.proj, Captured: true, FlushDue: true})
	h.hook(t, "stop", h.input("s1", "Stop", "last_assistant_message", "I kept the ledger."))
	entries := h.log(t)
	if e := entries[len(entries)-1]; e.Level != "warn" || !strings.Contains(e.Message, "another session") {
		t.Fatalf("log entry %+v", e)
	}
	if st, _ := s.Load(); st.Replies != 7 || h.daily() != "" {
		t.Fatalf("replies %d, want 7 (the reply captured, no flush taken from the record)", st.Replies)
	}
}

// TestStopWithoutASkillLeavesSkillEvolutionAlone: skill evolution joins a
// Stop only when a skill drives the turn; memhook-hot's answer stands, so a
// Stop it found no skill in does not reach the turn record (here one a
// Skill call opened after that answer stays open, its marker in place),
// and one it found a skill in closes it.
func TestStopWithoutASkillLeavesSkillEvolutionAlone(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "40"
	marker := filepath.Join(h.env["CEREBRO_STATE_DIR"], "runs", project.ID(h.proj), "open", "s1")
	h.hook(t, "post-tool-use", `{"session_id":"s1","cwd":"`+h.proj+`","hook_event_name":"PostToolUse","tool_name":"Skill","tool_input":{"skill":"cerebro:use-memory"}}`)
	open := func() bool {
		runs, _ := h.runs(t)
		if len(runs) != 1 || runs[0].Kind != runrec.KindTurn {
			t.Fatalf("runs %+v, want the turn's one", runs)
		}
		_, err := os.Lstat(marker)
		if runs[0].Open != (err == nil) {
			t.Fatalf("the turn record's open %v, its marker: %v", runs[0].Open, err)
		}
		return runs[0].Open
	}
	if !open() {
		t.Fatal("the Skill call opened no turn record")
	}
	h.hotStop(t, "s1", "I recalled nothing.", hook.Handed{Reason: "flush due", Root: h.proj})
	if !open() {
		t.Fatal("a Stop without a skill reached the turn record")
	}
	h.hotStop(t, "s1", "I recalled the ledger.", hook.Handed{Reason: "a skill's turn ends", Root: h.proj, TurnOpen: true})
	if open() {
		t.Fatal("the skill's turn was not closed at its Stop")
	}
	// memhook alone asks the marker itself.
	h.hook(t, "post-tool-use", `{"session_id":"s1","cwd":"`+h.proj+`","hook_event_name":"PostToolUse","tool_name":"Skill","tool_input":{"skill":"cerebro:use-memory"}}`)
	h.hook(t, "stop", h.input("s1", "Stop", "last_assistant_message", "Done."))
	if runs, _ := h.runs(t); len(runs) != 2 || runs[0].Open || runs[1].Open {
		t.Fatalf("runs %+v, want both turns closed", runs)
	}
}
