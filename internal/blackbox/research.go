package blackbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// ClaudeResearch is level 5: `claude -p` researching the question in the
// project, bounded by a number of calls and a wall-clock budget. The child
// runs with CEREBRO_NESTED=1 (Env must carry it), so its hooks do nothing
// and a recall it makes never climbs to level 5 again.
type ClaudeResearch struct {
	Command  string   // the claude executable
	Memhook  string   // this memhook, offered to the child for sub-questions
	Model    string   // optional --model
	Dir      string   // the project root, the child's working directory
	Env      []string // the child's whole environment
	MaxCalls int
	Budget   time.Duration
	Now      func() time.Time
}

// NoAnswer is what the child says when its research found nothing.
const NoAnswer = "NONE"

func (c ClaudeResearch) prompt(query string) string {
	sub := ""
	if c.Memhook != "" {
		sub = "; you may run `\"" + c.Memhook + "\" recall --depth deep QUESTION` for sub-questions"
	}
	return "You research one question for cerebro, the project's memory, and answer it for another model.\n" +
		"Look in the project's memory (.claude/memory_long, .claude/memory_short) and files" + sub + ". Do not browse the web.\n" +
		"Answer in at most 5 sentences, naming the files or records each claim rests on. " +
		"If you cannot find an answer, reply exactly " + NoAnswer + ".\n\nQuestion: " + query
}

// Research implements [Researcher]: one call, repeated with what is left of
// the budget only when a call failed outright.
func (c ClaudeResearch) Research(ctx context.Context, query string) (Research, error) {
	start := c.Now()
	ctx, cancel := context.WithTimeout(ctx, c.Budget)
	defer cancel()
	var r Research
	var lastErr error
	for r.Calls < c.MaxCalls && ctx.Err() == nil {
		r.Calls++
		// -p grants no tool by itself: reading, and memhook's recall, are
		// allowed by name; nothing that writes or reaches the network is.
		tools := "Read,Grep,Glob"
		if c.Memhook != "" {
			tools += ",Bash(\"" + c.Memhook + "\" recall:*)"
		}
		args := []string{"-p", c.prompt(query), "--output-format", "text", "--allowedTools", tools}
		if c.Model != "" {
			args = append(args, "--model", c.Model)
		}
		cmd := exec.CommandContext(ctx, c.Command, args...)
		cmd.Dir, cmd.Env = c.Dir, c.Env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r.Seconds = c.Now().Sub(start).Seconds()
		if err != nil {
			lastErr = fmt.Errorf("research call %d: %w: %s", r.Calls, err, clip(errb.String(), 300))
			continue
		}
		text := strings.TrimSpace(out.String())
		if text == NoAnswer || text == "" {
			return r, nil
		}
		r.Text = text
		return r, nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return r, fmt.Errorf("research stopped at its budget of %s after %d calls", c.Budget, r.Calls)
	}
	return r, lastErr
}
