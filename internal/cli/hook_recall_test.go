package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutoRecallOnPrompt(t *testing.T) {
	h := newHookEnv(t)
	long := filepath.Join(h.proj, ".claude", "memory_long")
	os.MkdirAll(long, 0o755)
	os.WriteFile(filepath.Join(long, "Kafka.md"), []byte("# Kafka\nRetention on the events topic is seven days.\n"), 0o644)
	prompt := h.input("s1", "UserPromptSubmit", "prompt", "what is the kafka retention on events?")

	// off by default: nothing on stdout
	if out := h.hook(t, "user-prompt-submit", prompt); out != "" {
		t.Fatalf("auto-recall off printed %q", out)
	}
	h.env["CEREBRO_SEARCH_AUTO_RECALL"] = "true"
	// on, but no index yet: the hook does not build one
	if out := h.hook(t, "user-prompt-submit", prompt); out != "" {
		t.Fatalf("without an index printed %q", out)
	}
	if _, errOut, code := run(t, h.env, "", "index", "--project", h.proj); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	out := h.hook(t, "user-prompt-submit", prompt)
	var resp struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("hook output %q: %v", out, err)
	}
	ctx := resp.HookSpecificOutput.AdditionalContext
	if resp.HookSpecificOutput.HookEventName != "UserPromptSubmit" || !strings.Contains(ctx, ".claude/memory_long/Kafka.md#L1-L2") || !strings.Contains(ctx, "seven days") {
		t.Fatalf("context %q", ctx)
	}
	// the prompt was still captured
	if data, _ := os.ReadDir(filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions")); len(data) == 0 {
		t.Fatal("prompt not captured")
	}
	// slash commands and unrelated prompts get nothing
	for _, p := range []string{"/cerebro:recall kafka retention", "lunch plans for friday"} {
		if out := h.hook(t, "user-prompt-submit", h.input("s1", "UserPromptSubmit", "prompt", p)); out != "" {
			t.Fatalf("prompt %q recalled %q", p, out)
		}
	}
}
