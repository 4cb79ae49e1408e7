package doctor

import (
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
)

// checkImport says whether the sessions Claude Code kept before cerebro
// were imported: a new user's memory starts with them only after
// `memhook import`. Nothing is said when Claude Code kept none.
func checkImport(rep *Report, env *Env) {
	dir := filepath.Join(env.ClaudeDir, "projects")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	n := 0
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "agent-") {
			n++
		}
	}
	if n == 0 {
		return
	}
	if r, ok := importer.ReadRecord(env.Paths.State); ok {
		rep.Add("ok", "", "sessions imported from %s: %d on %s (`memhook import` again adds only what is new)",
			dir, r.Sessions, r.Time.Local().Format("2006-01-02 15:04"))
		return
	}
	rep.Add("ok", "", "Claude Code keeps %d sessions in %s that were never imported: `memhook import` makes them memory (`--dry-run` shows what it would write where)", n, dir)
}
