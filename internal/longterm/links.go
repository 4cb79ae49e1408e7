package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Headings of the sections the night's two-way links go under: a digest
// lists the cards it touches, a card the digests that touched it.
const (
	CardsHeading   = "## Cards"
	DigestsHeading = "## Digests"
)

// LinkResult says what [Store.AddLink] did.
type LinkResult struct {
	Page   string
	Target string
	Added  bool // false when the page already linked the target
}

// AddLink adds "- [[target]]" to the page's section named heading ("## X"),
// creating the section before the archive section (else at the end) when
// missing. Both files must exist: a link is only written between two pages
// that are there. A page that links target anywhere already is left alone,
// so running it again changes nothing.
func (s *Store) AddLink(page, target, heading string, now time.Time) (*LinkResult, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return nil, err
	}
	trel, tabs, err := s.PagePath(target)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(tabs); err != nil {
		return nil, fmt.Errorf("link %s to %s: %s does not exist; a link is only written between two pages that are there", rel, trel, trel)
	}
	link := strings.TrimSuffix(trel, path.Ext(trel))
	res := &LinkResult{Page: rel, Target: trel}
	name := strings.TrimSpace(strings.TrimLeft(heading, "#"))
	err = s.WithLock(func() error {
		data, err := safefs.ReadNote(abs, s.NoteBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("link %s to %s: %s does not exist; a link is only written between two pages that are there", rel, trel, rel)
		}
		if err != nil {
			return fmt.Errorf("link %s to %s: read %s: %w", rel, trel, rel, err)
		}
		for _, l := range wiki.ParseLinks(string(data), 1) {
			if strings.EqualFold(strings.TrimSuffix(l.Target, ".md"), link) {
				return nil
			}
		}
		lines := splitLines(string(data))
		item := "- [[" + link + "]]"
		if sec, ok := findSection(lines, []string{strings.ToLower(name)}); ok {
			lines = insertLines(lines, lastContent(lines, sec), item)
		} else {
			at := len(lines)
			if a, ok := findSection(lines, archiveNames); ok {
				at = a.Head
			}
			add := []string{"## " + name, "", item}
			if at > 0 && strings.TrimSpace(lines[at-1]) != "" {
				add = append([]string{""}, add...)
			}
			if at < len(lines) {
				add = append(add, "")
			}
			lines = insertLines(lines, at, add...)
		}
		if err := atomicfile.Write(abs, []byte(joinLines(lines)), 0o644); err != nil {
			return fmt.Errorf("link %s to %s: write %s: %w", rel, trel, rel, err)
		}
		res.Added = true
		if err := s.logLocked(now, "link add", rel+" → "+link); err != nil {
			return err
		}
		return s.refreshLocked()
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
