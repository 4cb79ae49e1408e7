package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// TestAsyncSubagentTurnsAreNotTheMainThreadsDialogue replays what Claude
// Code 2.1.332 sends around an Agent call (logged from the real CLI in the
// e2e suite): the call returns at once, the subagent's end is a
// SubagentStop carrying agent_id and agent_transcript_path, and its result
// comes back as a new main-thread turn whose prompt is a
// <task-notification>. Neither the notification nor a subagent's stop is a
// reply of the person's dialogue: they count nothing, flush nothing and
// never reach Asked; the model's answer to the notification is a reply.
// Both binaries take the same path (memhook-hot for the per-turn hooks).
func TestAsyncSubagentTurnsAreNotTheMainThreadsDialogue(t *testing.T) {
	for _, hot := range []bool{false, true} {
		name := map[bool]string{false: "memhook", true: "memhook-hot"}[hot]
		t.Run(name, func(t *testing.T) {
			h := newHookEnv(t)
			h.hot = hot
			h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "4" // a flush a counted stop would make due
			h.env["CEREBRO_SHORT_MIN_REPLIES"] = "2"
			step := func(stdin, event string) {
				t.Helper()
				if out, code := h.proc(t, stdin, nil, "hook", event); code != 0 || out != "" {
					t.Fatalf("hook %s: exit %d, stdout %q", event, code, out)
				}
			}
			step(h.input("s1", "UserPromptSubmit", "prompt", "Please delegate the schema review."), "user-prompt-submit")
			step(h.input("s1", "Stop", "last_assistant_message", "I asked a subagent to review the schema."), "stop")
			// The subagent's end, delivered to the Stop hook as a future
			// Claude Code might: it must not count as the main thread's.
			step(h.input("s1", "SubagentStop", "agent_id", "ac003bc9934182fc1", "agent_transcript_path", "/tmp/agent-ac003bc9934182fc1.jsonl",
				"last_assistant_message", "SUBAGENT-REPLY the schema is fine"), "stop")
			step(h.input("s1", "Stop", "agent_id", "ac003bc9934182fc1", "last_assistant_message", "SUBAGENT-REPLY again"), "stop")
			notification := "<task-notification>\n<task-id>ac003bc9934182fc1</task-id>\n<status>completed</status>\n<result>SUBAGENT-RESULT the schema is fine</result>\n</task-notification>"
			step(h.input("s1", "UserPromptSubmit", "prompt", notification), "user-prompt-submit")

			st := readState(t, h, "s1")
			if st.Replies != 2 || st.SegReplies != 2 {
				t.Fatalf("after a prompt, a reply, two subagent stops and a notification: %d replies (%d in the segment), want 2", st.Replies, st.SegReplies)
			}
			step(h.input("s1", "Stop", "last_assistant_message", "The subagent found the schema fine."), "stop")
			if st := readState(t, h, "s1"); st.Replies != 3 || st.Flushes != 0 {
				t.Fatalf("the model's answer to the notification is a reply: %d replies, %d flushes, want 3 and none", st.Replies, st.Flushes)
			}
			step(h.input("s1", "SessionEnd", "reason", "other"), "session-end")
			daily := h.daily()
			asked := strings.Join(bulletsUnder(daily, "### Asked"), "\n")
			if !strings.Contains(asked, "delegate the schema review") {
				t.Fatalf("the person's request is not in Asked:\n%s", daily)
			}
			for _, never := range []string{"task-notification", "SUBAGENT-RESULT", "SUBAGENT-REPLY"} {
				if strings.Contains(daily, never) {
					t.Errorf("the daily file holds %q, which is not the main thread's dialogue:\n%s", never, daily)
				}
			}
			for _, e := range h.log(t) {
				if e.Event == "stop" && strings.Contains(e.Message, "subagent's stop (ac003bc9934182fc1)") {
					return
				}
			}
			t.Errorf("the log does not say why the subagent's stops were skipped: %+v", h.log(t))
		})
	}
}

type sessionState struct {
	Replies    int `json:"replies"`
	SegReplies int `json:"seg_replies"`
	Flushes    int `json:"flushes"`
}

func readState(t *testing.T, h *hookEnv, session string) sessionState {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", project.ID(h.proj), session+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var st sessionState
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
