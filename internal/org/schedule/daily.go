package schedule

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// Entry is the user's one daily entry on an OS: where it lives and which
// schedulers may hold it. Build it with [UserEntry], then ask its status
// or plan an install or a removal and [Executor.Apply] the plan.
type Entry struct {
	Ex       *Executor
	Target   Target
	Backends []Backend // the one to install into first
}

// UserEntry is the entry of the user whose environment getenv reads, for
// goos.
func UserEntry(getenv func(string) string, goos string) (Entry, error) {
	ex := NewExecutor(getenv)
	t, err := UserTarget(getenv)
	if err != nil {
		return Entry{}, fmt.Errorf("schedule: %w", err)
	}
	backends, err := ex.Backends(goos)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Ex: ex, Target: t, Backends: backends}, nil
}

// Statuses reports what each scheduler holds.
func (e Entry) Statuses() []Status { return e.Ex.Statuses(e.Target, e.Backends) }

// Install plans the entry that runs `exe schedule run --home home` daily
// at hour:minute; with clearOthers (a real install, not a dry run) it
// also removes the entry any other scheduler holds.
func (e Entry) Install(exe, home string, hour, minute int, clearOthers bool) (Plan, error) {
	t := e.Target
	t.Command = []string{exe, "schedule", "run", "--home", home}
	t.Hour, t.Minute = hour, minute
	return e.Ex.InstallAllPlan(t, e.Backends, clearOthers)
}

// Installed says what an applied install did, for a person.
func (e Entry) Installed(hour, minute int) string {
	return fmt.Sprintf("installed: %s runs `memhook schedule run` (%s) daily at %02d:%02d", e.Backends[0], JobNames(), hour, minute)
}

// Remove plans the removal of the entry from every scheduler holding it.
func (e Entry) Remove() Plan { return e.Ex.RemoveAllPlan(e.Target, e.Backends) }

// ErrNoExecutable means memhook cannot tell where its own binary is.
var ErrNoExecutable = errors.New("schedule: cannot tell where memhook itself is")

// Executable is memhook's own absolute path, with symlinks resolved so
// that the entry survives a moved link.
func Executable(exe string) (string, error) {
	if exe == "" {
		return "", ErrNoExecutable
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("schedule: resolve %s: %w", exe, err)
	}
	if ev, err := filepath.EvalSymlinks(abs); err == nil {
		abs = ev
	}
	return abs, nil
}

// ErrBadClock means a time of day is not HH:MM.
var ErrBadClock = errors.New("not HH:MM")

// Clock is the entry's time of day: at (HH:MM) when given, else the
// night's time from the settings ([NightTime]).
func Clock(at string, eff *config.Effective) (hour, minute int, err error) {
	if at == "" {
		at, _ = NightTime(eff)
	}
	t, err := time.Parse("15:04", at)
	if err != nil {
		return 0, 0, fmt.Errorf("schedule: --at %q is %w", at, ErrBadClock)
	}
	return t.Hour(), t.Minute(), nil
}
