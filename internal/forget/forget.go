// Package forget takes back what a person regrets having in memory: one
// "## " section of a memory file (a daily distillate, a wiki page, CORE.md)
// or a whole file moves to .trash/ under its memory root, and nothing is
// deleted outright, so a mistaken forget can be undone by hand.
//
//	res, err := forget.Forget(forget.Request{Roots: roots, Target: "daily/2026-11-30.md#abcd1234", Now: now})
//
// The caller keeps the rest true: it drops the file from the search
// indexes and commits the removal in a versioned memory (memhook forget).
package forget

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// TrashDir is the folder under a memory root that holds what was forgotten.
// Its name starts with a dot, so no index reads it.
const TrashDir = ".trash"

// Root is one memory root a forget may act in.
type Root struct {
	Dir string
	// Lock runs fn holding the lock the root's writers of the file at
	// rel (slash separated, relative to Dir) take.
	Lock func(rel string, fn func() error) error
	// Keep lists files (relative to Dir) that may lose sections but never
	// go whole: the structure of the memory.
	Keep []string
}

// Request names what to forget.
type Request struct {
	Roots []Root
	// Target is PATH or PATH#SECTION. PATH is absolute, relative to Base,
	// or relative to a root; SECTION is a "## " heading's text, or in a
	// daily file the session id (or its first characters, as the heading
	// shows them) with ":SEQ" when the session has several sections.
	Target string
	Base   string
	Now    time.Time
	// NoteBytes bounds the read of the file: the project's
	// limits.note_bytes (0: safefs.DefaultNoteBytes).
	NoteBytes int64
}

// Result says what moved where.
type Result struct {
	Root    string `json:"root"`              // the memory root's folder
	File    string `json:"file"`              // relative to Root
	Section string `json:"section,omitempty"` // the heading forgotten; "" for the whole file
	Trash   string `json:"trash"`             // the trash copy, relative to Root
}

// refuse is a target that cannot be forgotten, with what the person can do (h).
func refuse(h, format string, args ...any) error {
	return hint.Wrap(fmt.Errorf(format, args...), h)
}

// Forget moves the section (or the file) to the trash under its root. The
// trash copy is written before the file loses it, so a kill in between
// leaves the text in both places, never in neither.
func Forget(req Request) (*Result, error) {
	file, section := split(req.Target)
	root, abs, rel, err := resolve(req, file)
	if err != nil {
		return nil, err
	}
	res := &Result{Root: root.Dir, File: rel}
	err = root.Lock(rel, func() error {
		data, err := safefs.ReadNote(abs, req.NoteBytes)
		if err != nil {
			return fmt.Errorf("forget: read %s: %w", rel, err)
		}
		if section == "" {
			for _, k := range root.Keep {
				if k == rel {
					return refuse("name the section to forget: "+rel+"#HEADING", "forget: %s is part of the memory's structure and is never moved whole", rel)
				}
			}
			return res.moveWhole(root, abs, rel, data, req.Now)
		}
		return res.moveSection(root, abs, rel, data, section, req.Now)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// split cuts "PATH#SECTION" after the file's ".md"; a '#' elsewhere is
// part of the name.
func split(target string) (string, string) {
	t := strings.TrimSpace(target)
	if i := strings.Index(strings.ToLower(t), ".md#"); i >= 0 {
		return t[:i+3], strings.TrimSpace(t[i+4:])
	}
	return t, ""
}

// resolve finds the file in one of the roots: the path must lead, once
// every link is resolved, to a regular Markdown file inside a root, out of
// its hidden folders (the trash, the caches, .git).
func resolve(req Request, file string) (Root, string, string, error) {
	hint := "name a Markdown file of the project's memory: .claude/memory_short/daily/DATE.md#SECTION or .claude/memory_long/PAGE.md#HEADING"
	if file == "" {
		return Root{}, "", "", refuse(hint, "forget: name what to forget")
	}
	var candidates []string
	if filepath.IsAbs(file) {
		candidates = []string{filepath.Clean(file)}
	} else {
		if req.Base != "" {
			candidates = append(candidates, filepath.Join(req.Base, file))
		}
		for _, r := range req.Roots {
			candidates = append(candidates, filepath.Join(r.Dir, file))
		}
	}
	for _, c := range candidates {
		fi, err := os.Lstat(c)
		if err != nil {
			continue
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return Root{}, "", "", refuse(hint, "forget: %s is a symbolic link; name the file itself", file)
		}
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			return Root{}, "", "", fmt.Errorf("forget: resolve %s: %w", file, err)
		}
		for _, r := range req.Roots {
			dir, err := filepath.EvalSymlinks(r.Dir)
			if err != nil {
				continue
			}
			rel, err := filepath.Rel(dir, real)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			rel = filepath.ToSlash(rel)
			for _, part := range strings.Split(path.Dir(rel), "/") {
				if part != "." && strings.HasPrefix(part, ".") {
					return Root{}, "", "", refuse(hint, "forget: %s is in a hidden folder of the memory (%s), not memory itself", file, part)
				}
			}
			if !fi.Mode().IsRegular() || !strings.EqualFold(filepath.Ext(c), ".md") {
				return Root{}, "", "", refuse(hint, "forget: %s is not a Markdown file", file)
			}
			return r, filepath.Join(r.Dir, filepath.FromSlash(rel)), rel, nil
		}
		return Root{}, "", "", refuse(hint, "forget: %s is outside the project's memory roots", file)
	}
	return Root{}, "", "", refuse(hint, "forget: no memory file %s", file)
}

// trashPath is where rel goes in the trash: the same folders, the time of
// the forget in the name, so forgetting twice never overwrites.
func trashPath(rel, what string, now time.Time) string {
	ext := path.Ext(rel)
	name := strings.TrimSuffix(rel, ext) + " " + now.Format("2006-01-02 150405")
	if what != "" {
		name += " " + what
	}
	return TrashDir + "/" + name + ext
}

var unsafeName = lazyregexp.New(`[^\p{L}\p{N}._-]+`)

func (res *Result) moveWhole(root Root, abs, rel string, data []byte, now time.Time) error {
	res.Trash = trashPath(rel, "", now)
	if err := write(root, res.Trash, data); err != nil {
		return err
	}
	d, err := safefs.OpenDir(safefs.RootOf(abs), filepath.Dir(abs), false)
	if err != nil {
		return fmt.Errorf("forget: open %s: %w", path.Dir(rel), err)
	}
	defer d.Close()
	if err := d.Remove(filepath.Base(abs)); err != nil {
		return fmt.Errorf("forget: remove %s: %w", rel, err)
	}
	d.Sync()
	return nil
}

func (res *Result) moveSection(root Root, abs, rel string, data []byte, section string, now time.Time) error {
	day := daily.Parse(data)
	var hits []int
	for i, e := range day.Sections {
		if matches(e, section) {
			hits = append(hits, i)
		}
	}
	if len(hits) != 1 {
		var heads []string
		for _, i := range hits {
			heads = append(heads, label(day.Sections[i]))
		}
		if len(hits) == 0 {
			for i, e := range day.Sections {
				if i == 12 {
					heads = append(heads, "…")
					break
				}
				heads = append(heads, label(e))
			}
			return refuse("name one of the sections above by its heading (or, in a daily file, SESSION or SESSION:SEQ)",
				"forget: no section %q in %s; its sections: %s", section, rel, strings.Join(heads, "; "))
		}
		return refuse("name one of them by SESSION:SEQ or by its whole heading",
			"forget: %d sections of %s match %q: %s", len(hits), rel, section, strings.Join(heads, "; "))
	}
	e := day.Sections[hits[0]]
	res.Section = e.Heading
	// The trash name says which section without repeating its heading:
	// the heading may be the very words being taken back, and names end
	// up in logs and commit messages.
	what := fmt.Sprintf("section-%d", hits[0]+1)
	if e.Marked {
		what = strings.Trim(unsafeName.ReplaceAllString(fmt.Sprintf("%s-%d", e.Short, e.Seq), "-"), "-")
	}
	res.Trash = trashPath(rel, what, now)
	copyText := fmt.Sprintf("<!-- forgotten from %s on %s -->\n\n%s", rel, now.Format("2006-01-02 15:04"), e.Raw)
	if err := write(root, res.Trash, []byte(copyText)); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(day.Preamble)
	for i, s := range day.Sections {
		if i != hits[0] {
			b.WriteString(s.Raw)
		}
	}
	if err := atomicfile.Write(abs, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("forget: rewrite %s: %w", rel, err)
	}
	return nil
}

func write(root Root, rel string, data []byte) error {
	p := filepath.Join(root.Dir, filepath.FromSlash(rel))
	if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("forget: make %s: %w", path.Dir(rel), err)
	}
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("forget: %s exists already", rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget: %s: %w", rel, err)
	}
	if err := atomicfile.Write(p, data, 0o600); err != nil {
		return fmt.Errorf("forget: write %s: %w", rel, err)
	}
	return nil
}

// matches reports whether section names e: its heading's text, or for a
// daily section its session (whole, or the start the heading shows) with
// an optional ":SEQ".
func matches(e daily.Entry, section string) bool {
	if strings.EqualFold(strings.TrimSpace(e.Heading), strings.TrimSpace(strings.TrimPrefix(section, "## "))) {
		return true
	}
	if !e.Marked {
		return false
	}
	id, seq, hasSeq := strings.Cut(section, ":")
	if hasSeq {
		n, err := strconv.Atoi(strings.TrimSpace(seq))
		if err != nil || n != e.Seq {
			return false
		}
	}
	id = strings.TrimSpace(id)
	return len(id) >= 4 && strings.HasPrefix(e.SessionID, id)
}

func label(e daily.Entry) string {
	if e.Marked {
		return fmt.Sprintf("%q (%s:%d)", e.Heading, e.Short, e.Seq)
	}
	return fmt.Sprintf("%q", e.Heading)
}
