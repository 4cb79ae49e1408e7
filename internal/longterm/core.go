package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/corefile"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// CoreTooBigError refuses a CORE.md edit that would pass the cap.
type CoreTooBigError struct{ Chars, Max int }

func (e *CoreTooBigError) Error() string {
	return fmt.Sprintf("CORE.md would be %d characters, %d over the cap of %d; nothing was written", e.Chars, e.Chars-e.Max, e.Max)
}

func (e *CoreTooBigError) Hint() string {
	return "shorten the text, or move detail into a wiki page and keep one line in CORE.md (the cap is long.core_max_chars)"
}

// CoreSet replaces CORE.md's body with text, keeping its frontmatter, and
// CoreAdd appends text as new lines. The cap applies to the whole file (the
// part injected at session start is never larger); an edit that does not fit
// is refused whole, never truncated.
func (s *Store) CoreSet(text string, max int, now time.Time) (int, error) {
	return s.coreEdit("core set", text, max, now, func(head, body string) string {
		return head + strings.TrimRight(text, "\n") + "\n"
	})
}

// CoreAdd appends text to CORE.md under the same cap as [Store.CoreSet].
func (s *Store) CoreAdd(text string, max int, now time.Time) (int, error) {
	return s.coreEdit("core add", text, max, now, func(head, body string) string {
		body = strings.TrimRight(body, "\n")
		if body != "" {
			body += "\n"
		}
		return head + body + strings.TrimRight(text, "\n") + "\n"
	})
}

func (s *Store) coreEdit(action, text string, max int, now time.Time, edit func(head, body string) string) (int, error) {
	if err := s.requireScaffold(); err != nil {
		return 0, err
	}
	if strings.TrimSpace(text) == "" {
		return 0, errors.New(action + ": empty text")
	}
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return 0, errors.New(action + ": text is not valid UTF-8")
	}
	var n int
	err := s.WithLock(func() error {
		p := s.Path(CoreFile)
		old, err := safefs.ReadNote(p, s.NoteBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("read CORE.md: %w", err)
		}
		if errors.Is(err, fs.ErrNotExist) {
			old = corefile.Template()
		}
		head, body := splitHead(string(old))
		out := edit(head, body)
		n = utf8.RuneCount([]byte(out))
		if max > 0 && n > max {
			return &CoreTooBigError{Chars: n, Max: max}
		}
		if err := atomicfile.Write(p, []byte(out), 0o644); err != nil {
			return fmt.Errorf("write CORE.md: %w", err)
		}
		return s.logLocked(now, action, fmt.Sprintf("CORE.md now %d of %d characters", n, max))
	})
	return n, err
}

// splitHead splits a file into its frontmatter block (with the blank line
// after it) and the rest.
func splitHead(text string) (string, string) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text
	}
	rest := text[strings.Index(text, "\n")+1:]
	for off := 0; off < len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if strings.TrimRight(line, "\r ") == "---" {
			end := len(text) - len(rest) + off + len(line)
			if nl >= 0 {
				end++
			}
			head := text[:end]
			body := text[end:]
			trimmed := strings.TrimLeft(body, "\r\n")
			head += body[:len(body)-len(trimmed)]
			if !strings.HasSuffix(head, "\n\n") {
				head += "\n"
			}
			return head, trimmed
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	return "", text
}
