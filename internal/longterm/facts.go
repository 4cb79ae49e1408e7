package longterm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// FactResult says what [Store.FactAdd] did.
type FactResult struct {
	Page    string
	Line    string
	Already bool // the same fact line was already on the page
}

var hhmmRe = lazyregexp.New(`^([01]\d|2[0-3]):[0-5]\d$`)

// FactAdd appends a dated fact with its evidence to the page's facts
// section, creating the section when missing. Existing lines are never
// changed; adding the same line twice is a no-op.
func (s *Store) FactAdd(page, text, evidence, hhmm string, now time.Time) (*FactResult, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return nil, err
	}
	text = strings.TrimSpace(text)
	if text == "" || strings.ContainsAny(text, "\r\n") {
		return nil, errors.New("fact add: the fact must be one non-empty line")
	}
	day, ok := EvidenceDay(evidence)
	if !ok {
		return nil, fmt.Errorf("fact add: evidence %q is not daily/YYYY-MM-DD", evidence)
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return nil, fmt.Errorf("fact add: evidence day %s is not a date", day)
	}
	if _, found := s.DayFile(day); !found {
		return nil, hint.Wrap(fmt.Errorf("fact add: no short-term day file for %s (looked in %s and its _archive/)", day, s.DailyDir),
			"evidence must name a day that exists in short-term memory")
	}
	if hhmm != "" && !hhmmRe.MatchString(hhmm) {
		return nil, fmt.Errorf("fact add: time %q is not HH:MM", hhmm)
	}
	line := fmt.Sprintf("- %s: %s · [[daily/%s]]", day, text, day)
	if hhmm != "" {
		line += " " + hhmm
	}
	res := &FactResult{Page: rel, Line: line}
	err = s.WithLock(func() error {
		data, err := safefs.ReadNote(abs, s.NoteBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("fact add: page %s does not exist; write the page first", rel)
		}
		if err != nil {
			return fmt.Errorf("fact add: read %s: %w", rel, err)
		}
		lines := splitLines(string(data))
		sec, ok := findSection(lines, factNames)
		if ok {
			for _, l := range lines[sec.Head:sec.End] {
				if strings.TrimSpace(l) == line {
					res.Already = true
					return nil
				}
			}
			at := lastContent(lines, sec)
			if at == sec.Head+1 {
				lines = insertLines(lines, at, "", line)
			} else {
				lines = insertLines(lines, at, line)
			}
		} else {
			// A new facts section goes before the archive, else at the end.
			at := len(lines)
			if a, ok := findSection(lines, archiveNames); ok {
				at = a.Head
			}
			add := []string{FactsHeading, "", line}
			if at > 0 && strings.TrimSpace(lines[at-1]) != "" {
				add = append([]string{""}, add...)
			}
			if at < len(lines) {
				add = append(add, "")
			}
			lines = insertLines(lines, at, add...)
		}
		if err := atomicfile.Write(abs, []byte(joinLines(lines)), 0o644); err != nil {
			return fmt.Errorf("fact add: write %s: %w", rel, err)
		}
		if err := s.logLocked(now, "fact add", rel+": "+line); err != nil {
			return err
		}
		return s.refreshLocked()
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Hash is the hash `truth set --expect-hash` compares: SHA-256 of the
// page's bytes, in hex.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TruthHash returns the current hash of a page.
func (s *Store) TruthHash(page string) (string, error) {
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return "", err
	}
	data, err := safefs.ReadNote(abs, s.NoteBytes)
	if err != nil {
		return "", fmt.Errorf("truth hash: read %s: %w", rel, err)
	}
	return Hash(data), nil
}

// TruthConflictError says the page changed since it was hashed: the new
// truth waits in a pending file and the page is untouched.
type TruthConflictError struct {
	Page, Pending, Expected, Actual string
}

func (e *TruthConflictError) Error() string {
	return fmt.Sprintf("truth set: %s changed since it was read (hash %s, expected %s); the page is unchanged and the proposed truth waits in %s",
		e.Page, short(e.Actual), short(e.Expected), e.Pending)
}

func (e *TruthConflictError) Hint() string {
	return "read the page again, merge the pending proposal by hand or rerun `memhook truth hash` and `truth set` with the new hash"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// PendingPath is where a refused truth waits: a sibling page
// "<name>.truth-pending.md" (typed truth-pending, linked to its page).
func PendingPath(rel string) string {
	return strings.TrimSuffix(rel, path.Ext(rel)) + ".truth-pending.md"
}

// TruthSet replaces the page's compiled-truth section with truth if the
// page still hashes to expect. The replaced truth moves to the archive
// section under a dated heading. On a mismatch the page is left alone, the
// proposal is appended to the pending file, and a *TruthConflictError is
// returned.
func (s *Store) TruthSet(page string, truth []byte, expect string, now time.Time) error {
	if err := s.requireScaffold(); err != nil {
		return err
	}
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return err
	}
	expect = strings.ToLower(strings.TrimSpace(expect))
	if len(expect) < 12 {
		return errors.New("truth set: --expect-hash must be at least 12 hex digits from `memhook truth hash`")
	}
	body, err := truthBody(truth)
	if err != nil {
		return err
	}
	return s.WithLock(func() error {
		data, err := safefs.ReadNote(abs, s.NoteBytes)
		if err != nil {
			return fmt.Errorf("truth set: read %s: %w", rel, err)
		}
		actual := Hash(data)
		if !strings.HasPrefix(actual, expect) {
			pending := PendingPath(rel)
			if err := s.writePendingLocked(rel, pending, body, expect, actual, now); err != nil {
				return err
			}
			if err := s.logLocked(now, "truth pending", fmt.Sprintf("%s changed since read; proposal kept in %s", rel, pending)); err != nil {
				return err
			}
			if err := s.refreshLocked(); err != nil {
				return err
			}
			return &TruthConflictError{Page: rel, Pending: pending, Expected: expect, Actual: actual}
		}
		out := replaceTruth(splitLines(string(data)), body, now)
		if err := atomicfile.Write(abs, []byte(joinLines(out)), 0o644); err != nil {
			return fmt.Errorf("truth set: write %s: %w", rel, err)
		}
		if err := s.logLocked(now, "truth set", rel+": compiled truth replaced; old truth archived"); err != nil {
			return err
		}
		return s.refreshLocked()
	})
}

// truthBody checks the new truth: non-empty UTF-8 text without level-1 or
// level-2 headings (they would end the section); a leading "## Compiled
// truth" line is dropped.
func truthBody(truth []byte) ([]string, error) {
	text := strings.ReplaceAll(string(truth), "\r\n", "\n")
	if strings.ContainsRune(text, 0) || !validUTF8(text) {
		return nil, errors.New("truth set: the new truth is not UTF-8 text")
	}
	lines := splitLines(strings.Trim(text, "\n"))
	if len(lines) > 0 {
		if _, ok := findSection(lines[:1], truthNames); ok {
			lines = splitLines(strings.Trim(strings.Join(lines[1:], "\n"), "\n"))
		}
	}
	if len(lines) == 0 {
		return nil, errors.New("truth set: the new truth is empty")
	}
	inFence := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
		}
		if lv := headingLevel(t); !inFence && lv > 0 && lv <= 2 {
			return nil, fmt.Errorf("truth set: line %d of the new truth is a level-%d heading; use ### or deeper inside the truth", i+1, lv)
		}
	}
	return lines, nil
}

func replaceTruth(lines, body []string, now time.Time) []string {
	sec, ok := findSection(lines, truthNames)
	var old []string
	if ok {
		old = splitLines(strings.Trim(strings.Join(lines[sec.Head+1:sec.End], "\n"), "\n"))
		repl := append(append([]string{lines[sec.Head], ""}, body...), "")
		lines = append(append(append([]string{}, lines[:sec.Head]...), repl...), lines[sec.End:]...)
	} else {
		// A new truth section goes before the page's first "## " section,
		// so the page's intro stays outside it; at the end when there is
		// no section.
		at := len(lines)
		inFence := false
		for i := bodyStart(lines); i < len(lines); i++ {
			t := strings.TrimSpace(lines[i])
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				inFence = !inFence
			}
			if !inFence && headingLevel(t) == 2 {
				at = i
				break
			}
		}
		add := append(append([]string{"", TruthHeading, ""}, body...), "")
		lines = insertLines(lines, at, add...)
	}
	lines = trimBlankRuns(lines)
	if len(old) == 0 {
		return lines
	}
	entry := append([]string{"", "### Replaced " + now.Format(stampLayout), ""}, old...)
	if a, ok := findSection(lines, archiveNames); ok {
		return trimBlankRuns(insertLines(lines, lastContent(lines, a), entry...))
	}
	lines = append(lines, "", ArchiveHeading)
	return trimBlankRuns(append(lines, entry...))
}

// bodyStart is the first line after a frontmatter block.
func bodyStart(lines []string) int {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return i + 1
		}
	}
	return 0
}

// trimBlankRuns collapses runs of blank lines that edits leave behind,
// outside code fences.
func trimBlankRuns(lines []string) []string {
	out := lines[:0:0]
	inFence := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
		}
		if !inFence && t == "" && len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

func (s *Store) writePendingLocked(rel, pending string, body []string, expect, actual string, now time.Time) error {
	p := s.Path(pending)
	data, err := safefs.ReadNote(p, s.NoteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		target := strings.TrimSuffix(rel, path.Ext(rel))
		data = []byte(fmt.Sprintf("---\ntype: truth-pending\npage: %q\n---\n\n# Pending truth for [[%s]]\n\n"+
			"memhook refused to replace the compiled truth of this page because the page\n"+
			"changed after it was read: a person's edit wins. Merge what is useful below\n"+
			"into the page by hand, then move this file to `.trash/`.\n", rel, target))
	} else if err != nil {
		return fmt.Errorf("truth set: read %s: %w", pending, err)
	}
	text := strings.TrimRight(string(data), "\n") + "\n\n" +
		fmt.Sprintf("## Proposed %s (read at hash %s, page now %s)\n\n", now.Format(stampLayout), short(expect), short(actual)) +
		strings.Join(body, "\n") + "\n"
	if err := atomicfile.Write(p, []byte(text), 0o644); err != nil {
		return fmt.Errorf("truth set: write %s: %w", pending, err)
	}
	return nil
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
