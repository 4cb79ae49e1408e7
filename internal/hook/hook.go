// Package hook speaks Claude Code's hook wire protocol: the JSON object a
// hook receives on stdin and the JSON a hook may print on stdout. It holds
// no memory logic.
//
// [Run] is the frame of one hook process, shared by memhook and
// memhook-hot: decode, resolve the project, log, keep the deadline, print.
//
// [Decode] reads and validates the input; [AddContext] and
// [SessionStartNotice] build the only outputs cerebro prints. A hook that has
// nothing to say prints nothing.
package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// MaxInput bounds the hook input kept once its strings are cut to
// [MaxField]: what a handler and a hand-over to memhook see.
const MaxInput = 16 << 20

// Event names as Claude Code sends them in hook_event_name.
const (
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	Stop             = "Stop"
	PreCompact       = "PreCompact"
	SessionEnd       = "SessionEnd"
	PostToolUse      = "PostToolUse"
	PreToolUse       = "PreToolUse"
	// PostToolUseFailure fires instead of PostToolUse when the call
	// failed (Claude Code 2.x).
	PostToolUseFailure = "PostToolUseFailure"
)

// Arg is the argument of `memhook hook` that runs an event's hook, as
// hooks/hooks.json names it: SessionStart → session-start.
func Arg(event string) string {
	var b strings.Builder
	for i, r := range event {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}

// Input is the part of a hook's stdin cerebro uses.
type Input struct {
	SessionID            string
	TranscriptPath       string
	CWD                  string
	Event                string
	Source               string // SessionStart: startup, resume, clear, compact
	Prompt               string // UserPromptSubmit
	LastAssistantMessage string // Stop
	StopHookActive       bool   // Stop
	Trigger              string // PreCompact: manual, auto
	Reason               string // SessionEnd
	ToolName             string // PostToolUse
	ToolFilePath         string // PostToolUse: tool_input.file_path of Write/Edit/MultiEdit
	AgentID              string // set when a subagent's turn fired the event (SubagentStop has it)
	Raw                  []byte
}

// ErrEmpty means stdin held nothing.
var ErrEmpty = errors.New("empty hook input")

// Decode reads one hook input (see [ReadInput]: within [ReadTimeout], every
// string cut at [MaxField] as it is read). Invalid UTF-8 inside strings is
// replaced rather than refused: a prompt with a broken byte is still a
// prompt.
func Decode(r io.Reader) (*Input, error) {
	data, err := ReadInput(r, ReadTimeout)
	if err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, ErrEmpty
	}
	if !utf8.Valid(data) {
		data = []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
	}
	if !gjson.ValidBytes(data) {
		return nil, fmt.Errorf("parse hook input: not valid JSON")
	}
	v := gjson.ParseBytes(data)
	if !v.IsObject() {
		return nil, fmt.Errorf("parse hook input: want a JSON object")
	}
	in := &Input{
		SessionID:            v.Get("session_id").String(),
		TranscriptPath:       v.Get("transcript_path").String(),
		CWD:                  v.Get("cwd").String(),
		Event:                v.Get("hook_event_name").String(),
		Source:               v.Get("source").String(),
		Prompt:               v.Get("prompt").String(),
		LastAssistantMessage: v.Get("last_assistant_message").String(),
		StopHookActive:       v.Get("stop_hook_active").Bool(),
		Trigger:              v.Get("trigger").String(),
		Reason:               v.Get("reason").String(),
		ToolName:             v.Get("tool_name").String(),
		ToolFilePath:         v.Get("tool_input.file_path").String(),
		AgentID:              v.Get("agent_id").String(),
		Raw:                  data,
	}
	if in.SessionID == "" {
		return nil, fmt.Errorf("parse hook input: no session_id")
	}
	if strings.ContainsAny(in.SessionID, `/\`) || strings.Contains(in.SessionID, "..") {
		return nil, fmt.Errorf("parse hook input: session_id %q is not a plain identifier", in.SessionID)
	}
	return in, nil
}

type specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

type output struct {
	HookSpecificOutput specific `json:"hookSpecificOutput"`
	// SystemMessage is shown to the person, not sent to the model.
	SystemMessage string `json:"systemMessage,omitempty"`
}

// SessionStartNotice is the SessionStart output that adds context to the
// session (AddContext) with a line shown to the
// person (Claude Code's systemMessage), when notice is not empty.
func SessionStartNotice(context, notice string) []byte {
	if context == "" || notice == "" {
		return AddContext(SessionStart, context)
	}
	b, _ := json.Marshal(output{HookSpecificOutput: specific{HookEventName: SessionStart, AdditionalContext: context}, SystemMessage: notice})
	return append(b, '\n')
}

type preSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// PreToolUseOutput is the PreToolUse output: context for the model and,
// when decision is "deny" or "ask", the permission decision with its
// reason. Any other decision is dropped: cerebro never allows a call
// Claude Code would ask about. Nothing to say means print nothing.
func PreToolUseOutput(context, decision, reason string) []byte {
	if decision != "deny" && decision != "ask" {
		decision, reason = "", ""
	}
	if context == "" && decision == "" {
		return nil
	}
	b, _ := json.Marshal(struct {
		HookSpecificOutput preSpecific `json:"hookSpecificOutput"`
	}{preSpecific{HookEventName: PreToolUse, PermissionDecision: decision, PermissionDecisionReason: reason, AdditionalContext: context}})
	return append(b, '\n')
}

// AddContext is the output of event that adds context: to the prompt
// about to be sent (UserPromptSubmit), or after a tool call ran
// (PostToolUse, PostToolUseFailure). No context prints nothing.
func AddContext(event, context string) []byte {
	if context == "" {
		return nil
	}
	b, _ := json.Marshal(output{HookSpecificOutput: specific{HookEventName: event, AdditionalContext: context}})
	return append(b, '\n')
}
