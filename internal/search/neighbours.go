package search

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// neighbours gives each hit the lines of its file just before and after
// its chunk (up to limit runes, a snippet's length, each way), so that a snippet near a
// chunk's edge can still show what comes next. A file's chunks are
// written one after another, so the chunks around chunk n are n−1 and
// n+1 when they belong to the same file; one query fetches them all.
func (ix *Index) neighbours(ctx context.Context, hits map[int64]*hit, limit int) error {
	if len(hits) == 0 {
		return nil
	}
	ids := make([]any, 0, 2*len(hits))
	marks := make([]string, 0, 2*len(hits))
	for id := range hits {
		ids = append(ids, id-1, id+1)
		marks = append(marks, "?", "?")
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT id, root, path, start_line, text FROM chunks WHERE id IN (`+strings.Join(marks, ",")+`)`, ids...)
	if err != nil {
		return fmt.Errorf("search %s: context lines: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, root int64
		var path, text string
		var start int
		if err := rows.Scan(&id, &root, &path, &start, &text); err != nil {
			return fmt.Errorf("search %s: context lines: %w", ix.Root.Dir, err)
		}
		lines := strings.Split(text, "\n")
		if h, ok := hits[id+1]; ok && h.ix.id == root && h.rel == path && h.start > start && h.start-start <= len(lines) {
			h.before = lastChars(lines[:h.start-start], limit)
		}
		if h, ok := hits[id-1]; ok && h.ix.id == root && h.rel == path && h.end+1 >= start && h.end < start+len(lines)-1 {
			h.after = firstChars(lines[h.end-start+1:], limit)
		}
	}
	return rows.Err()
}

// firstChars is the leading lines of lines that fit in limit runes.
func firstChars(lines []string, limit int) []string {
	size := 0
	for i, l := range lines {
		size += utf8.RuneCountInString(l) + 1
		if size > limit+1 {
			return lines[:i]
		}
	}
	return lines
}

// lastChars is the trailing lines of lines that fit in limit runes.
func lastChars(lines []string, limit int) []string {
	size := 0
	for i := len(lines) - 1; i >= 0; i-- {
		size += utf8.RuneCountInString(lines[i]) + 1
		if size > limit+1 {
			return lines[i+1:]
		}
	}
	return lines
}
