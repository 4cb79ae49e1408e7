// Package hookreplay plays a recorded Claude Code transcript through
// memhook's hooks the way Claude Code fires them: SessionStart, then per
// prompt a UserPromptSubmit, a PreCompact where the context was compacted,
// a Stop before the turn's last assistant text reaches the file, and
// SessionEnd, in the order importer.Walker finds them. The caller
// runs each hook (a process per event, its own env and clock) and writes
// each line to the live transcript, so the transcript grows as the hooks
// read it.
//
//	lines, err := hookreplay.ReadLines(file)
//	hookreplay.Play(lines, func(event string, kv ...string) string {
//		prog, args := hookreplay.Command(bin, hot, event)
//		... // run prog args with the hook's JSON on stdin
//	}, func(raw []byte) { live.Write(raw) })
package hookreplay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Line is one transcript line as the replay needs it.
type Line struct {
	Raw  []byte
	Item transcript.Item
	OK   bool // parsed as an item
}

// ReadLines reads a transcript's lines.
func ReadLines(file string) ([]Line, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer fh.Close()
	var lines []Line
	r := bufio.NewReaderSize(fh, 1<<20)
	for {
		raw, err := r.ReadBytes('\n')
		if len(raw) > 0 {
			it, ok := transcript.ParseLine(raw)
			lines = append(lines, Line{Raw: raw, Item: it, OK: ok})
		}
		if err != nil {
			break
		}
	}
	return lines, nil
}

// Play fires the session's hooks around writing its lines, from
// SessionStart to SessionEnd, in the order importer.Walker finds them
// (the order `memhook import` replays them in): before each event, the
// lines written by then are written.
func Play(lines []Line, hook func(event string, kv ...string) string, write func(raw []byte)) {
	var all bytes.Buffer
	for _, l := range lines {
		all.Write(l.Raw)
	}
	next, pos := 0, int64(0)
	importer.Steps(bytes.NewReader(all.Bytes()), 0, func(st importer.Step) error {
		for next < len(lines) && pos+int64(len(lines[next].Raw)) <= st.Offset {
			write(lines[next].Raw)
			pos += int64(len(lines[next].Raw))
			next++
		}
		hook(st.Event, st.Fields()...)
		return nil
	})
	for ; next < len(lines); next++ {
		write(lines[next].Raw)
	}
}

// Input is the JSON a hook reads on stdin: the fields every event has,
// then the event's own (kv as key, value pairs).
func Input(session, cwd, transcriptPath, event string, kv ...string) []byte {
	m := map[string]any{"session_id": session, "cwd": cwd, "hook_event_name": event, "transcript_path": transcriptPath}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	in, _ := json.Marshal(m)
	return in
}

// Command is the program and arguments that run event's hook: the
// per-turn events go through memhook-hot when hot is set, as the plugin's
// shim routes them.
func Command(bin, hot, event string) (string, []string) {
	prog := bin
	if hot != "" && (event == "UserPromptSubmit" || event == "Stop" || event == "PostToolUse") {
		prog = hot
	}
	return prog, []string{"hook", hook.Arg(event)}
}

// Inject is the context a SessionStart hook's output adds ("" for none).
func Inject(out string) (string, error) {
	if strings.TrimSpace(out) == "" {
		return "", nil
	}
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return "", fmt.Errorf("read the SessionStart output: %w", err)
	}
	return v.HookSpecificOutput.AdditionalContext, nil
}
