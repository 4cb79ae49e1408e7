package longterm

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// PageWriteResult says what [Store.WritePage] did.
type PageWriteResult struct {
	Page    string // slash path relative to the long-term root
	Created bool
	Changed bool // false when the page already held exactly this text
}

// WritePage creates or replaces one page with text, for the model: Claude
// Code refuses its Write and Edit tools (and shell redirections) on any file
// under a project's .claude/ as "sensitive", so pages there are written
// through memhook. PAGE follows [Store.PagePath] (no raw/, no hidden or
// outside paths); log.md and CORE.md have their own writers and are
// refused, and a План-факт.md that would break its contract is refused
// whole. index.md and the graph are refreshed, and log.md gets a line.
func (s *Store) WritePage(page string, text []byte, now time.Time) (*PageWriteResult, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return nil, err
	}
	switch rel {
	case LogFile:
		return nil, pageError(page, "log.md is appended by memhook only")
	case CoreFile:
		return nil, pageError(page, "CORE.md is written with `memhook core set|add`, which keeps its size cap")
	}
	if err := checkText(rel, text); err != nil {
		return nil, err
	}
	if err := plainPathAllowed(rel); err != nil {
		return nil, err
	}
	return s.writePage(rel, abs, text, now, keepsMemory)
}

// WriteDigest writes the night's digest of day, wiki/_private/digest-DAY.md:
// memory's own writer for a path [Store.WritePage] refuses.
func (s *Store) WriteDigest(day string, text []byte, now time.Time) (*PageWriteResult, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return nil, fmt.Errorf("write digest: %q is not a day YYYY-MM-DD", day)
	}
	rel, abs, err := s.PagePath(DigestPage(day))
	if err != nil {
		return nil, err
	}
	if err := checkText(rel, text); err != nil {
		return nil, err
	}
	return s.writePage(rel, abs, text, now, nil)
}

// DigestPage is where the night keeps its digest of day.
func DigestPage(day string) string { return PrivateDir + "/digest-" + day + ".md" }

func checkText(rel string, text []byte) error {
	if len(bytes.TrimSpace(text)) == 0 {
		return fmt.Errorf("page write %s: the text is empty", rel)
	}
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return fmt.Errorf("page write %s: the text is not UTF-8 Markdown", rel)
	}
	return nil
}

// writePage writes a page under the store's lock; check, when set, sees
// the page's current bytes (nil when it does not exist) and may refuse.
func (s *Store) writePage(rel, abs string, text []byte, now time.Time, check func(rel string, old, text []byte) error) (*PageWriteResult, error) {
	if !bytes.HasSuffix(text, []byte("\n")) {
		text = append(text, '\n')
	}
	if rel == planfact.FileName {
		if _, probs := planfact.Parse(text); len(probs) > 0 {
			return nil, &PlanFactInvalidError{Problems: probs}
		}
	}
	res := &PageWriteResult{Page: rel}
	err := s.WithLock(func() error {
		_, statErr := os.Stat(abs)
		res.Created = errors.Is(statErr, fs.ErrNotExist)
		if check != nil && !res.Created {
			old, err := safefs.ReadNote(abs, s.NoteBytes)
			if err != nil {
				return fmt.Errorf("page write %s: read the page: %w", rel, err)
			}
			if err := check(rel, old, text); err != nil {
				return err
			}
		}
		if err := safefs.MkdirAll(filepath.Dir(abs)); err != nil {
			return fmt.Errorf("page write %s: %w", rel, err)
		}
		changed, err := s.writeIfChanged(abs, text)
		if err != nil {
			return fmt.Errorf("page write %s: %w", rel, err)
		}
		if res.Changed = changed; !changed {
			return nil
		}
		what := "updated"
		if res.Created {
			what = "created"
		}
		if err := s.logLocked(now, "page write", rel+" "+what); err != nil {
			return err
		}
		return s.refreshLocked()
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
