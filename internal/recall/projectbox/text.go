package projectbox

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// indexedText is recall's level 2 over the FTS5 indexes of the project's
// memory roots (internal/search): the index points at line ranges, and
// blackbox scores their passages by the share of the question's words, so
// the ladder's threshold means the same with or without an index. When the
// indexes cannot be opened it falls back to reading the files.
type indexedText struct {
	memory *search.Memory
	now    func() time.Time
	scan   blackbox.MarkdownScan // the fallback and the skip rules
}

func (t *indexedText) open(ctx context.Context) ([]*search.Index, error) {
	var idxs []*search.Index
	for _, r := range t.memory.Existing() {
		ix, err := search.Open(t.memory.IndexDir, r, t.memory.Params)
		if err != nil {
			closeAll(idxs)
			return nil, err
		}
		idxs = append(idxs, ix)
		if _, err := ix.Update(ctx, t.now(), nil); err != nil && ctx.Err() == nil {
			closeAll(idxs)
			return nil, err
		}
	}
	return idxs, nil
}

func closeAll(idxs []*search.Index) {
	for _, ix := range idxs {
		ix.Close()
	}
}

// options are the memory's ranking settings for limit candidates now.
func (t *indexedText) options(limit int) search.Options {
	o := t.memory.Options
	o.Limit, o.Now = limit, t.now()
	return o
}

// abs is a result's path as a file path.
func (t *indexedText) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(t.memory.Base, filepath.FromSlash(p))
}

// search runs the memory's search over its indexes, caught up first
// within the update budget, for limit*4 candidates with the options tune
// sets.
func (t *indexedText) search(ctx context.Context, query string, limit int, tune func(*search.Options)) (*search.Response, error) {
	uctx, cancel := context.WithTimeout(ctx, t.memory.UpdateBudget)
	defer cancel()
	idxs, err := t.open(uctx)
	if err != nil {
		return nil, err
	}
	defer closeAll(idxs)
	o := t.options(limit * 4)
	tune(&o)
	return search.Search(ctx, idxs, query, o)
}

// Search implements blackbox.TextSearcher.
func (t *indexedText) Search(ctx context.Context, query string, limit int) ([]blackbox.Hit, error) {
	resp, err := t.search(ctx, query, limit, func(o *search.Options) {
		o.Embedder = nil // level 2 is text; vectors are level 4
		o.MMR = false    // candidates, not a reading list: keep every strong file
	})
	if err != nil {
		return t.scan.Search(ctx, query, limit)
	}
	var ranges []blackbox.Range
	for _, r := range resp.Results {
		if abs := t.abs(r.Path); !excluded(t.scan, t.memory.Roots, abs) {
			ranges = append(ranges, blackbox.Range{Path: abs, From: r.StartLine, To: r.EndLine})
		}
	}
	return blackbox.ScanRanges(t.memory.Base, ranges, query, limit), nil
}

// Relearned implements blackbox.RelearnFinder: the search the rest of
// memory uses, its informative-weight gate at blackbox.RelearnCover, over
// the relearned summaries alone (a page keeps the question it answered,
// in the words of the research walk's rephrasings too). A hit's score is
// the share of the question's informative weight it holds.
func (t *indexedText) Relearned(ctx context.Context, query string, limit int) ([]blackbox.Hit, error) {
	resp, err := t.search(ctx, query, limit, func(o *search.Options) {
		o.Embedder, o.MMR, o.HalfLifeDays = nil, false, 0 // an answer kept does not fade
		o.MinCover = blackbox.RelearnCover
	})
	if err != nil {
		return nil, err
	}
	var hits []blackbox.Hit
	seen := map[string]bool{}
	for _, r := range resp.Results {
		abs := t.abs(r.Path)
		if !strings.Contains(filepath.ToSlash(abs), "/"+blackbox.RelearnDir+"/") || excluded(t.scan, t.memory.Roots, abs) {
			continue
		}
		for _, h := range blackbox.PassagesIn(t.memory.Base, abs, r.StartLine, r.EndLine, query) {
			if h.Object == "" || seen[h.Fact()] {
				continue // the summary's own passage, once
			}
			seen[h.Fact()] = true
			h.Score = r.Coverage()
			hits = append(hits, h)
		}
		if len(hits) == limit {
			break
		}
	}
	return hits, nil
}

// excluded reports whether the scan's skip rules keep abs out, or no root
// holds it.
func excluded(scan blackbox.MarkdownScan, roots []search.Root, abs string) bool {
	for _, r := range roots {
		if rel, err := filepath.Rel(r.Dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return scan.Excluded(filepath.ToSlash(rel))
		}
	}
	return true
}

// IndexFile implements blackbox.Indexer: the root holding the file is
// caught up at once, so the next recall's index already has it.
func (t *indexedText) IndexFile(ctx context.Context, path string) error {
	for _, r := range t.memory.Existing() {
		if rel, err := filepath.Rel(r.Dir, path); err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		ix, err := search.Open(t.memory.IndexDir, r, t.memory.Params)
		if err != nil {
			return err
		}
		defer ix.Close()
		st, err := ix.Update(ctx, t.now(), nil)
		if err != nil {
			return err
		}
		if !st.Complete {
			return fmt.Errorf("index of %s is behind: %d files not yet read", r.Dir, st.Pending)
		}
		return nil
	}
	return nil
}

// vectorText is recall's level 4: the same indexes searched by embedding
// similarity alone (the chunks are embedded as the index catches up). A
// hit's score is the cosine similarity of its chunk to the question.
type vectorText struct {
	indexedText
}

// Search implements blackbox.TextSearcher.
func (t *vectorText) Search(ctx context.Context, query string, limit int) ([]blackbox.Hit, error) {
	resp, err := t.search(ctx, query, limit, func(o *search.Options) {
		o.VectorWeight, o.TextWeight, o.MMR, o.HalfLifeDays = 1, 0, false, 0
	})
	if err != nil {
		return nil, err
	}
	if resp.Mode != search.ModeHybrid {
		return nil, fmt.Errorf("no chunk has a vector yet (%s)", strings.Join(resp.Notes, "; "))
	}
	seen := map[string]bool{}
	var hits []blackbox.Hit
	for _, r := range resp.Results {
		abs := t.abs(r.Path)
		if excluded(t.scan, t.memory.Roots, abs) {
			continue
		}
		// A chunk may span several passages: each gets its similarity.
		for _, h := range blackbox.PassagesIn(t.memory.Base, abs, r.StartLine, r.EndLine, query) {
			if key := h.Path + "\x00" + fmt.Sprint(h.Line); !seen[key] {
				seen[key] = true
				h.Score = r.Score
				hits = append(hits, h)
			}
		}
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

var (
	_ blackbox.TextSearcher = (*indexedText)(nil)
	_ blackbox.Indexer      = (*indexedText)(nil)
	_ blackbox.TextSearcher = (*vectorText)(nil)
)
