// Package transcript reads Claude Code session transcripts (the JSONL files
// under ~/.claude/projects/<slug>/) incrementally, never whole.
//
// Keep the byte offset [Reader.Read] returns and pass it back next time: each call
// parses only the complete lines after it and yields the main dialogue as
// [Item] values (user prompts and assistant replies with their tool calls).
// Everything else a transcript holds — sidechains and subagents, tool
// results, isMeta expansions, hook and local-command noise, interrupt
// markers, and line types such as progress or file-history-snapshot — is
// skipped, except what the user said through a tool result (an answer, a
// refusal) and Claude Code's compaction summary, kept as items of a Kind.
//
// [Reader.ReadLog] reads the same lines into a [Log]: each tool call paired with
// its result (by tool_use_id), the sidechains a 1.0 transcript holds
// inline, the session's title, prompts typed while a turn ran (queue
// lines), the working directory.
//
// One assistant message is written as several lines sharing message.id.
// Within one call they come back as one Item; when a message straddles two
// calls, the second call returns the same ID again with only the new part,
// and the caller combines them with [Merge].
package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// Tool is one tool call made by the assistant.
type Tool struct {
	Name   string // the tool's name: Bash, Edit, Read, ...
	Target string // file path, command, pattern or URL the call was about ("" if none)
	// ID is the call's tool_use id; its result is paired by it.
	ID string
	// Input holds the few input fields the distillate reads besides
	// Target.
	Input Input
	// Result is the call's result; nil when none has been read (the
	// call is still running, or its result lies beyond what was read).
	Result *Result
}

// Input is what the distillate reads of a call's input.
type Input struct {
	// Command is a shell call's whole command, bounded (Target is cut
	// short; a heredoc commit message is in here).
	Command string
	// Todos is a TodoWrite call's whole list.
	Todos []Todo
	// Subject, TaskID and Status are a TaskCreate/TaskUpdate call's;
	// TaskID is also the task a TaskOutput/BashOutput call reads, and
	// Subject an AskUserQuestion call's first question.
	Subject, TaskID, Status string
	// Plan is an ExitPlanMode call's plan, bounded.
	Plan string
	// Description and Agent are a Task/Agent call's description and
	// subagent type; Args a Skill call's arguments.
	Description, Agent, Args string
	// Background: the command was started in the background.
	Background bool
}

// Todo is one item of a TodoWrite list.
type Todo struct {
	Content, Status string
}

// Item is one reply of the main dialogue.
type Item struct {
	Role  string    // "user" or "assistant"
	Text  string    // the dialogue text; tool calls are not in Text
	Tools []Tool    // tool calls made in this reply (assistant)
	Time  time.Time // from the line's timestamp (for a merged message, the first line carrying text or tools)
	ID    string    // assistant: message.id (split lines merged into one Item); user: uuid
	// Kind tells a user item that is not a typed prompt but still the
	// user's word to the model: KindAnswer (an AskUserQuestion answer),
	// KindDeclined (a tool call the user refused, with the reason they
	// gave), KindPlanApproved, KindHookFeedback (a hook blocked the turn),
	// KindInterrupted, KindCompactSummary (Claude Code's summary of
	// what came before a compaction). Empty for a prompt and for
	// assistant items.
	Kind string
}

// User item kinds besides a typed prompt.
const (
	KindAnswer       = "answer"
	KindDeclined     = "declined"
	KindPlanApproved = "plan-approved"
	KindHookFeedback = "hook-feedback"
	KindInterrupted  = "interrupted"
	// KindCompactSummary: the summary Claude Code wrote of the
	// conversation before a compaction; Text is the summary.
	KindCompactSummary = "compact-summary"
)

// Read parses complete lines from byte offset from up to at most maxBytes
// further (0 = to EOF) and returns the main-dialogue replies in order and the
// offset just after the last line consumed. An unterminated last line is left
// for the next call unless it already holds a complete JSON value. When the
// first line after from is longer than maxBytes it is still consumed whole,
// so every call that can make progress does.
//
// Items of an assistant message split across calls share their ID; combine
// results of successive calls with [Merge], and count replies by distinct
// ID, not by Item, when counting across calls. A line is bounded by r's
// LineBytes.
func (r Reader) Read(path string, from, maxBytes int64) (items []Item, next int64, err error) {
	l, next, err := r.readLog(path, from, maxBytes, false)
	return l.Items, next, err
}

func (r Reader) readLog(path string, from, maxBytes int64, sidechain bool) (Log, int64, error) {
	if from < 0 {
		return Log{}, from, fmt.Errorf("read transcript %s: negative offset %d", path, from)
	}
	lineBytes := r.lineBytes()
	until := r.until()
	if sidechain {
		until = -1 // a subagent's file is bounded by time, line by line
	}
	f, err := open(path, from, maxBytes, lineBytes, until)
	if err != nil {
		return Log{}, from, err
	}
	defer f.Close()

	var (
		br       = bufio.NewReaderSize(f, 64<<10)
		asm      = assembler{sidechain: sidechain}
		consumed int64
		long     shrinker // a line longer than br's buffer, shrunk as it is read
		inLong   bool
	)
	for {
		if maxBytes > 0 && consumed >= maxBytes {
			break
		}
		chunk, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) {
			long.write(chunk)
			inLong = true
			if maxBytes > 0 && consumed > 0 && consumed+long.raw > maxBytes {
				break // a long line past the window: leave it whole to the next call
			}
			if long.raw > lineBytes {
				// Over the line bound (a 60 MB tool output, a file of
				// zeros): dropped unread, so the lines after it are still
				// read; what is left of it reads as a fragment, skipped.
				n, _ := skipLine(br)
				consumed += long.raw + n
				long.reset()
				inLong = false
				continue
			}
			continue
		}
		line, lineLen := chunk, int64(len(chunk))
		if inLong {
			long.write(chunk)
			line, lineLen = long.out, long.raw
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return asm.finish(), from + consumed, fmt.Errorf("read transcript %s at %d: %w", path, from+consumed, rerr)
		}
		terminated := rerr == nil
		if !terminated && !CompleteTail(line) {
			break // truncated or empty tail: the writer has not finished it
		}
		if maxBytes > 0 && consumed > 0 && consumed+lineLen > maxBytes {
			break // the line ends beyond the window; the next call takes it
		}
		if sidechain && r.later(line) {
			break // not written yet at the moment read
		}
		consumed += lineLen
		asm.add(line)
		long.reset()
		inLong = false
		if !terminated {
			break
		}
	}
	return asm.finish(), from + consumed, nil
}

// CompleteTail reports whether an unterminated last line already holds a
// whole JSON value (a writer that omitted the final newline).
func CompleteTail(line []byte) bool {
	t := trimLine(line)
	return len(t) > 0 && validJSON(bytes.ToValidUTF8(t, []byte("\uFFFD")))
}

// Chars measures a segment in dialogue characters: the runes of each item's
// text plus one short line per tool call. Tool output never counts. It is
// additive up to the separator [Merge] puts between the parts of a split
// message.
func Chars(items []Item) int {
	n := 0
	for _, it := range items {
		n += utf8.RuneCountInString(it.Text)
		for _, t := range it.Tools {
			n += utf8.RuneCountInString(ToolLine(t))
		}
	}
	return n
}

// toolLineMax bounds how much of a long command or prompt a tool mention
// counts for: the call is a mention, not dialogue.
const toolLineMax = 80

// ToolLine renders a tool call as the one short line that stands for it in
// dialogue: "Edit internal/x.go", "Bash go test ./...".
func ToolLine(t Tool) string {
	target := firstLine(t.Target)
	if target == "" {
		return t.Name
	}
	return t.Name + " " + truncateRunes(target, toolLineMax)
}

// Merge appends more to items, folding an item of more into an earlier one
// with the same assistant ID (the rest of a message that straddled two
// [Reader.Read] calls). Items are not modified in place.
func Merge(items, more []Item) []Item {
	out := make([]Item, len(items), len(items)+len(more))
	copy(out, items)
	index := make(map[string]int, len(out))
	for i, it := range out {
		if it.Role == RoleAssistant && it.ID != "" {
			index[it.ID] = i
		}
	}
	for _, it := range more {
		if i, ok := index[it.ID]; ok && it.Role == RoleAssistant && it.ID != "" {
			out[i] = combine(out[i], it)
			continue
		}
		if it.Role == RoleAssistant && it.ID != "" {
			index[it.ID] = len(out)
		}
		out = append(out, it)
	}
	return out
}

// Roles an Item can have.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

func combine(a, b Item) Item {
	a.Text = joinText(a.Text, b.Text)
	if len(b.Tools) > 0 {
		tools := make([]Tool, 0, len(a.Tools)+len(b.Tools))
		a.Tools = append(append(tools, a.Tools...), b.Tools...)
	}
	if a.Time.IsZero() {
		a.Time = b.Time
	}
	return a
}

func joinText(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n\n" + b
}
