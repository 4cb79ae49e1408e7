package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/runlog"

	"github.com/cerebro-mem/cerebro/internal/skill"
)

// editTools are Claude Code's tools that write a file named by
// tool_input.file_path.
var editTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true}

// hookPostToolUse commits an edit of a skill file at once, so every edit
// of a skill can be rolled back. Other tools and files cost one map lookup
// and a path split.
func hookPostToolUse(ctx context.Context, r *hookRun) ([]byte, error) {
	if !editTools[r.In.ToolName] || r.In.ToolFilePath == "" {
		return nil, nil
	}
	path := r.In.ToolFilePath
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.In.CWD, path)
	}
	ref, ok := skill.Locate(path)
	if !ok {
		return nil, nil
	}
	res, err := skill.Commit(ref, r.In.ToolName, r.Now())
	if err != nil {
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
