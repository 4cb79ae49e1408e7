package runrec

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// StaleTurn is when an open turn whose Stop never came is ignored.
const StaleTurn = time.Hour

// maxMarker bounds a turn marker: a run id, a space and a number.
const maxMarker = 256

// WriteTurnMarker writes the file that says a session's turn is driven by
// a skill: the turn's run id and when it started ("ID UNIXNANO").
func WriteTurnMarker(path, id string, start time.Time) error {
	if err := safefs.MkdirAllMode(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return safefs.WriteFile(path, []byte(id+" "+strconv.FormatInt(start.UnixNano(), 10)), 0o600)
}

// ReadTurnMarker reads a marker [WriteTurnMarker] wrote. id is "" when
// there is none or it is unreadable; open is false too when the turn began
// [StaleTurn] or more before now.
func ReadTurnMarker(path string, now time.Time) (id string, start time.Time, open bool) {
	b, err := safefs.ReadFile(path, maxMarker)
	if err != nil {
		return "", time.Time{}, false
	}
	id, ns, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	n, err := strconv.ParseInt(ns, 10, 64)
	if id == "" || err != nil {
		return "", time.Time{}, false
	}
	start = time.Unix(0, n)
	return id, start, now.Sub(start) < StaleTurn
}

// turnVerb says whether a memhook verb is one a turn record names: which
// verb a skill led to is the fact worth keeping. (A switch, not a map: no
// allocation when memhook starts.)
func turnVerb(verb string) bool {
	switch verb {
	case "recall", "remember", "relearn", "deny", "tables", "graph", "verdict":
		return true
	}
	return false
}

// valueFlag says whether a memhook flag that may come before the verb
// takes the next word as its value.
func valueFlag(flag string) bool {
	return flag == "--state-dir" || flag == "--project" || flag == "--home"
}

// BashTool is the name a turn record gives a Bash tool call: "Bash(memhook
// VERB)" when the command runs one of the memhook verbs turnVerb names,
// else "Bash". The verb is the command word of the first memhook call (after
// `slash` and leading flags); words after it are its arguments, so
// `memhook remember we should recall X` is a remember.
func BashTool(command string) string {
	words := strings.Fields(command)
	for i, w := range words {
		if !isMemhook(w) {
			continue
		}
		if verb := commandWord(words[i+1:]); turnVerb(verb) {
			return fmt.Sprintf("Bash(memhook %s)", verb)
		}
		return "Bash"
	}
	return "Bash"
}

// isMemhook says whether a shell word names the memhook program, by path
// or by name, quoted or not.
func isMemhook(w string) bool {
	w = strings.Trim(w, `"'`)
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(w, ".exe") == "memhook"
}

// commandWord is the command a memhook call runs: the first word that is
// not a flag (nor a flag's value), looking through `slash`.
func commandWord(args []string) string {
	for i := 0; i < len(args); i++ {
		a := strings.Trim(args[i], `"'`)
		switch {
		case valueFlag(a):
			i++
		case strings.HasPrefix(a, "-"):
		case a == "slash":
		default:
			return a
		}
	}
	return ""
}
