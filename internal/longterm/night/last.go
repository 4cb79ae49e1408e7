package night

import (
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/lint"
)

// ReadLast reads what the last night kept in a project's long-term memory
// folder longDir: its report (nil when no night has run there) and its lint
// findings, with whether they were kept at all. Reads are bounded and never follow a
// symbolic link: the folder belongs to a repository. doctor and the
// dashboard both show the night through this one reader.
func ReadLast(longDir string) (*Report, []lint.Finding, bool) {
	var last Report
	if !readJSON(filepath.Join(longDir, filepath.FromSlash(LastFile)), &last) {
		return nil, nil, false
	}
	var found []lint.Finding
	kept := readJSON(filepath.Join(longDir, filepath.FromSlash(LintFile)), &found)
	return &last, found, kept
}
