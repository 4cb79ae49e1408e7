package gitrepo

import (
	"fmt"
	"strings"
)

// Summary says the sync's outcome in one line; what names the copy that
// synced ("org sync ~/cerebro").
func (r *SyncResult) Summary(what string) string {
	switch r.State {
	case SyncDiverged:
		return fmt.Sprintf("%s: diverged from %s (%s); nothing changed on either side", what, r.URL, strings.Join(r.Conflicts, ", "))
	case SyncBlocked:
		return fmt.Sprintf("%s: not synced with %s: uncommitted edits stand where the remote's changes go: %s", what, r.URL, strings.Join(r.Blocked, ", "))
	case SyncMerged, SyncFastForward:
		return fmt.Sprintf("%s: %s with %s (%d files from the remote), at %.12s", what, r.State, r.URL, len(r.Changed), r.Head)
	}
	return fmt.Sprintf("%s: %s with %s, at %.12s", what, r.State, r.URL, r.Head)
}

// RefusedText names the files of the history this copy does not take
// from the remote, each with why ("" when there are none); what names the
// copy, as in [SyncResult.Summary].
func (r *SyncResult) RefusedText(what string) string {
	return RefusedText(what, r.URL, r.Refused)
}

// RefusedText is [SyncResult.RefusedText] of a sync with url.
func RefusedText(what, url string, refused []string) string {
	if len(refused) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %d files of %s's history are never taken here, and were not written: %s", what, len(refused), url, strings.Join(refused, ", "))
}

// RefusedHint is what a person does about refused files.
const RefusedHint = "they came with someone's commit to the remote: look at who added them, and remove them there (git rm in a clone, then push); until then every sync names them"

// Troubled reports whether the sync left the two sides apart: a person
// has to act before the next sync can bring them together.
func (r *SyncResult) Troubled() bool {
	return r.State == SyncDiverged || r.State == SyncBlocked
}

// Hint is what a person does about a troubled sync of the copy in dir;
// again is the command that syncs it again.
func (r *SyncResult) Hint(dir, again string) string {
	if r.State == SyncBlocked {
		return "commit or undo those edits in " + dir + " (the night commits memory's edits), then run `" + again + "`"
	}
	return "merge the two by hand with your git in " + dir + " (git pull " + r.URL + " " + r.Branch + "), then run `" + again + "`"
}
