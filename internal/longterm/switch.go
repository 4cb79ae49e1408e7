package longterm

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
)

// ErrRegister marks a [Store.TurnOn] that laid out the scaffold but could
// not register the project with the org desk: running it again is safe.
var ErrRegister = errors.New("register with the org desk")

// TurnOnReport is what [Store.TurnOn] did.
type TurnOnReport struct {
	*OnResult
	ID string // the project's id on the desk
	// History is the memory's version history; nil when HistoryErr says
	// why it could not be opened. Committed says the scaffold was
	// committed; CommitErr why it was not, when it was versioned.
	History    *History
	HistoryErr error
	Committed  bool
	CommitErr  error
}

// TurnOn is `long on`: lay out the scaffold (only what is missing),
// register the project in the desk's registry at registryPath, then commit
// the scaffold in the memory's history when openHistory gives a versioned
// one. Only the scaffold and the registration can fail it; a history that
// does not open or commit is reported, since the memory works without it.
func (s *Store) TurnOn(registryPath string, openHistory func() (*History, error), now time.Time) (*TurnOnReport, error) {
	name := filepath.Base(s.Project)
	res, err := s.On(name, now)
	if err != nil {
		return nil, err
	}
	rep := &TurnOnReport{OnResult: res, ID: project.ID(s.Project)}
	if err := registry.Touch(registryPath, registry.Project{ID: rep.ID, Name: name, Path: s.Project}, now); err != nil {
		return rep, fmt.Errorf("%w: %w", ErrRegister, err)
	}
	rep.History, rep.HistoryErr = openHistory()
	if rep.HistoryErr == nil && rep.History.Versioned() {
		_, _, rep.CommitErr = rep.History.CommitAll("long on", now)
		rep.Committed = rep.CommitErr == nil
	}
	return rep, nil
}

// TurnOff is `long off`: mark the memory off (every file kept) and take
// the project out of the desk's registry, found by id or, for an entry an
// older version wrote, by path. registered says whether it was there.
func (s *Store) TurnOff(registryPath string, now time.Time) (registered bool, err error) {
	if err := s.Off(now); err != nil {
		return false, err
	}
	found, err := registry.Remove(registryPath, project.ID(s.Project))
	if err != nil {
		return false, fmt.Errorf("unregister: %w", err)
	}
	if !found {
		if found, err = registry.Remove(registryPath, s.Project); err != nil {
			return false, fmt.Errorf("unregister: %w", err)
		}
	}
	return found, nil
}

// Registered says whether the desk's registry at registryPath lists the
// project (by id or by path); problem is why the registry could not be
// read, "" when it could.
func (s *Store) Registered(registryPath string) (registered bool, problem string) {
	f, err := registry.Read(registryPath)
	if err != nil {
		return false, err.Error()
	}
	return f.Find(project.ID(s.Project)) != nil || f.Find(s.Project) != nil, ""
}
