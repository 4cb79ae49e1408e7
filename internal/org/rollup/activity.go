package rollup

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// newestDays is how many of the latest-named daily files are stat'ed in
// each folder. A late flush writes today's file, so the newest mtime sits
// among the newest names; a few cover a clock skew or a hand edit.
const newestDays = 3

// longFiles are the long-term files whose change counts as activity: only
// log.md, the append-only chronology every long-term write (ingest,
// compile) adds to. The status file is not activity (editing the plan is
// not working on the project), nor are the wiki pages walked.
var longFiles = []string{"log.md"}

// newestMemory is the newest modification time among the project's memory
// files and the file it belongs to (slash-separated, relative to the root).
// The work is bounded whatever the history: two directory listings of names
// (daily/ and daily/_archive/), at most 2×newestDays+len(longFiles) stats,
// and no walk of any tree.
func newestMemory(l project.Layout) (time.Time, string) {
	var best time.Time
	var from string
	consider := func(path string) {
		fi, err := safefs.Lstat(path) // a planted link's target is not this project's activity
		if err != nil || !fi.Mode().IsRegular() {
			return
		}
		if fi.ModTime().After(best) {
			best = fi.ModTime()
			rel, _ := filepath.Rel(l.Root, path)
			from = filepath.ToSlash(rel)
		}
	}
	for _, dir := range []string{l.DailyDir(), l.ArchiveDir()} {
		for _, name := range latestDays(dir) {
			consider(filepath.Join(dir, name))
		}
	}
	for _, name := range longFiles {
		consider(filepath.Join(l.LongDir(), name))
	}
	return best, from
}

// latestDays lists the newestDays greatest daily file names in dir.
func latestDays(dir string) []string {
	dates, _ := daily.Days(dir)
	var days []string
	for i := len(dates) - 1; i >= 0 && len(days) < newestDays; i-- {
		days = append(days, dates[i]+".md")
	}
	return days
}

// readGit reads the last commit on HEAD and the number of commits since the
// start of the window; a project without a repository shows nothing.
func readGit(root string, since time.Time) *Git {
	r, err := gitrepo.OpenAtForReading(root)
	if err != nil {
		if errors.Is(err, gitrepo.ErrNoRepo) {
			return nil
		}
		return &Git{Error: err.Error()}
	}
	a, err := r.ActivitySince(since)
	if err != nil {
		return &Git{Error: err.Error()}
	}
	g := &Git{Recent: a.Recent}
	if a.Last != nil {
		g.LastHash = a.Last.Hash[:min(12, len(a.Last.Hash))]
		g.LastWhen = a.Last.When.UTC().Format(time.RFC3339)
		g.LastMessage = firstLine(a.Last.Message)
	}
	return g
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
