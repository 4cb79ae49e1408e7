package longterm

import (
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/lint"
)

// The calls below are whole commands over the store's own calls, so
// that `memhook lint` or `memhook rollup-days` is one call for the CLI.

// LintProject is `memhook lint`: the memory and the project files, with
// CORE.md's cap coreMax. A project without long-term memory is an error
// saying how to create it.
func (s *Store) LintProject(coreMax int) ([]lint.Finding, error) {
	st, err := s.Status()
	if err != nil {
		return nil, err
	}
	if !st.Exists {
		return nil, hint.Wrap(fmt.Errorf("lint: no long-term memory in %s", s.Dir), "run `memhook long on` first")
	}
	found, err := s.Lint(LintOptions{CoreMaxChars: coreMax, Project: true})
	if err != nil {
		return nil, fmt.Errorf("lint: %w", err)
	}
	return found, nil
}

// RollupDaysNoData is `memhook rollup-days`: the months noData names
// recorded as months without data ([Store.RollupNoData]) first, then the
// roll-ups built ([Store.RollupDays]).
func (s *Store) RollupDaysNoData(noData []string, now time.Time) (*RollupResult, error) {
	if len(noData) > 0 {
		if _, err := s.RollupNoData(noData, now); err != nil {
			return nil, err
		}
	}
	return s.RollupDays(now)
}

// Rebuild is `memhook wiki graph|index`: what ("graph" or "index") is
// written again from the pages, and log.md says so when it changed. It
// returns the file's name relative to the root.
func (s *Store) Rebuild(what string, now time.Time) (name string, changed bool, err error) {
	name, rebuild := GraphFile, s.RebuildGraph
	if what == "index" {
		name, rebuild = IndexFile, s.RebuildIndex
	}
	if changed, err = rebuild(); err != nil {
		return name, false, fmt.Errorf("wiki %s: %w", what, err)
	}
	if changed {
		err = s.Log(now, "wiki "+what, name+" rebuilt")
	}
	return name, changed, err
}
