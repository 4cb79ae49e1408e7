package gitrepo

import (
	"strings"
	"testing"
)

// TestSyncSummaryAndHint: each state is said in its own words, and a
// troubled sync's hint tells blocked (commit or undo) from diverged
// (merge by hand), naming the command to run again.
func TestSyncSummaryAndHint(t *testing.T) {
	for _, c := range []struct {
		res      SyncResult
		summary  string
		troubled bool
		hint     string
	}{
		{SyncResult{State: SyncPushed, URL: "u", Head: "0123456789abcdef"}, "x: pushed with u, at 0123456789ab", false, ""},
		{SyncResult{State: SyncMerged, URL: "u", Head: "ab", Changed: []string{"a", "b"}}, "x: merged with u (2 files from the remote), at ab", false, ""},
		{SyncResult{State: SyncDiverged, URL: "u", Branch: "main", Conflicts: []string{"index.md"}}, "x: diverged from u (index.md); nothing changed on either side", true, "git pull u main"},
		{SyncResult{State: SyncBlocked, URL: "u", Blocked: []string{"a.md"}}, "uncommitted edits stand where the remote's changes go: a.md", true, "commit or undo those edits in d"},
	} {
		if got := c.res.Summary("x"); !strings.Contains(got, c.summary) {
			t.Errorf("%s: summary %q, want %q", c.res.State, got, c.summary)
		}
		if c.res.Troubled() != c.troubled {
			t.Errorf("%s: troubled %v", c.res.State, !c.troubled)
		}
		if h := c.res.Hint("d", "again"); c.troubled && (!strings.Contains(h, c.hint) || !strings.HasSuffix(h, "then run `again`")) {
			t.Errorf("%s: hint %q", c.res.State, h)
		}
	}
}

// TestRefusedText names each refused file with why, counts them, and is
// empty when nothing was refused.
func TestRefusedText(t *testing.T) {
	r := SyncResult{URL: "u", Refused: []string{".claude/settings.json (a hidden file or folder; a vault holds none)", `"a\nb.md" (a name holding control characters)`}}
	got := r.RefusedText("x")
	if !strings.HasPrefix(got, "x: 2 files of u's history are never taken here") || !strings.Contains(got, ".claude/settings.json (a hidden") || strings.Contains(got, "\n") {
		t.Errorf("%q", got)
	}
	if (&SyncResult{URL: "u"}).RefusedText("x") != "" {
		t.Error("a sync that refused nothing says something")
	}
}
