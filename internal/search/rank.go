package search

import (
	"math"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

var (
	dayName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d{4})-(\d{2})-(\d{2})`) })
	weekName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{4})-W(\d{2})$`) })
	monthName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{4})-(\d{2})$`) })
	yearName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{4})$`) })
)

// fileDate is the Unix time a file's age counts from, or 0 for an
// evergreen file. A date in the name wins (YYYY-MM-DD anywhere; a roll-up's
// YYYY-Www, YYYY-MM or YYYY counts from the end of its period); CORE.md and
// MEMORY.md never age; other short-term files age from their mtime; other
// undated pages are evergreen.
func fileDate(kind Kind, rel string, mtime time.Time) int64 {
	if p, ok := namePeriod(kind, rel); ok {
		return p.To.Unix()
	}
	base := path.Base(rel)
	if strings.EqualFold(base, "CORE.md") || strings.EqualFold(base, "MEMORY.md") {
		return 0
	}
	if kind == KindShort {
		return mtime.Unix()
	}
	return 0
}

// decay is the factor e^(−λ·age) with λ = ln 2 / half-life: a note
// half-life days old counts half. Evergreen files (dated 0) and a zero
// half-life do not decay; a date in the future counts as today.
func decay(dated int64, now time.Time, halfLifeDays float64) float64 {
	if dated == 0 || halfLifeDays <= 0 {
		return 1
	}
	age := now.Sub(time.Unix(dated, 0)).Hours() / 24
	if age <= 0 {
		return 1
	}
	return math.Exp(-math.Ln2 / halfLifeDays * age)
}

// mmr picks up to limit hits from hits (sorted by score, best first),
// each maximizing λ·relevance − (1−λ)·(greatest Jaccard similarity of its
// snippet to one already picked), so near-duplicate notes give way to
// different ones.
func mmr(hits []*hit, limit int, lambda float64) []*hit {
	if len(hits) == 0 {
		return hits
	}
	top := hits[0].score
	if top <= 0 {
		top = 1
	}
	used := make([]bool, len(hits))
	maxSim := make([]float64, len(hits))
	var out []*hit
	for len(out) < limit && len(out) < len(hits) {
		best, bestVal := -1, math.Inf(-1)
		for i, h := range hits {
			if used[i] {
				continue
			}
			if v := lambda*h.score/top - (1-lambda)*maxSim[i]; v > bestVal {
				best, bestVal = i, v
			}
		}
		used[best] = true
		out = append(out, hits[best])
		for i := range hits {
			if !used[i] {
				maxSim[i] = math.Max(maxSim[i], jaccard(hits[i].snip.stems, hits[best].snip.stems))
			}
		}
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
