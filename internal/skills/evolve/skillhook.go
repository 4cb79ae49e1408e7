package evolve

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// ToolUse is one PostToolUse of a session as the skills see it.
type ToolUse struct {
	Tool     string // tool_name
	Command  string // a Bash call's tool_input.command
	Skill    string // the Skill tool's tool_input.skill
	FilePath string // an edit's tool_input.file_path, as given
	CWD      string // the session's folder, for a relative FilePath
}

// SkillHook is what the hooks do for the skills: PostToolUse commits an
// edit of a skill file at once, so every edit of a skill can be rolled
// back, and records a turn the Skill tool drives (the skill at its version
// and the tools that followed it); Stop closes that turn's record.
type SkillHook struct {
	// Turn is the session's turn record; TurnOK false when the hook names
	// no usable project or session.
	Turn       runrec.Turn
	TurnOK     bool
	Reference  Reference
	PluginRoot func() string // asked only for an edit of the memory instruction
	Now        time.Time
	// Log writes one entry of the hook's log; project is "" when none.
	Log func(event, level, project, message string)
}

// editTools are Claude Code's tools that write a file named by
// tool_input.file_path.
var editTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true}

// PostToolUse records the tool in the skill's turn, then commits the edit
// of a skill file. A failed record is logged, never returned: the commit
// must not depend on it.
func (h SkillHook) PostToolUse(u ToolUse) error {
	if h.TurnOK {
		tool := u.Tool
		if tool == "Bash" {
			tool = runrec.BashTool(u.Command)
		}
		if err := h.Turn.Record(tool, u.Skill, h.Now); err != nil {
			h.Log("run-record", "warn", "", err.Error())
		}
	}
	if !editTools[u.Tool] || u.FilePath == "" {
		return nil
	}
	path := u.FilePath
	if !filepath.IsAbs(path) {
		path = filepath.Join(u.CWD, path)
	}
	ref, res, ok, err := h.Reference.CommitEdit(path, u.Tool, h.PluginRoot, h.Now)
	if !ok || err != nil {
		return err
	}
	if res.Commit != "" {
		msg := fmt.Sprintf("committed skill %s (%s) as %.12s in %s", res.Skill, u.Tool, res.Commit, res.Repo)
		if res.Initialized {
			msg += " (repository created)"
		}
		h.Log("skill-commit", "info", ref.Root, msg)
	}
	return nil
}

// Stop closes the session's skill-driven turn; a failure is logged.
func (h SkillHook) Stop() {
	if h.TurnOK {
		if err := h.Turn.End(h.Now); err != nil {
			h.Log("run-record", "warn", "", err.Error())
		}
	}
}
