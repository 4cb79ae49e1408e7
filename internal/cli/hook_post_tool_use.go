package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/tidwall/gjson"
)

// editTools are Claude Code's tools that write a file named by
// tool_input.file_path.
var editTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true}

// hookPostToolUse commits an edit of a skill file at once, so every edit
// of a skill can be rolled back, and records a turn the Skill tool drives:
// the skill (at its version) and the tools that followed it. Other tools
// cost one stat of the session's open-turn marker.
func hookPostToolUse(ctx context.Context, r *hookRun) ([]byte, error) {
	if handover.PostToolUse(r.In, handover.TurnOpen(r.Paths, r.root, r.In.SessionID)) == "" {
		return nil, nil // memhook-hot asks the same and does not hand the event over
	}
	r.recordSkillTurn()
	if !editTools[r.In.ToolName] || r.In.ToolFilePath == "" {
		return nil, nil
	}
	path := r.In.ToolFilePath
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.In.CWD, path)
	}
	ref, res, ok, err := r.reference().CommitEdit(path, r.In.ToolName, r.pluginRoot, r.Now())
	if !ok || err != nil {
		return nil, err
	}
	if res.Commit != "" {
		msg := fmt.Sprintf("committed skill %s (%s) as %.12s in %s", res.Skill, r.In.ToolName, res.Commit, res.Repo)
		if res.Initialized {
			msg += " (repository created)"
		}
		r.Log.Write(runlog.Entry{Time: r.Now(), Event: "skill-commit", Session: r.In.SessionID, Project: ref.Root, Level: "info", Message: msg})
	}
	return nil, nil
}

// turn is the session's turn as runrec records it; false when the hook
// names no usable project or session.
func (r *hookRun) turn() (runrec.Turn, bool) {
	if r.rootErr != nil || r.root == "" || r.In.SessionID == "" || strings.ContainsAny(r.In.SessionID, `/\.`) {
		return runrec.Turn{}, false
	}
	return runrec.Turn{Journal: r.runJournal(r.root), Marker: r.Paths.OpenTurn(project.ID(r.root), r.In.SessionID), Session: r.In.SessionID,
		Version: func(name string) string {
			if f := r.skillFile(r.root, name); f != "" {
				return evolve.FileVersion(f)
			}
			return ""
		}}, true
}

// recordSkillTurn opens a turn record when the Skill tool ran and adds
// every later tool of the turn to it. Failures are logged, never returned:
// the skill commit must not depend on them.
func (r *hookRun) recordSkillTurn() {
	t, ok := r.turn()
	if !ok {
		return
	}
	tool := r.In.ToolName
	if tool == "Bash" {
		tool = runrec.BashTool(gjson.GetBytes(r.In.Raw, "tool_input.command").String())
	}
	if err := t.Record(tool, gjson.GetBytes(r.In.Raw, "tool_input.skill").String(), r.Now()); err != nil {
		r.Log.Write(runlog.Entry{Time: r.Now(), Event: "run-record", Session: r.In.SessionID, Level: "warn", Message: err.Error()})
	}
}

// endSkillTurn closes the session's skill-driven turn at Stop.
func (r *hookRun) endSkillTurn() {
	if t, ok := r.turn(); ok {
		if err := t.End(r.Now()); err != nil {
			r.Log.Write(runlog.Entry{Time: r.Now(), Event: "run-record", Session: r.In.SessionID, Level: "warn", Message: err.Error()})
		}
	}
}
