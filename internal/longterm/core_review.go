package longterm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// CoreProposal is a line the night proposes for CORE.md, drawn from the
// person's own reply of a day, waiting for `memhook core review`.
type CoreProposal struct {
	ID    string `json:"id"`    // short and stable: the line's hash
	Day   string `json:"day"`   // the day whose reply states it
	Time  string `json:"time"`  // HH:MM of that reply's section, "" when unknown
	Line  string `json:"line"`  // the line to add
	Reply string `json:"reply"` // the person's words it restates
	Why   string `json:"why,omitempty"`
}

// CoreProposalsFile keeps the waiting proposals, in the hidden state
// folder: they are derived from the night's cached answers, not memory.
const CoreProposalsFile = stateDir + "/core-proposals.json"

// CoreProposalID is the id a proposal of line gets.
func CoreProposalID(line string) string { return Hash([]byte(strings.TrimSpace(line)))[:8] }

// CoreProposals lists the proposals waiting for review, oldest first.
func (s *Store) CoreProposals() ([]CoreProposal, error) {
	var out []CoreProposal
	data, err := safefs.ReadNote(s.Path(CoreProposalsFile), s.NoteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", CoreProposalsFile, err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("read %s: %w", CoreProposalsFile, err)
	}
	return out, nil
}

// ProposeCore adds proposals to the waiting list; a line already waiting
// is not added twice. It returns how many were new.
func (s *Store) ProposeCore(ps []CoreProposal) (int, error) {
	n := 0
	err := s.WithLock(func() error {
		have, err := s.CoreProposals()
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, p := range have {
			seen[p.ID] = true
		}
		for _, p := range ps {
			p.ID = CoreProposalID(p.Line)
			if seen[p.ID] {
				continue
			}
			seen[p.ID] = true
			have = append(have, p)
			n++
		}
		if n == 0 {
			return nil
		}
		return s.writeCoreProposals(have)
	})
	return n, err
}

func (s *Store) writeCoreProposals(ps []CoreProposal) error {
	p := s.Path(CoreProposalsFile)
	if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("write %s: %w", CoreProposalsFile, err)
	}
	if ps == nil {
		ps = []CoreProposal{}
	}
	data, _ := json.MarshalIndent(ps, "", "  ")
	if err := atomicfile.Write(p, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", CoreProposalsFile, err)
	}
	return nil
}

// ErrNoProposal means no waiting proposal has the id given.
var ErrNoProposal = errors.New("no CORE proposal with that id")

// ApplyCoreProposal adds the proposal's line to CORE.md through the CORE
// writer (its cap applies: a line that does not fit stays waiting) and
// takes it off the list.
func (s *Store) ApplyCoreProposal(id string, max int, now time.Time) (*CoreProposal, error) {
	p, err := s.takeCoreProposal(id, func(p CoreProposal) error {
		_, err := s.CoreAdd(p.Line, max, now)
		return err
	})
	return p, err
}

// DropCoreProposal takes a proposal off the list without touching CORE.md.
func (s *Store) DropCoreProposal(id string, now time.Time) (*CoreProposal, error) {
	return s.takeCoreProposal(id, func(p CoreProposal) error {
		return s.Log(now, "core review", "dropped the proposal "+p.ID+" of "+p.Day)
	})
}

func (s *Store) takeCoreProposal(id string, fn func(CoreProposal) error) (*CoreProposal, error) {
	ps, err := s.CoreProposals()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.ID != strings.TrimSpace(id) {
			continue
		}
		// fn takes the store's lock itself (the CORE writer does), so the
		// list is rewritten after it, under the lock again.
		if err := fn(p); err != nil {
			return nil, err
		}
		err := s.WithLock(func() error {
			cur, err := s.CoreProposals()
			if err != nil {
				return err
			}
			kept := cur[:0]
			for _, q := range cur {
				if q.ID != p.ID {
					kept = append(kept, q)
				}
			}
			return s.writeCoreProposals(kept)
		})
		return &p, err
	}
	return nil, fmt.Errorf("core review: %w: %s", ErrNoProposal, id)
}
