package rollup

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// KindRemote is a memory whose last sync with its remote needs a person.
const KindRemote = "remote"

// Where the syncs keep their last record (see longterm.RemoteStateFile and
// orgvault.RemoteStateFile; the dashboard reads them without importing
// either).
var (
	projectSyncRecord = filepath.Join(".claude", "memory_long", ".cerebro", "remote.json")
	orgSyncRecord     = filepath.Join(".claude", "memory_short", "org-remote.json")
)

// remoteDiagnostics reads the last sync records of the projects and of the
// desk's vault: a diverged, blocked or failed sync is a diagnostic naming
// the command to run. Reading them costs two small bounded files; the
// network is never touched.
func remoteDiagnostics(projects []*Project, desk string) []Diagnostic {
	var out []Diagnostic
	for _, p := range projects {
		if p.Path == "" {
			continue
		}
		for _, d := range syncDiagnostics(gitrepo.ReadSyncRecord(filepath.Join(p.Path, projectSyncRecord)), "long-term memory", "memhook long sync --project "+p.Path) {
			d.Project, d.ID = p.Name, p.ID
			out = append(out, d)
		}
	}
	if desk != "" {
		for _, d := range syncDiagnostics(gitrepo.ReadSyncRecord(filepath.Join(desk, orgSyncRecord)), "the org vault", "memhook org sync") {
			d.Project = "(org vault)"
			out = append(out, d)
		}
	}
	return out
}

// syncDiagnostics are a record's diagnostics: a troubled sync, and the
// files of the history the sync never takes.
func syncDiagnostics(rec *gitrepo.SyncRecord, what, command string) []Diagnostic {
	var out []Diagnostic
	if d, ok := syncDiagnostic(rec, what, command); ok {
		out = append(out, d)
	}
	if rec != nil && len(rec.Refused) > 0 {
		out = append(out, Diagnostic{Kind: KindRemote, Message: gitrepo.RefusedText(what, rec.URL, rec.Refused) + "; " + gitrepo.RefusedHint})
	}
	return out
}

// syncDiagnostic says what a troubled record means. The command is the
// dashboard's own: a record sits in a project folder, which may be a
// hostile clone, so nothing it says is offered as a command to run.
func syncDiagnostic(rec *gitrepo.SyncRecord, what, command string) (Diagnostic, bool) {
	if !rec.Troubled() {
		return Diagnostic{}, false
	}
	d := Diagnostic{Kind: KindRemote}
	switch {
	case rec.State == gitrepo.SyncDiverged:
		d.Message = fmt.Sprintf("%s diverged from %s, run `%s` (changed on both sides: %s)", what, rec.URL, command, strings.Join(rec.Conflicts, ", "))
	case rec.State == gitrepo.SyncBlocked:
		d.Message = fmt.Sprintf("%s not synced with %s: uncommitted edits in the way (%s); commit them, then run `%s`", what, rec.URL, strings.Join(rec.Blocked, ", "), command)
	default:
		d.Message = fmt.Sprintf("%s: the last sync with %s failed (%s); run `%s`", what, rec.URL, rec.Error, command)
	}
	return d, true
}
