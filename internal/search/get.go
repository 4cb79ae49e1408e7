package search

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// OutsideError refuses a path that is not a Markdown file inside a memory
// root.
type OutsideError struct {
	Path   string
	Reason string
}

func (e *OutsideError) Error() string { return fmt.Sprintf("refuse to read %s: %s", e.Path, e.Reason) }

// Hint says what may be read instead.
func (e *OutsideError) Hint() string {
	return "memhook get reads only Markdown files inside the memory roots (.claude/memory_short, .claude/memory_long, Claude Code's auto-memory, the org vault); use a path from a search result"
}

// Resolve maps a path someone asks to read (relative paths are taken from
// base) to an absolute path inside one of roots, following symlinks, so
// that neither ".." nor a link leads out. The file itself need not exist.
func Resolve(roots []Root, base, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, abs)
	}
	abs = filepath.Clean(abs)
	if !strings.EqualFold(filepath.Ext(abs), ".md") {
		return "", &OutsideError{Path: p, Reason: "not a Markdown file"}
	}
	real, err := realPath(abs)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	for _, r := range roots {
		rootReal, err := realPath(filepath.Clean(r.Dir))
		if err != nil {
			continue
		}
		rel, ok := within(rootReal, real)
		if !ok {
			continue
		}
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." && r.skippedPath(dir) {
			return "", &OutsideError{Path: p, Reason: "the folder is not part of the memory"}
		}
		return real, nil
	}
	return "", &OutsideError{Path: p, Reason: "it lies outside the memory roots"}
}

// skippedPath reports whether any folder along dir is skipped.
func (r Root) skippedPath(dir string) bool {
	parts := strings.Split(dir, "/")
	for i := range parts {
		if r.skipped(strings.Join(parts[:i+1], "/")) {
			return true
		}
	}
	return false
}

// realPath resolves symlinks in the longest existing prefix of p and keeps
// the rest as written.
func realPath(p string) (string, error) {
	rest := ""
	cur := p
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// ReadLines returns lines [from, from+n) of a file (1-based; n 0 means to
// the end). A file that does not exist yet reads as empty. noteBytes
// bounds the read (see [safefs.ReadNote]).
func ReadLines(path string, from, n int, noteBytes int64) (string, error) {
	data, err := safefs.ReadNote(path, noteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if from <= 1 && n <= 0 {
		return string(data), nil
	}
	// The window is found by counting line ends, never by splitting the
	// file into its lines: a note of 3 million one-character lines once
	// cost 57 MB of line strings for a read of ten.
	start := 0
	for line := 1; line < from; line++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return "", nil
		}
		start += i + 1
	}
	if start >= len(data) {
		return "", nil
	}
	end := len(data)
	if n > 0 {
		end = start
		for k := 0; k < n && end < len(data); k++ {
			i := bytes.IndexByte(data[end:], '\n')
			if i < 0 {
				end = len(data)
				break
			}
			end += i + 1
		}
	}
	return string(data[start:end]), nil
}

// GetScope is the scope a read of path needs: id:path, as a search across
// projects cites another project's file, is read through the desk, which
// holds only the projects that share their memory, and only their memory
// roots; any other path is in the project's and the org's memory.
func GetScope(path string) Scope {
	if id, _, ok := strings.Cut(path, ":"); ok && id != "" && !strings.ContainsAny(id, `/\`) {
		return ScopeEverything
	}
	return ScopeAll
}
