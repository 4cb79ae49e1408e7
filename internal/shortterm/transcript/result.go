package transcript

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Status is what became of a tool call, as its result tells it.
type Status string

// Statuses of a tool call. Only StatusOK means the call did what it was
// asked; every other one means it did not (see reference
// transcript-outcomes.md §2 for the texts each is read from).
const (
	// StatusOK: the tool ran and reported no error. A command's own
	// verdict may still be a failure its exit code masked (a test run
	// piped to tail): the distiller reads the output for that.
	StatusOK Status = "ok"
	// StatusFailed: the tool ran and failed — a non-zero exit, an edit
	// that did not apply, a file that was not there.
	StatusFailed Status = "failed"
	// StatusRefused: Claude Code did not run it — permission not
	// granted, approval required, a path outside the allowed folders.
	StatusRefused Status = "refused"
	// StatusBlocked: a hook blocked the call.
	StatusBlocked Status = "blocked"
	// StatusRejected: the user rejected the call (or it was a sibling of
	// a rejected call, never run).
	StatusRejected Status = "rejected"
	// StatusInterrupted: the user interrupted the call.
	StatusInterrupted Status = "interrupted"
)

// Result is a tool call's result, read from the user line that carries
// it and paired with its call by tool_use_id.
type Result struct {
	Status Status
	// Text is the output as the model saw it, bounded: its head and its
	// tail (where a commit's hash and a test run's verdict are) around
	// a "[…]" marker. Kept for the tools whose output the distillate
	// reads (shell commands, background output, subagents) and for
	// every failure; "" for the rest.
	Text string
	// Exit is the exit code the output names ("Exit code 2"); 0 when it
	// names none.
	Exit int
	// Reason is what the user said when rejecting the call, if anything.
	Reason string
	// AgentID is the subagent a Task/Agent call ran (its transcript is
	// agent-<AgentID>.jsonl).
	AgentID string
	// Background is the id a command started in the background got;
	// its output comes later through TaskOutput/BashOutput.
	Background string
}

// OK reports whether the call did what it was asked.
func (r *Result) OK() bool { return r != nil && r.Status == StatusOK }

// Bounds of a kept output: its head and tail.
const (
	resultHead = 3000
	resultTail = 3000
	// errorKeep bounds the output kept of a failed call whose output is
	// otherwise not read.
	errorKeep = 600
)

// keepsOutput tells the tools whose successful output the distillate
// reads.
func keepsOutput(tool string) bool {
	switch tool {
	case "Bash", "PowerShell", "BashOutput", "TaskOutput", "Task", "Agent", "Skill", "TaskCreate":
		return true
	}
	return false
}

// Texts Claude Code writes in the results of calls that did not run.
var (
	rejectedStems = []string{
		"The user doesn't want to proceed with this tool use",
		"The user doesn't want to take this action right now",
		"User rejected tool use",
	}
	rejectReasons = []string{
		"the user provided the following reason for the rejection:",
		"To tell you how to proceed, the user said:",
	}
	refusedStems = []string{
		"requested permissions to", "haven't granted it yet", "requires approval",
		"was blocked. For security",
	}
	hookStems = []string{
		"hook blocking error", "hook error:", "blocked by hook", "denied by hook",
	}
	exitCode   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Exit code (\d+)`) })
	background = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`running in background with ID: ([A-Za-z0-9_-]+)`)
	})
)

// parseResult reads one tool_result block; tur is the line's
// toolUseResult (absent in some subagent files).
func parseResult(block, tur gjson.Result) Result {
	// Colours and cursor moves are for a terminal: a verdict printed in
	// colour ("Tests  15 passed") is read as a person sees it.
	text := stripANSI(resultText(block.Get("content")))
	isErr := block.Get("is_error").Bool()
	r := Result{Status: StatusOK}
	if m := exitCode().FindStringSubmatch(text); m != nil {
		r.Exit, _ = strconv.Atoi(m[1])
	}
	plain := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(stripToolError(text)), "Error: "))
	switch {
	case hasAny(plain, rejectedStems) || tur.Type == gjson.String && hasAny(tur.Str, rejectedStems):
		r.Status = StatusRejected
		lower := strings.ToLower(plain)
		for _, p := range rejectReasons {
			if i := strings.Index(lower, strings.ToLower(p)); i >= 0 {
				r.Reason = strings.TrimSpace(plain[i+len(p):])
				break
			}
		}
	case strings.HasPrefix(plain, "[Request interrupted by user"):
		r.Status = StatusInterrupted
	case (isErr || tur.Type == gjson.String) && hasAny(plain, hookStems):
		r.Status = StatusBlocked
	case (isErr || tur.Type == gjson.String) && hasAny(plain, refusedStems):
		r.Status = StatusRefused
	case isErr || r.Exit != 0:
		r.Status = StatusFailed
	}
	if tur.IsObject() {
		r.AgentID = tur.Get("agentId").Str
	}
	if m := background().FindStringSubmatch(text); m != nil {
		r.Background = m[1]
	}
	// Until it is paired, a result keeps its output: what is read of it
	// depends on the tool (see [trimFor]).
	r.Text = bound(text, resultHead, resultTail)
	return r
}

// trimFor keeps of a paired result what the distillate reads for its
// tool: a shell command's or a subagent's output, a failure's message
// (without Claude Code's tags), nothing of a successful read or search.
func (r *Result) trimFor(tool string) {
	switch {
	case keepsOutput(tool):
	case r.Status != StatusOK:
		r.Text = bound(strings.TrimSpace(strings.TrimPrefix(stripToolError(r.Text), "Error: ")), errorKeep, 0)
	default:
		r.Text = ""
	}
}

// resultText is a tool_result's content as text: a string, or its text
// blocks joined.
func resultText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var b strings.Builder
	c.ForEach(func(_, part gjson.Result) bool {
		if part.Get("type").Str == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(part.Get("text").Str)
		}
		return true
	})
	return b.String()
}

// stripToolError drops the <tool_use_error> tags Claude Code wraps a
// refusal in.
func stripToolError(s string) string {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutPrefix(s, "<tool_use_error>"); ok {
		s = strings.TrimSuffix(strings.TrimSpace(t), "</tool_use_error>")
	}
	return s
}

func hasAny(s string, stems []string) bool {
	for _, st := range stems {
		if strings.Contains(s, st) {
			return true
		}
	}
	return false
}

// bound keeps the first head and last tail bytes of s (at rune
// boundaries), marking the cut.
func bound(s string, head, tail int) string {
	if len(s) <= head+tail {
		return s
	}
	h := s[:runeStart(s, head)]
	if tail == 0 {
		return h + " […]"
	}
	t := s[runeStart(s, len(s)-tail):]
	return h + "\n[…]\n" + t
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// stripANSI removes terminal escape sequences from s: CSI sequences
// (colours, cursor moves: ESC [ … final byte), OSC sequences (titles,
// links: ESC ] … BEL, or ESC and a backslash), character set
// designations (ESC ( B) and the other two-byte escapes. Text without
// ESC is returned as is.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch s[i+1] {
		case '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		case '(', ')', '*', '+', '-', '.', '/':
			i += 2 // a character set designation: ESC ( B
		default:
			i++
		}
	}
	return b.String()
}
