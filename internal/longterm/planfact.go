package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// PlanFactCheck parses План-факт.md and returns its contract problems.
func (s *Store) PlanFactCheck() (*planfact.PlanFact, []planfact.Problem, error) {
	data, err := safefs.ReadNote(s.Path(planfact.FileName), s.NoteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		if err := s.requireScaffold(); err != nil {
			return nil, nil, err
		}
		return nil, []planfact.Problem{{Line: 1, Message: planfact.FileName + " is missing; `memhook long on` creates it"}}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", planfact.FileName, err)
	}
	pf, probs := planfact.Parse(data)
	return pf, probs, nil
}

// PlanFactInvalidError refuses a set that would leave the contract broken.
type PlanFactInvalidError struct{ Problems []planfact.Problem }

func (e *PlanFactInvalidError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.String()
	}
	return "planfact set: the file would break the contract; nothing was written: " + strings.Join(msgs, "; ")
}

func (e *PlanFactInvalidError) Hint() string {
	return "fix the lines named with `memhook planfact set` for each field, or by hand, then run `memhook planfact check`"
}

// PlanFactSet changes one field of План-факт.md (and `updated`) in one
// atomic write and logs it. It refuses when the result would still break
// the contract in the fields being set; problems elsewhere in the file are
// reported but do not block fixing one field at a time.
func (s *Store) PlanFactSet(field string, values []string, now time.Time) ([]planfact.Problem, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	var remaining []planfact.Problem
	err := s.WithLock(func() error {
		p := s.Path(planfact.FileName)
		data, err := safefs.ReadNote(p, s.NoteBytes)
		if err != nil {
			return fmt.Errorf("planfact set: read %s: %w", planfact.FileName, err)
		}
		out, err := planfact.Set(data, field, values, now)
		if err != nil {
			return err
		}
		_, probs := planfact.Parse(out)
		var own []planfact.Problem
		for _, pr := range probs {
			if pr.Field == field || pr.Field == "" {
				own = append(own, pr)
			} else {
				remaining = append(remaining, pr)
			}
		}
		if len(own) > 0 {
			return &PlanFactInvalidError{Problems: own}
		}
		if err := atomicfile.Write(p, out, 0o644); err != nil {
			return fmt.Errorf("planfact set: write: %w", err)
		}
		return s.logLocked(now, "planfact set", fmt.Sprintf("%s = %s", field, strings.Join(values, "; ")))
	})
	return remaining, err
}
