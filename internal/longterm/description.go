package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// A page's description is one line the index shows beside its link. A
// writer that appends to it instead of replacing it (the seed's own night
// did, on every pass) makes it grow by repetition: "how releases leave.
// how releases leave. how releases leave." TidyDescription takes the
// repeats out and bounds what is left, so a pass over a tidy page changes
// nothing.

// MaxDescriptionRunes bounds a description: one line of the index.
const MaxDescriptionRunes = 400

// descSentence ends a sentence or a separated part of a description.
var descSentence = lazyregexp.New(`[.!?;|·]+(?:\s+|$)`)

// CleanDescription returns d without its repetition: a sentence (or a
// part between separators) said again is dropped, a run of words repeated
// right after itself is kept once, spaces are collapsed, and what is left
// is cut at a word boundary to MaxDescriptionRunes with an ellipsis. Words
// are compared as the index reads them (case and ё folded). A description
// without repetition and within the bound comes back as it was.
func CleanDescription(d string) string {
	d = strings.Join(strings.Fields(d), " ")
	if d == "" {
		return d
	}
	var kept []string
	seen := map[string]bool{}
	rest := d
	for rest != "" {
		part := rest
		if loc := descSentence.FindStringIndex(rest); loc != nil {
			part, rest = rest[:loc[1]], rest[loc[1]:]
		} else {
			rest = ""
		}
		key := strings.Join(textan.Words(part), " ")
		if key != "" && seen[key] {
			continue
		}
		seen[key] = true
		kept = append(kept, strings.TrimSpace(part))
	}
	out := collapseRuns(strings.Fields(strings.Join(kept, " ")))
	if r := []rune(out); len(r) > MaxDescriptionRunes {
		cut := string(r[:MaxDescriptionRunes])
		if i := strings.LastIndexByte(cut, ' '); i > MaxDescriptionRunes/2 {
			cut = cut[:i]
		}
		out = strings.TrimRight(cut, " ,;:") + "…"
	}
	return out
}

// collapseRuns keeps once each run of two or more words that follows
// itself directly ("when releases leave when releases leave").
func collapseRuns(ws []string) string {
	fold := make([]string, len(ws))
	for i, w := range ws {
		fold[i] = strings.Join(textan.Words(w), " ")
	}
	same := func(a, b, n int) bool {
		for k := 0; k < n; k++ {
			if fold[a+k] != fold[b+k] || fold[a+k] == "" {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(ws); i++ {
		for n := (len(ws) - i) / 2; n >= 2; n-- {
			for i+2*n <= len(ws) && same(i, i+n, n) {
				ws = append(ws[:i+n], ws[i+2*n:]...)
				fold = append(fold[:i+n], fold[i+2*n:]...)
			}
		}
	}
	return strings.Join(ws, " ")
}

// TidyDescription rewrites the description of page (a path as
// [Store.PagePath] takes it) with [CleanDescription], keeping every other
// frontmatter key and the body byte for byte. It reports the description
// it found and the one written; changed is false when the page has none or
// it was tidy already, and then nothing is written.
func (s *Store) TidyDescription(page string, now time.Time) (old, tidy string, changed bool, err error) {
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return "", "", false, err
	}
	err = s.WithLock(func() error {
		data, err := safefs.ReadNote(abs, s.NoteBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		meta, _, err := frontmatter.Map(data)
		if err != nil {
			return nil // a page whose frontmatter does not parse is lint's to report
		}
		d, ok := meta["description"].(string)
		if !ok {
			return nil
		}
		old, tidy = d, CleanDescription(d)
		if tidy == strings.Join(strings.Fields(d), " ") {
			return nil
		}
		out, err := frontmatter.SetField(data, "description", tidy)
		if err != nil {
			return fmt.Errorf("tidy the description of %s: %w", rel, err)
		}
		if err := atomicfile.Write(abs, out, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
		changed = true
		return s.logLocked(now, "tidy description", fmt.Sprintf("%s: %d → %d characters", rel, len([]rune(d)), len([]rune(tidy))))
	})
	return old, tidy, changed, err
}
