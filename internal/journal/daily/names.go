package daily

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Daily files are named for their local date, time.DateOnly plus ".md".
// Every place that makes, matches or lists such a name (inject, compile,
// the roll-ups, the dashboard, forget) goes through [Name], [File], [DateOf], [ParseName] and
// [Days], so the naming has one owner.
const ext = ".md"

// Name is the file name of day's daily file, "YYYY-MM-DD.md".
func Name(day time.Time) string { return day.Format(time.DateOnly) + ext }

// File is the path of the daily file of date (YYYY-MM-DD) in dir.
func File(dir, date string) string { return filepath.Join(dir, date+ext) }

// DateOf returns the date (YYYY-MM-DD) a daily file name names; ok is
// false for any other name (a note, a folder, "2024-13-01.md").
func DateOf(name string) (date string, ok bool) {
	date, found := strings.CutSuffix(name, ext)
	if !found || len(date) != len(time.DateOnly) {
		return "", false
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return "", false
	}
	return date, true
}

// ParseName is the local midnight of the date a daily file name names, in loc.
func ParseName(name string, loc *time.Location) (time.Time, bool) {
	date, ok := DateOf(name)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(time.DateOnly, date, loc)
	return t, err == nil
}

// Days returns the dates of the daily files directly in dir (regular
// files only: a planted link or a folder is not a day), oldest first. A
// missing dir has none. Only names are listed; no file is read.
func Days(dir string) ([]string, error) {
	ents, err := safefs.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list daily files: %w", err)
	}
	var out []string
	for _, e := range ents {
		if date, ok := DateOf(e.Name()); ok && e.Type().IsRegular() {
			out = append(out, date)
		}
	}
	sort.Strings(out)
	return out, nil
}
