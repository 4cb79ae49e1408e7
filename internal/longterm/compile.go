package longterm

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Day is one short-term day file.
type Day struct {
	Date string `json:"date"`
	Path string `json:"path"`
}

// listDays returns the day files directly in dir, sorted by date.
func listDays(dir string) ([]Day, error) {
	dates, err := daily.Days(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []Day
	for _, d := range dates {
		out = append(out, Day{Date: d, Path: daily.File(dir, d)})
	}
	return out, nil
}

// CompileList returns the closed days (before today, local date of now)
// still in daily/: compile has not taken them yet. Today is never closed.
func (s *Store) CompileList(now time.Time) ([]Day, error) {
	days, err := listDays(s.DailyDir)
	if err != nil {
		return nil, err
	}
	today := now.Format(time.DateOnly)
	out := []Day{}
	for _, d := range days {
		if d.Date < today {
			out = append(out, d)
		}
	}
	return out, nil
}

// CompileError is a compile that did not move anything.
type CompileError struct {
	Missing []string // days no page in wiki/_private/ links
	Why     string
}

func (e *CompileError) Error() string {
	if len(e.Missing) > 0 {
		return fmt.Sprintf("compile done: no page in wiki/_private/ links %s; nothing was moved", quoteDays(e.Missing))
	}
	return "compile done: " + e.Why + "; nothing was moved"
}

func (e *CompileError) Hint() string {
	if len(e.Missing) > 0 {
		return "write the distilled pages into .claude/memory_long/wiki/_private/ with a link such as [[daily/" + e.Missing[0] + "]] for every day, then run compile done again"
	}
	return "run `memhook compile list` to see the days that can be compiled"
}

func quoteDays(days []string) string {
	q := make([]string, len(days))
	for i, d := range days {
		q[i] = "[[daily/" + d + "]]"
	}
	return strings.Join(q, ", ")
}

// CompileDone checks that pages in wiki/_private/ link [[daily/D]] for
// every given day, then moves exactly those days from daily/ to
// daily/_archive/. Every check runs before the first move, so either all
// the days move or none does; a file never replaces another, nothing is
// deleted. It returns the archived paths.
func (s *Store) CompileDone(days []string, now time.Time) ([]string, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	if len(days) == 0 {
		return nil, &CompileError{Why: "no days given"}
	}
	seen := map[string]bool{}
	var want []string
	for _, d := range days {
		d = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(d), "daily/"), ".md")
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return nil, &CompileError{Why: fmt.Sprintf("%q is not a day YYYY-MM-DD", d)}
		}
		if !seen[d] {
			seen[d] = true
			want = append(want, d)
		}
	}
	sort.Strings(want)
	var moved []string
	err := s.WithLock(func() error {
		today := now.Format(time.DateOnly)
		for _, d := range want {
			if d >= today {
				return &CompileError{Why: fmt.Sprintf("%s is not closed yet (today is %s)", d, today)}
			}
			if _, err := os.Stat(daily.File(s.DailyDir, d)); err != nil {
				if _, err := os.Stat(daily.File(s.ArchiveDir, d)); err == nil {
					return &CompileError{Why: d + " is already in daily/_archive/"}
				}
				return &CompileError{Why: "no day file daily/" + d + ".md"}
			}
			if _, err := os.Lstat(daily.File(s.ArchiveDir, d)); err == nil {
				return &CompileError{Why: fmt.Sprintf("daily/_archive/%s.md exists already; move one of the two aside by hand", d)}
			}
		}
		linked, err := s.privateEvidence()
		if err != nil {
			return err
		}
		var missing []string
		for _, d := range want {
			if !linked[d] {
				missing = append(missing, d)
			}
		}
		if len(missing) > 0 {
			return &CompileError{Missing: missing}
		}
		if err := safefs.MkdirAll(s.ArchiveDir); err != nil {
			return fmt.Errorf("compile done: create %s: %w", s.ArchiveDir, err)
		}
		for _, d := range want {
			from, to := daily.File(s.DailyDir, d), daily.File(s.ArchiveDir, d)
			if err := safefs.Rename(from, to); err != nil {
				if len(moved) > 0 {
					s.logLocked(now, "compile done", "archived "+strings.Join(moved, ", ")+" before a failure")
				}
				return fmt.Errorf("compile done: move %s to daily/_archive/: %w", d, err)
			}
			moved = append(moved, d)
		}
		if err := s.logLocked(now, "compile done", "archived "+strings.Join(moved, ", ")+" (daily/ → daily/_archive/)"); err != nil {
			return err
		}
		_, err = s.rebuildGraphLocked()
		return err
	})
	out := make([]string, len(moved))
	for i, d := range moved {
		out[i] = daily.File(s.ArchiveDir, d)
	}
	return out, err
}

// privateEvidence is the set of days linked from pages in wiki/_private/.
func (s *Store) privateEvidence() (map[string]bool, error) {
	v, err := s.LoadVault()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, p := range v.Pages {
		if !hasPrefixDir(p.Path, PrivateDir) {
			continue
		}
		for _, l := range p.Links {
			if d, ok := EvidenceDay(l.Target); ok {
				out[d] = true
			}
		}
	}
	return out, nil
}
