package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/corefile"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// OnResult says what `long on` did.
type OnResult struct {
	Created []string // scaffold entries made now (folders end in "/")
	Kept    []string // entries that were already there and were left alone
}

// On lays out the scaffold. It creates only what is missing: an existing
// file is never rewritten, whoever wrote it, so running it again is safe.
// It also lifts the "off" marker left by [Store.Off].
func (s *Store) On(projectName string, now time.Time) (*OnResult, error) {
	if err := safefs.MkdirAll(s.Dir); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.Dir, err)
	}
	res := &OnResult{}
	err := s.WithLock(func() error {
		for _, d := range []string{RawDir, WikiDir, PrivateDir} {
			p := s.Path(d)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				res.Kept = append(res.Kept, d+"/")
				continue
			}
			if err := safefs.MkdirAll(p); err != nil {
				return fmt.Errorf("create %s: %w", p, err)
			}
			res.Created = append(res.Created, d+"/")
		}
		files := []struct {
			name string
			data func() []byte
		}{
			{SchemaFile, func() []byte { return []byte(schemaText) }},
			{CoreFile, corefile.Template},
			{planfact.FileName, func() []byte { return planfact.Template(projectName, now) }},
			{LogFile, logTemplate},
		}
		for _, f := range files {
			made, err := createIfMissing(s.Path(f.name), f.data())
			if err != nil {
				return err
			}
			if made {
				res.Created = append(res.Created, f.name)
			} else {
				res.Kept = append(res.Kept, f.name)
			}
		}
		// index.md last: its catalogue lists the files just made.
		if _, err := os.Stat(s.Path(IndexFile)); errors.Is(err, fs.ErrNotExist) {
			if _, err := s.rebuildIndexLocked(); err != nil {
				return err
			}
			res.Created = append(res.Created, IndexFile)
		} else {
			res.Kept = append(res.Kept, IndexFile)
		}
		if err := safefs.Remove(s.Path(OffMarker)); err != nil {
			return fmt.Errorf("remove %s: %w", OffMarker, err)
		}
		if _, err := s.rebuildGraphLocked(); err != nil {
			return err
		}
		sort.Strings(res.Created)
		sort.Strings(res.Kept)
		details := "nothing new"
		if len(res.Created) > 0 {
			details = fmt.Sprintf("created %d: %s", len(res.Created), strings.Join(res.Created, ", "))
		}
		return s.logLocked(now, "long on", details)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Off marks long-term memory inactive and keeps every file.
func (s *Store) Off(now time.Time) error {
	if err := s.requireScaffold(); err != nil {
		return nil // nothing to switch off; the caller still unregisters
	}
	return s.WithLock(func() error {
		msg := []byte("long-term memory is switched off; `memhook long on` switches it back on. Every file is kept.\n")
		if err := atomicfile.Write(s.Path(OffMarker), msg, 0o644); err != nil {
			return fmt.Errorf("write off marker: %w", err)
		}
		return s.logLocked(now, "long off", "switched off; files kept")
	})
}

// Status is what `long status` reports.
type Status struct {
	Dir            string   `json:"dir"`
	Exists         bool     `json:"exists"`
	Active         bool     `json:"active"`
	Present        []string `json:"present"`
	Missing        []string `json:"missing"`
	Pages          int      `json:"pages"`
	PrivatePages   int      `json:"private_pages"`
	RawFiles       int      `json:"raw_files"`
	PlanFactValid  bool     `json:"plan_fact_valid"`
	PlanFactErrors []string `json:"plan_fact_errors,omitempty"`
	CoreChars      int      `json:"core_chars"`
}

// Status inspects the scaffold without changing anything.
func (s *Store) Status() (*Status, error) {
	st := &Status{Dir: s.Dir, Present: []string{}, Missing: []string{}}
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		return st, nil
	}
	st.Exists = true
	_, err := os.Stat(s.Path(OffMarker))
	st.Active = err != nil
	for _, e := range []string{SchemaFile, IndexFile, LogFile, CoreFile, planfact.FileName, RawDir + "/", WikiDir + "/", PrivateDir + "/"} {
		if _, err := os.Stat(s.Path(e)); err == nil {
			st.Present = append(st.Present, e)
		} else {
			st.Missing = append(st.Missing, e)
		}
	}
	v, err := s.LoadVault()
	if err != nil {
		return nil, err
	}
	for _, p := range v.Pages {
		if hasPrefixDir(p.Path, WikiDir) {
			st.Pages++
		}
		if hasPrefixDir(p.Path, PrivateDir) {
			st.PrivatePages++
		}
	}
	for _, f := range v.Files {
		if hasPrefixDir(f, RawDir) {
			st.RawFiles++
		}
	}
	if data, err := safefs.ReadNote(s.Path(planfact.FileName), s.NoteBytes); err == nil {
		_, probs := planfact.Parse(data)
		st.PlanFactValid = len(probs) == 0
		for _, p := range probs {
			st.PlanFactErrors = append(st.PlanFactErrors, p.String())
		}
	}
	if data, err := safefs.ReadNote(s.Path(CoreFile), s.NoteBytes); err == nil {
		st.CoreChars = utf8.RuneCount(data)
	}
	return st, nil
}

// createIfMissing writes data to p only when nothing is there. Callers
// hold the store's lock, so only a person could race it, and the atomic
// write never leaves a half-written scaffold file.
func createIfMissing(p string, data []byte) (bool, error) {
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err := atomicfile.Write(p, data, 0o644); err != nil {
		return false, fmt.Errorf("create %s: %w", p, err)
	}
	return true, nil
}

func hasPrefixDir(p, dir string) bool {
	return len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == '/'
}
