package search

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// What the catalog records of one index when it is read into it: each
// word's best chunks with their impacts and lines, and its pages' names.

// snapshot reads what the catalog keeps of ix, which is open and caught
// up. The key is written later, by setKey, once the index is closed: a
// close may checkpoint the index and so change its file.
func (c *catalog) snapshot(ctx context.Context, ix *Index) (*catEntry, error) {
	var n float64
	if err := ix.db.QueryRowContext(ctx, `SELECT CAST(value AS REAL) FROM meta WHERE key='chunks'`).Scan(&n); err != nil {
		if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&n); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
	}
	dirs, err := ix.storedDirs()
	if err != nil {
		return nil, err
	}
	var fresh freshness
	for rel, m := range dirs {
		fresh = append(fresh, stamp{rel: rel, mtime: m, size: -1})
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT path, mtime, size FROM files ORDER BY mtime DESC LIMIT ?`, catalogHot)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for rows.Next() {
		var p string
		var m, s int64
		if err := rows.Scan(&p, &m, &s); err != nil {
			rows.Close()
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		fresh = append(fresh, stamp{rel: p, mtime: m, size: s})
	}
	rows.Close()
	words, err := wordImpacts(ctx, ix)
	if err != nil {
		return nil, err
	}
	names, err := fileNames(ctx, ix)
	if err != nil {
		return nil, err
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer tx.Rollback()
	e := &catEntry{chunks: n, fresh: fresh}
	// no key until the index is closed: a search meanwhile reads it again
	if err := tx.QueryRowContext(ctx, `INSERT INTO indexes(path, key, chunks, fresh) VALUES(?, '', ?, ?)
		ON CONFLICT(path) DO UPDATE SET key='', chunks=excluded.chunks, fresh=excluded.fresh RETURNING id`,
		ix.Path, n, fresh.encode()).Scan(&e.id); err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	for _, q := range []string{`DELETE FROM terms WHERE idx = ?`, `DELETE FROM names WHERE idx = ?`} {
		if _, err := tx.ExecContext(ctx, q, e.id); err != nil {
			return nil, fmt.Errorf("write the index catalog: %w", err)
		}
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO terms(term, idx, df, chunk, passage, rest_chunk, rest_passage, postings) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer st.Close()
	for w, s := range words {
		if _, err := st.ExecContext(ctx, w, e.id, s.df, s.chunk, s.passage, s.rest.chunk, s.rest.passage, encodePostings(s.postings)); err != nil {
			return nil, fmt.Errorf("write the index catalog: %w", err)
		}
	}
	sn, err := tx.PrepareContext(ctx, `INSERT INTO names(stem, idx, name) VALUES(?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	defer sn.Close()
	for _, n := range names {
		seen := map[string]bool{}
		for _, stem := range n {
			if seen[stem] {
				continue
			}
			seen[stem] = true
			if _, err := sn.ExecContext(ctx, stem, e.id, strings.Join(n, " ")); err != nil {
				return nil, fmt.Errorf("write the index catalog: %w", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("write the index catalog: %w", err)
	}
	return e, nil
}

// setKey records the index file's state the snapshot describes.
func (c *catalog) setKey(ctx context.Context, id int64, key string) error {
	_, err := c.db.ExecContext(ctx, `UPDATE indexes SET key = ? WHERE id = ?`, key, id)
	return err
}

// wordImpacts is, for every word of ix, the chunks holding it (FTS5's own
// count, which [Index.docFreqs] reads) and the most one chunk scores for
// it, by the formulas of textCandidates (BM25 with the title and heading
// fields, the chunk's length against the average) and of passageBM25
// (the same count, k1 only; a passage's lines are the chunk's, under its
// title and headings): a query's score in this index is at most what
// these add up to. A word FTS5 knows that the chunks' stems do not show
// gets the highest score a word can have. A word's list is kept only when
// the chunks' stems show it exactly as often as FTS5 counts it: a list
// missing a chunk would make a bound too low.
func wordImpacts(ctx context.Context, ix *Index) (map[string]wordStat, error) {
	out := map[string]wordStat{}
	rows, err := ix.db.QueryContext(ctx, `SELECT term, doc FROM chunks_vocab`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for rows.Next() {
		var t string
		var d float64
		if err := rows.Scan(&t, &d); err != nil {
			rows.Close()
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		out[t] = wordStat{df: d, chunk: -1}
	}
	rows.Close()
	var avg float64
	if err := ix.db.QueryRowContext(ctx, `SELECT CAST(value AS REAL) FROM meta WHERE key='avg_tokens'`).Scan(&avg); err != nil || avg <= 0 {
		avg = 1
	}
	rows, err = ix.db.QueryContext(ctx, `SELECT c.id, f.stems, f.title, f.heads, c.tokens FROM chunks c JOIN chunks_fts f ON f.rowid = c.id`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	tf := map[string]float64{}
	lines := map[string]uint64{}
	for rows.Next() {
		var id int64
		var stems, title, heads string
		var tokens float64
		if err := rows.Scan(&id, &stems, &title, &heads, &tokens); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		clear(tf)
		for _, w := range strings.Fields(stems) {
			tf[w]++
		}
		clear(lines)
		lineMasks(lines, stems, title, heads)
		for _, f := range []struct {
			text string
			w    float64
		}{{title, titleWeight}, {heads, headingWeight}} {
			seen := map[string]bool{}
			for _, w := range strings.Fields(f.text) {
				if !seen[w] {
					seen[w] = true
					tf[w] += f.w
				}
			}
		}
		norm := bm25K1 * (1 - bm25B + bm25B*tokens/avg)
		for w, f := range tf {
			s, ok := out[w]
			if !ok {
				continue
			}
			ci, pi := f*(bm25K1+1)/(f+norm), f*(passageK1+1)/(f+passageK1)
			s.chunk, s.passage = math.Max(s.chunk, ci), math.Max(s.passage, pi)
			s.postings = append(s.postings, posting{id: id, impact: impact{ci, pi}, lines: lines[w]})
			out[w] = s
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	for w, s := range out {
		if s.chunk < 0 {
			s.chunk, s.passage = bm25K1+1, passageK1+1
		}
		if float64(len(s.postings)) != s.df {
			s.postings, s.rest = nil, impact{s.chunk, s.passage}
		} else if len(s.postings) > topChunks {
			// best first by the score they add to; the others are
			// bounded by the most any of them scores
			ps := s.postings
			sort.Slice(ps, func(i, j int) bool {
				vi, vj := ps[i].chunk+ps[i].passage, ps[j].chunk+ps[j].passage
				if vi != vj {
					return vi > vj
				}
				return ps[i].id < ps[j].id
			})
			for _, p := range ps[topChunks:] {
				s.rest.chunk, s.rest.passage = math.Max(s.rest.chunk, p.chunk), math.Max(s.rest.passage, p.passage)
			}
			s.postings = slices.Clip(ps[:topChunks])
		}
		out[w] = s
	}
	return out, nil
}

// lineMasks sets into masks, for each stem of a chunk, the lines it
// stands on (see posting), numbered as occurrences numbers them: its
// text's lines from 0, then its title's and its headings' after them.
func lineMasks(masks map[string]uint64, texts ...string) {
	line := 0
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			for _, w := range strings.Split(l, " ") {
				if w != "" {
					masks[w] |= 1 << (line % 64)
				}
			}
			line++
		}
	}
}

// fileNames is the stems of each page's name in ix (days' logs left
// out), as [namesFile] reads them: a query naming a page boosts its hits,
// so a bound must know whether the index holds one.
func fileNames(ctx context.Context, ix *Index) ([][]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path FROM files`)
	if err != nil {
		return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var rel string
		if err := rows.Scan(&rel); err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", ix.Root.Dir, err)
		}
		if isLog(rel) {
			continue
		}
		if st := textan.Stems(strings.TrimSuffix(path.Base(rel), path.Ext(rel))); len(st) > 0 {
			out = append(out, st)
		}
	}
	return out, rows.Err()
}
