// Package handover answers, for the per-turn events, "does memhook need
// this event?": memhook-hot captures the message itself and hands the
// event to memhook only when one of these says so, and memhook, which
// also runs these events alone when memhook-hot is absent, asks the same
// functions before it does the work. One answer, so the two binaries can
// never disagree on when a flush is due or a skill's turn is recorded.
//
// It links only the configuration, the session journal and the hook
// input: memhook-hot links it, and must not link SQLite or go-git.
//
//	if why := handover.Stop(handover.FlushDue(cfg, st), handover.TurnOpen(paths, root, session)); why != "" { … }
package handover

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// Prompt is why memhook needs a UserPromptSubmit whose prompt is
// captured: auto-recall answers it (it searches the indexes). "" when
// memhook has nothing to do.
func Prompt(cfg *config.Effective, prompt string) string {
	if cfg.Search.AutoRecalls(prompt) {
		return "auto-recall"
	}
	return ""
}

// FlushDue reports whether the captured session is due a flush under the
// project's thresholds.
func FlushDue(cfg *config.Effective, st *capture.State) bool {
	return capture.Thresholds{Chars: cfg.Short.FlushChars, Replies: cfg.Short.FlushReplies}.Due(st)
}

// Stop is why memhook needs a Stop whose message is captured: a flush
// became due ([FlushDue]), or a turn a skill drove ends ([TurnOpen]: its
// run record is closed then). "" when memhook has nothing to do.
func Stop(flushDue, turnOpen bool) string {
	switch {
	case flushDue:
		return "flush due"
	case turnOpen:
		return "a skill's turn ends"
	}
	return ""
}

// PostToolUse is why memhook needs a PostToolUse: the Skill tool ran (a
// turn record opens), a file under a skills folder was written (memhook
// tells which are skills and commits them), or a skill's turn goes on
// (the tool is recorded). "" for every other tool.
func PostToolUse(in *hook.Input, turnOpen bool) string {
	switch in.ToolName {
	case "Skill":
		return "a skill ran"
	case "Write", "Edit", "MultiEdit":
		path := in.ToolFilePath
		if path != "" && !filepath.IsAbs(path) {
			path = filepath.Join(in.CWD, path)
		}
		if path != "" && strings.Contains(filepath.ToSlash(path), "/skills/") {
			return "a skill file may have changed"
		}
	}
	if turnOpen {
		return "a skill's turn goes on"
	}
	return ""
}

// TurnOpen reports whether a skill drives the session's turn: its
// open-turn marker exists. One stat, whatever the history.
func TurnOpen(paths config.Paths, root, session string) bool {
	if root == "" || session == "" || strings.ContainsAny(session, `/\.`) {
		return false // a session id that is not a file name has no marker
	}
	_, err := os.Lstat(paths.OpenTurn(project.ID(root), session))
	return err == nil
}
