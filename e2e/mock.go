//go:build e2e

// Package e2e runs the real Claude Code CLI against cerebro, offline, with a
// scripted stand-in for the Anthropic Messages API. Build it with the e2e tag
// (`go test -tags e2e ./e2e/...`, driven by e2e/run and `make e2e`).
//
// The mock ([StartMock]) listens on 127.0.0.1 only, answers POST
// /v1/messages (with or without ?beta=true, streamed as SSE or as one JSON
// object), records every request and decides each reply from the user text of
// the current turn: the first [Rule] whose trigger word appears wins. Tests
// add rules with [Mock.On] ahead of the built-in ones; see [DefaultRules].
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// Block is one content block of a mocked assistant reply.
type Block struct {
	Type  string         // "text" or "tool_use"
	Text  string         // for text
	Name  string         // tool name, for tool_use
	Input map[string]any // tool input, for tool_use
}

// Text is a text reply block.
func Text(s string) Block { return Block{Type: "text", Text: s} }

// ToolUse is a tool call block.
func ToolUse(name string, input map[string]any) Block {
	return Block{Type: "tool_use", Name: name, Input: input}
}

// Turn is what a rule sees of one request.
type Turn struct {
	Body gjson.Result // the whole request body
	// Text joins the user text blocks sent since the last assistant message:
	// the prompt, a command expansion, hook feedback.
	Text string
	// Prompt is the last of those texts that is not a <system-reminder>.
	Prompt        string
	HasToolResult bool
	Tools         map[string]bool // tool names offered in this request
}

// Rule answers a turn when Trigger appears in its user text (an empty Trigger
// means Match alone decides).
type Rule struct {
	Trigger string
	Match   func(*Turn) bool // optional extra condition
	Reply   func(*Turn) []Block
}

// Request is one recorded HTTP request.
type Request struct {
	Time   time.Time
	Method string
	Path   string // with the query string
	Header http.Header
	Body   []byte
}

// JSON parses the body.
func (r Request) JSON() gjson.Result { return gjson.ParseBytes(r.Body) }

// Mock is a running Messages API stand-in.
type Mock struct {
	URL string
	srv *httptest.Server

	mu    sync.Mutex
	reqs  []Request
	rules []Rule
	// BigTokens is reported as input_tokens when "TRIGGER_BIGCTX" appears
	// anywhere in a request's messages (forces auto-compact, with
	// CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000).
	BigTokens int
	// OnRequest, when set, sees each request as it is recorded.
	OnRequest func(Request)
}

// CompactionPrompt marks Claude Code's request to summarise a conversation.
const CompactionPrompt = "create a detailed summary of the conversation"

// StartMock starts a mock on a loopback port. Close it when done.
func StartMock() (*Mock, error) {
	m := &Mock{rules: DefaultRules(), BigTokens: 190000}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	m.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: m}}
	m.srv.Start()
	m.URL = m.srv.URL
	return m, nil
}

// Close stops the server.
func (m *Mock) Close() { m.srv.Close() }

// On puts rules ahead of those already installed (later calls win).
func (m *Mock) On(rules ...Rule) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rules = append(append([]Rule{}, rules...), m.rules...)
}

// Requests returns a copy of everything received so far.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Messages returns the recorded POST /v1/messages requests.
func (m *Mock) Messages() []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/v1/messages") && !strings.Contains(r.Path, "count_tokens") {
			out = append(out, r)
		}
	}
	return out
}

// DefaultRules are the built-in triggers, tried in order:
//   - the compaction prompt → a <summary> with MOCK-SUMMARY;
//   - a turn carrying ToolSearch's result after TRIGGER_MCP → that MCP call;
//   - a turn carrying a tool_result → "MOCK-REPLY after tool";
//   - a <task-notification> (a background subagent's result) → "MOCK-REPLY
//     after the subagent's result";
//   - TRIGGER_BASHCMD:<command line> → Bash running that line;
//   - TRIGGER_BASH → Bash `echo hi`;
//   - TRIGGER_SKILL:<plugin:skill> → the Skill tool on that skill;
//   - TRIGGER_AGENT → a general-purpose subagent;
//   - TRIGGER_WRITE:<path>:<one-line content> → the Write tool;
//   - TRIGGER_MCP:<tool> <JSON arguments> → the MCP tool named
//     mcp__…__<tool> with those arguments; when Claude Code defers MCP
//     tools (2.1.3xx), ToolSearch loads it first;
//   - anything else → "MOCK-REPLY: " plus the first words of the prompt
//     (so distillates show which turn a reply belongs to).
func DefaultRules() []Rule {
	return []Rule{
		{Trigger: CompactionPrompt, Reply: func(*Turn) []Block {
			return []Block{Text("<analysis>mock</analysis>\n<summary>MOCK-SUMMARY of the session</summary>")}
		}},
		{Match: func(t *Turn) bool { return AfterToolSearch(t) && strings.Contains(t.Body.Raw, "TRIGGER_MCP:") }, Reply: mcpCall},
		{Match: func(t *Turn) bool { return t.HasToolResult }, Reply: func(*Turn) []Block {
			return []Block{Text("MOCK-REPLY after tool")}
		}},
		{Trigger: "<task-notification>", Reply: func(*Turn) []Block {
			return []Block{Text("MOCK-REPLY after the subagent's result")}
		}},
		{Trigger: "TRIGGER_BASHCMD:", Match: offers("Bash"), Reply: func(t *Turn) []Block {
			return []Block{ToolUse("Bash", map[string]any{"command": argLine(t.Text, "TRIGGER_BASHCMD:"), "description": "run it"})}
		}},
		{Trigger: "TRIGGER_BASH", Match: offers("Bash"), Reply: func(*Turn) []Block {
			return []Block{ToolUse("Bash", map[string]any{"command": "echo hi", "description": "say hi"})}
		}},
		{Trigger: "TRIGGER_SKILL:", Match: offers("Skill"), Reply: func(t *Turn) []Block {
			return []Block{ToolUse("Skill", map[string]any{"skill": argAfter(t.Text, "TRIGGER_SKILL:")})}
		}},
		{Trigger: "TRIGGER_AGENT", Match: func(t *Turn) bool { return t.Tools["Agent"] || t.Tools["Task"] }, Reply: func(t *Turn) []Block {
			name := "Agent"
			if !t.Tools["Agent"] {
				name = "Task"
			}
			return []Block{ToolUse(name, map[string]any{"description": "sub task", "prompt": "Say hello from the subagent.", "subagent_type": "general-purpose"})}
		}},
		{Trigger: "TRIGGER_WRITE:", Match: offers("Write"), Reply: func(t *Turn) []Block {
			arg := argLine(t.Text, "TRIGGER_WRITE:")
			path, content, _ := strings.Cut(arg, ":")
			return []Block{ToolUse("Write", map[string]any{"file_path": path, "content": content + "\n"})}
		}},
		{Trigger: "TRIGGER_MCP:", Match: func(t *Turn) bool { return mcpTool(t, argAfter(t.Text, "TRIGGER_MCP:")) != "" }, Reply: mcpCall},
		{Reply: func(t *Turn) []Block {
			words := strings.Fields(t.Prompt)
			if len(words) > 12 {
				words = words[:12]
			}
			return []Block{Text("MOCK-REPLY: " + strings.Join(words, " "))}
		}},
	}
}

func offers(tool string) func(*Turn) bool { return func(t *Turn) bool { return t.Tools[tool] } }

// mcpTool is the MCP tool whose name ends in "__"+name (Claude Code
// prefixes a server's tools with mcp__<server>__): offered in the request's
// tools, or, when ToolSearch is offered, named among the deferred tools.
func mcpTool(t *Turn, name string) string {
	if name == "" {
		return ""
	}
	for n := range t.Tools {
		if strings.HasPrefix(n, "mcp__") && strings.HasSuffix(n, "__"+name) {
			return n
		}
	}
	if t.Tools["ToolSearch"] {
		re := regexp.MustCompile(`mcp__[A-Za-z0-9_-]+__` + regexp.QuoteMeta(name) + `\b`)
		return re.FindString(t.Body.Raw)
	}
	return ""
}

// mcpCall answers TRIGGER_MCP:<tool> <JSON arguments>, the newest in the
// conversation, with that call (see [MCPCall]).
func mcpCall(t *Turn) []Block {
	text := ""
	for _, m := range t.Body.Get("messages").Array() {
		if m.Get("role").String() != "user" {
			continue
		}
		if c := m.Get("content"); c.IsArray() {
			for _, b := range c.Array() {
				if strings.Contains(b.Get("text").String(), "TRIGGER_MCP:") {
					text = b.Get("text").String()
				}
			}
		} else if strings.Contains(c.String(), "TRIGGER_MCP:") {
			text = c.String()
		}
	}
	_, args, _ := strings.Cut(argLine(text, "TRIGGER_MCP:"), " ")
	input := map[string]any{}
	_ = json.Unmarshal([]byte(args), &input)
	return MCPCall(t, argAfter(text, "TRIGGER_MCP:"), input)
}

// MCPCall is a reply calling the MCP tool named mcp__…__<tool> with input.
// While Claude Code defers MCP tools (offered by name only, 2.1.3xx), the
// reply is ToolSearch loading it, and the call follows on the next turn:
// a rule using MCPCall also matches [AfterToolSearch] turns.
func MCPCall(t *Turn, tool string, input map[string]any) []Block {
	name := mcpTool(t, tool)
	if !t.Tools[name] && t.Tools["ToolSearch"] && !AfterToolSearch(t) {
		return []Block{ToolUse("ToolSearch", map[string]any{"query": "select:" + name})}
	}
	return []Block{ToolUse(name, input)}
}

// AfterToolSearch is a turn carrying the result of ToolSearch loading an
// MCP tool, which the model's previous reply asked for.
func AfterToolSearch(t *Turn) bool {
	msgs := t.Body.Get("messages").Array()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Get("role").String() != "assistant" {
			continue
		}
		for _, b := range msgs[i].Get("content").Array() {
			if b.Get("type").String() == "tool_use" {
				return t.HasToolResult && b.Get("name").String() == "ToolSearch" && strings.HasPrefix(b.Get("input.query").String(), "select:mcp__")
			}
		}
		return false
	}
	return false
}

// argAfter is the whitespace-free word following marker.
func argAfter(text, marker string) string {
	_, rest, _ := strings.Cut(text, marker)
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return ""
}

// argLine is the rest of the line following marker.
func argLine(text, marker string) string {
	_, rest, _ := strings.Cut(text, marker)
	line, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(line)
}

func (m *Mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Time: time.Now(), Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body}
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	if m.OnRequest != nil {
		m.OnRequest(req)
	}
	m.mu.Unlock()

	switch {
	case r.Method != http.MethodPost:
		if strings.HasPrefix(r.URL.Path, "/v1/models") {
			writeJSON(w, map[string]any{"data": []any{}, "has_more": false})
			return
		}
		writeJSON(w, map[string]any{})
	case strings.HasSuffix(r.URL.Path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 42})
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		m.answer(w, gjson.ParseBytes(body))
	default:
		writeJSON(w, map[string]any{})
	}
}

func (m *Mock) turn(body gjson.Result) *Turn {
	t := &Turn{Body: body, Tools: map[string]bool{}}
	for _, tool := range body.Get("tools").Array() {
		t.Tools[tool.Get("name").String()] = true
	}
	msgs := body.Get("messages").Array()
	i := len(msgs)
	for i > 0 && msgs[i-1].Get("role").String() != "assistant" {
		i--
	}
	var texts []string
	for _, msg := range msgs[i:] {
		c := msg.Get("content")
		if c.Type == gjson.String {
			if msg.Get("role").String() == "user" {
				texts = append(texts, c.String())
				if !strings.HasPrefix(c.String(), "<system-reminder>") {
					t.Prompt = c.String()
				}
			}
			continue
		}
		for _, b := range c.Array() {
			switch b.Get("type").String() {
			case "tool_result":
				t.HasToolResult = true
			case "text":
				if msg.Get("role").String() == "user" {
					texts = append(texts, b.Get("text").String())
				}
				if txt := b.Get("text").String(); msg.Get("role").String() == "user" && !strings.HasPrefix(txt, "<system-reminder>") {
					t.Prompt = txt
				}
			}
		}
	}
	t.Text = strings.Join(texts, "\n")
	return t
}

func (m *Mock) reply(t *Turn) []Block {
	m.mu.Lock()
	rules := append([]Rule(nil), m.rules...)
	m.mu.Unlock()
	for _, r := range rules {
		if r.Trigger != "" && !strings.Contains(t.Text, r.Trigger) {
			continue
		}
		if r.Match != nil && !r.Match(t) {
			continue
		}
		return r.Reply(t)
	}
	return []Block{Text("MOCK-REPLY: ok")}
}

func (m *Mock) answer(w http.ResponseWriter, body gjson.Result) {
	blocks := m.reply(m.turn(body))
	model := body.Get("model").String()
	if model == "" {
		model = "claude-mock"
	}
	id := fmt.Sprintf("msg_mock%016x", time.Now().UnixNano())
	stop := "end_turn"
	content := make([]map[string]any, len(blocks))
	for i, b := range blocks {
		if b.Type == "tool_use" {
			stop = "tool_use"
			content[i] = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_mock%012x%d", time.Now().UnixNano(), i), "name": b.Name, "input": b.Input}
		} else {
			content[i] = map[string]any{"type": "text", "text": b.Text}
		}
	}
	input := 10
	if strings.Contains(body.Get("messages").Raw, "TRIGGER_BIGCTX") {
		input = m.BigTokens
	}
	usage := map[string]any{"input_tokens": input, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !body.Get("stream").Bool() {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model, "content": content,
			"stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev := func(name string, v map[string]any) {
		v["type"] = name
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	}
	startUsage := map[string]any{}
	for k, v := range usage {
		startUsage[k] = v
	}
	startUsage["output_tokens"] = 1
	ev("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": startUsage}})
	for i, c := range content {
		if c["type"] == "tool_use" {
			in, _ := json.Marshal(c["input"])
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		} else {
			ev("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		}
		ev("content_block_stop", map[string]any{"index": i})
	}
	ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	ev("message_stop", map[string]any{})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}
