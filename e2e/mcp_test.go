//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// The plugin's MCP server as Claude Code names it: mcp__plugin_<plugin>_<server>__<tool>.
const mcpPrefix = "mcp__plugin_cerebro_memory__"

// lastToolResult is the newest tool_result a session's requests carried
// back to the model: its text, and whether Claude Code marked it an error.
func (s *Sandbox) lastToolResult(sessionID string) (string, bool) {
	s.t.Helper()
	reqs := s.requestsOf(sessionID)
	for i := len(reqs) - 1; i >= 0; i-- {
		msgs := reqs[i].JSON().Get("messages").Array()
		for j := len(msgs) - 1; j >= 0; j-- {
			for _, b := range msgs[j].Get("content").Array() {
				if b.Get("type").String() != "tool_result" {
					continue
				}
				c := b.Get("content")
				text := c.String()
				if c.IsArray() {
					var parts []string
					for _, p := range c.Array() {
						parts = append(parts, p.Get("text").String())
					}
					text = strings.Join(parts, "")
				}
				return text, b.Get("is_error").Bool()
			}
		}
	}
	s.t.Fatalf("no tool_result in the requests of session %s", sessionID)
	return "", false
}

// toolUses lists the tools the model called in a session.
func (s *Sandbox) toolUses(sessionID string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range s.requestsOf(sessionID) {
		r.JSON().Get("messages.#(role==\"assistant\")#.content").ForEach(func(_, c gjson.Result) bool {
			for _, b := range c.Array() {
				if id := b.Get("id").String(); b.Get("type").String() == "tool_use" && !seen[id] {
					seen[id] = true
					out = append(out, b.Get("name").String())
				}
			}
			return true
		})
	}
	return out
}

// TestMemoryToolsInTheRealCLI: Claude Code starts the plugin's MCP server
// from .mcp.json and names its tools mcp__plugin_cerebro_memory__*; with
// default settings a tool asks before its first use (in -p, refused, and
// the server is not called); once the person allows the server, the model
// searches, reads, recalls and remembers through the tools with no Bash
// call, and each tool_result holds what memory holds; /cerebro:recall's
// own allowed-tools let its model call recall without any setting; and
// /cerebro:health says the server answers.
func TestMemoryToolsInTheRealCLI(t *testing.T) {
	s := newSandbox(t)
	day := filepath.Join(s.DailyDir(), "2026-11-20.md")
	if err := os.MkdirAll(filepath.Dir(day), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(day, []byte("# 2026-11-20\n\n## 10:00–10:30 · session 1234abcd · auto\n\n### Decided\n- The kestrel backups run from the old rack in hall B.\n"), 0o644)

	r := s.Prompt("hello")
	init := r.Init()
	var names []string
	for _, tl := range init.Get("tools").Array() {
		if strings.HasPrefix(tl.String(), mcpPrefix) {
			names = append(names, strings.TrimPrefix(tl.String(), mcpPrefix))
		}
	}
	if got := strings.Join(names, " "); got != "memory_get memory_search recall remember" {
		t.Fatalf("the plugin's MCP tools in system/init: %q; mcp_servers: %s", got, init.Get("mcp_servers").Raw)
	}
	if st := init.Get(`mcp_servers.#(name=="plugin:cerebro:memory").status`).String(); st != "connected" {
		t.Fatalf("the memory server is %q: %s", st, init.Get("mcp_servers").Raw)
	}
	// The model learns the names from the request: as tools (2.1.197), or
	// as deferred tools that ToolSearch loads (2.1.3xx).
	if body := string(s.requestsOf(r.SessionID())[0].Body); !strings.Contains(body, mcpPrefix+"memory_search") {
		t.Fatalf("the first request does not name %smemory_search", mcpPrefix)
	}

	// Default settings: the first use asks, and -p cannot ask.
	r = s.Prompt(`TRIGGER_MCP:memory_search {"query":"kestrel"}`)
	if text, isErr := s.lastToolResult(r.SessionID()); !isErr || !strings.Contains(text, "haven't granted it yet") {
		t.Fatalf("with default settings the tool ran, or failed otherwise: %s", text)
	}
	if strings.Contains(s.mcpCalls(), "memory_search") {
		t.Fatalf("a refused call reached the server: %s", s.mcpCalls())
	}

	// What "don't ask again" (or a line in settings) records.
	settings := filepath.Join(s.Project, ".claude", "settings.local.json")
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["mcp__plugin_cerebro_memory"]}}`), 0o644)
	calls := []struct {
		prompt string
		want   []string
	}{
		{`TRIGGER_MCP:memory_search {"query":"kestrel backups"}`, []string{`"citation":".claude/memory_short/daily/2026-11-20.md#L`, "hall B"}},
		{`TRIGGER_MCP:memory_get {"path":".claude/memory_short/daily/2026-11-20.md","from":6,"lines":1}`,
			[]string{`{"text":"- The kestrel backups run from the old rack in hall B.\n","path":".claude/memory_short/daily/2026-11-20.md"}`}},
		{`TRIGGER_MCP:recall {"text":"where do the kestrel backups run","lang":"en"}`,
			[]string{`"cite":".claude/memory_short/daily/2026-11-20.md#L`, "hall B", `"lang":{"fate":"not_supported"`}},
		{`TRIGGER_MCP:remember {"text":"The kestrel backup starts at 03:00","table":"backups","key":"kestrel","kind":"start","value":"03:00"}`,
			[]string{`"tables_created":["backups"]`}},
	}
	for _, c := range calls {
		r := s.Prompt(c.prompt)
		text, isErr := s.lastToolResult(r.SessionID())
		for _, w := range c.want {
			if isErr || !strings.Contains(text, w) {
				t.Errorf("%s: the tool_result lacks %s (error %v):\n%s", c.prompt, w, isErr, text)
			}
		}
		for _, u := range s.toolUses(r.SessionID()) {
			if u != "ToolSearch" && !strings.HasPrefix(u, mcpPrefix) {
				t.Errorf("%s: the model called %s", c.prompt, u)
			}
		}
	}
	// The record landed: the table holds it and a recall answers from it.
	if out := s.Memhook("tables", "--project", s.Project); !strings.Contains(out, "backups") {
		t.Errorf("memhook tables after remember:\n%s", out)
	}
	if out := s.Memhook("recall", "--project", s.Project, "when does the kestrel backup start"); !strings.Contains(out, "03:00") {
		t.Errorf("recall after remember:\n%s", out)
	}
	os.Remove(settings)

	// A person's /cerebro:recall grants its model the recall tool.
	s.Mock.On(Rule{
		Match: func(t *Turn) bool {
			return strings.Contains(t.Body.Raw, commandTag("recall")) && (!t.HasToolResult || AfterToolSearch(t))
		},
		Reply: func(t *Turn) []Block { return MCPCall(t, "recall", map[string]any{"text": "kestrel backups"}) },
	})
	s.AllowedTools = ""
	r = s.Prompt("/cerebro:recall kestrel")
	if text, isErr := s.lastToolResult(r.SessionID()); isErr || !strings.Contains(text, `"depth_used"`) || !strings.Contains(text, "kestrel") {
		t.Errorf("the model's recall tool call during /cerebro:recall (its allowed-tools only): %s", text)
	}

	s.Prompt("/cerebro:health")
	if got := s.commandTurn("health"); !strings.Contains(got, "memory tools: memhook mcp starts and lists 4 tools") {
		t.Errorf("/cerebro:health does not say the MCP server answers:\n%s", got)
	}
	s.checkHooks()
}

// mcpCalls is what memhook's log says the MCP server did.
func (s *Sandbox) mcpCalls() string {
	var b strings.Builder
	for _, e := range s.MemhookLog() {
		if e.Get("event").String() == "mcp" {
			b.WriteString(e.Get("message").String() + "\n")
		}
	}
	return b.String()
}
