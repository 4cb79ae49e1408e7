package cli

import (
	"context"

	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/tidwall/gjson"
)

// hookPostToolUse hands the tool to the skills (evolve.SkillHook): an
// edit of a skill file is committed, a turn the Skill tool drives is
// recorded. Other tools cost one stat of the session's open-turn marker.
func hookPostToolUse(ctx context.Context, r *hookRun) ([]byte, error) {
	if handover.PostToolUse(r.In, handover.TurnOpen(r.Paths, r.root, r.In.SessionID)) == "" {
		return nil, nil // memhook-hot asks the same and does not hand the event over
	}
	return nil, r.skillHook().PostToolUse(evolve.ToolUse{Tool: r.In.ToolName, FilePath: r.In.ToolFilePath, CWD: r.In.CWD,
		Command: gjson.GetBytes(r.In.Raw, "tool_input.command").String(), Skill: gjson.GetBytes(r.In.Raw, "tool_input.skill").String()})
}

// skillHook is the session's turn as the skills record it, its log the
// hook's.
func (r *hookRun) skillHook() evolve.SkillHook {
	root := r.root
	if r.rootErr != nil {
		root = ""
	}
	return r.SkillHook(root, r.In.SessionID, r.Log)
}
