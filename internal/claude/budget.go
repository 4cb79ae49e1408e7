package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// The users of model calls, each with a daily budget of its own: the name
// is the folder of its count under the state dir.
const (
	UseDistiller = "distiller" // the claude distiller of a flush (distiller.daily_budget)
	UseResearch  = "recall"    // extreme recall and table naming (recall.extreme_daily_calls)
	UseEvolution = "evolve"    // shadow runs of skill candidates (evolution.daily_budget)
	UseNight     = "night"     // the night's model steps (night.max_calls)
)

// Uses lists every user of a budget, in the order doctor shows them.
var Uses = []string{UseDistiller, UseResearch, UseEvolution, UseNight}

// Budget is one user's daily limit of model calls, counted on disk so that
// every memhook process of the user spends from the same count: one small
// file per day (budget-YYYY-MM-DD) under Dir, changed under its lock. A
// new day starts from zero; a limit of 0 or less allows no call.
//
//	b := claude.DailyBudget(paths.State, claude.UseDistiller, cfg.Distiller.DailyBudget)
//	if ok, err := b.Take(now); err != nil || !ok { /* no call today */ }
type Budget struct {
	Dir   string // where the day's count lives
	Limit int    // calls per day
}

// DailyBudget is the budget of use under the state dir.
func DailyBudget(state, use string, limit int) Budget {
	return Budget{Dir: filepath.Join(state, use), Limit: limit}
}

// Take counts one call against the day of now and reports whether it was
// allowed.
func (b Budget) Take(now time.Time) (bool, error) { return b.TakeN(now, 1) }

// TakeN counts n calls at once, or none when they do not all fit: a
// shadow pair needs both of its arms.
func (b Budget) TakeN(now time.Time, n int) (bool, error) {
	if b.Limit <= 0 || n > b.Limit {
		return false, nil
	}
	path := b.file(now)
	ok := false
	err := atomicfile.WithLock(path, func() error {
		used, err := readCount(path)
		if err != nil {
			return err
		}
		if used+n > b.Limit {
			return nil
		}
		ok = true
		if used == 0 {
			b.pruneBefore(now)
		}
		return atomicfile.Write(path, []byte(strconv.Itoa(used+n)+"\n"), 0o600)
	})
	if err != nil {
		return false, fmt.Errorf("take a model call from the day's budget in %s: %w", b.Dir, err)
	}
	return ok, nil
}

// pruneBefore removes the counts (and their locks) of the days before now,
// on a day's first call only: a budget keeps one day, not one file per day
// for as long as memhook is used. What cannot be removed stays; the next
// day tries again.
func (b Budget) pruneBefore(now time.Time) {
	names, err := safefs.ReadDirNames(b.Dir)
	if err != nil {
		return
	}
	today := "budget-" + now.Format(time.DateOnly)
	for _, name := range names {
		day := strings.TrimSuffix(name, ".lock")
		if len(day) != len(today) || !strings.HasPrefix(day, "budget-") || day >= today {
			continue
		}
		if _, err := time.Parse(time.DateOnly, strings.TrimPrefix(day, "budget-")); err != nil {
			continue
		}
		_ = safefs.Remove(filepath.Join(b.Dir, name))
	}
}

// Used is the number of calls counted for the day of now.
func (b Budget) Used(now time.Time) (int, error) { return readCount(b.file(now)) }

func (b Budget) file(now time.Time) string {
	return filepath.Join(b.Dir, "budget-"+now.Format(time.DateOnly))
}

// countBytes bounds the read of a count: a few digits, never a file
// someone put there.
const countBytes = 64

func readCount(path string) (int, error) {
	data, err := safefs.ReadFile(path, countBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the day's count of model calls: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0, nil // a torn counter restarts at zero rather than block every call
	}
	return n, nil
}
