package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HandOverEnv carries, from memhook-hot to the memhook it hands an event
// over to, what memhook-hot already did and decided: a [Handed], as JSON.
const HandOverEnv = "CEREBRO_HOOK_HANDOVER"

// maxHanded bounds the variable read: two ids, a path and a reason.
const maxHanded = 16 << 10

// HandOver is what a handler of memhook-hot returns, as its error, for an
// event it leaves to memhook: the work that remains (a flush that is due,
// auto-recall, a skill's turn) needs packages the hot binary does not
// link. Run returns it without a log entry of its own; the caller then
// runs memhook with Input on stdin and [HandOverEnv] set to Handed, and
// memhook's entry, the event's only one, names the reason.
type HandOver struct {
	Handed
	// Input is what memhook reads on stdin; nil: the input as it came.
	Input []byte
}

func (h *HandOver) Error() string { return "handed to memhook: " + h.Reason }

// Handed is what memhook-hot did and decided before it handed an event
// over, so that memhook does not do it again: the session's project
// resolved, the message captured, whether a flush is due and whether a
// skill drives the turn. memhook reads it as hostile input ([Run]): a
// record for another session is ignored whole (a stale variable), and the
// project and the decisions are taken only when the project is the
// input's cwd's.
type Handed struct {
	Reason   string `json:"reason"`
	Session  string `json:"session"`
	Root     string `json:"root,omitempty"`
	Captured bool   `json:"captured,omitempty"` // the event's message is in the journal
	FlushDue bool   `json:"flush_due,omitempty"`
	TurnOpen bool   `json:"turn_open,omitempty"` // a skill drives the session's turn
}

// Env is the variable that hands h over.
func (h Handed) Env() string {
	b, _ := json.Marshal(h)
	return HandOverEnv + "=" + string(b)
}

// WithoutHandOver is env without a [HandOverEnv] it inherited: the one
// memhook-hot sets must be the only one (the first of two would win).
func WithoutHandOver(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, HandOverEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// readHanded reads the hand-over of the event in from the environment:
// nil when there is none. A record for another session, or one that
// cannot be read, is refused whole; a project that is not the cwd's keeps
// the record but drops the project and the decisions (Root ""), which
// memhook then makes itself. refused says why, for the log.
func readHanded(getenv func(string) string, in *Input, home string) (h *Handed, refused error) {
	raw := getenv(HandOverEnv)
	if raw == "" {
		return nil, nil
	}
	if len(raw) > maxHanded {
		return nil, errors.New("the hand-over is too large")
	}
	h = &Handed{}
	if err := json.Unmarshal([]byte(raw), h); err != nil || h.Reason == "" {
		return nil, errors.New("the hand-over is not a record")
	}
	if h.Session != in.SessionID {
		return nil, fmt.Errorf("the hand-over is for another session (%.40q)", h.Session)
	}
	if err := ownsCWD(h.Root, in, getenv, home); err != nil {
		h.Root, h.FlushDue, h.TurnOpen = "", false, false
		return h, err
	}
	return h, nil
}

// ownsCWD checks, without resolving the project again, that root is the
// project the input's cwd resolves to (project.RootFor): an absolute
// clean path holding the cwd, the desk for a cwd inside the desk, else a
// folder with a .git folder and no nearer .git below it. A cwd reached
// through a link, or a worktree (its .git a file), fails here and is
// resolved in full.
func ownsCWD(root string, in *Input, getenv func(string) string, home string) error {
	cwd := in.CWD
	if cwd == "" {
		cwd = getenv("CLAUDE_PROJECT_DIR")
	}
	if root == "" || !filepath.IsAbs(root) || filepath.Clean(root) != root || !filepath.IsAbs(cwd) {
		return fmt.Errorf("the handed project %.200q is not an absolute clean path", root)
	}
	cwd = filepath.Clean(cwd)
	under := func(dir, top string) bool {
		return dir == top || strings.HasPrefix(dir, strings.TrimSuffix(top, string(filepath.Separator))+string(filepath.Separator))
	}
	if !under(cwd, root) {
		return fmt.Errorf("the handed project %.200q does not hold the cwd", root)
	}
	if home != "" && under(cwd, filepath.Clean(home)) {
		if root != filepath.Clean(home) {
			return fmt.Errorf("the handed project %.200q is not the desk the cwd is in", root)
		}
		return nil
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		return fmt.Errorf("the handed project %.200q has no .git folder", root)
	}
	for d := cwd; d != root; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return fmt.Errorf("the handed project %.200q is not the cwd's: %s is nearer", root, d)
		}
	}
	return nil
}

// Brief is the input as memhook needs it once memhook-hot captured the
// event's message: the ids and paths, without the message, so memhook
// reads and parses a few hundred bytes whatever the message's size.
func (in *Input) Brief() []byte {
	b, _ := json.Marshal(struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path,omitempty"`
		CWD            string `json:"cwd,omitempty"`
		Event          string `json:"hook_event_name,omitempty"`
		StopHookActive bool   `json:"stop_hook_active,omitempty"`
		AgentID        string `json:"agent_id,omitempty"`
	}{in.SessionID, in.TranscriptPath, in.CWD, in.Event, in.StopHookActive, in.AgentID})
	return b
}
