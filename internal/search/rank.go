package search

import (
	"github.com/cerebro-mem/cerebro/internal/text/textan"
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

// DefaultRecencyFloor is the least share of its relevance an old hit
// keeps: recency orders hits of comparable relevance (the same fact
// stated twice, the newer first) and never lets a weak recent match
// outrank an exact old answer scoring more than 1/floor times better.
const DefaultRecencyFloor = 0.9

// recency is the factor floor + (1−floor)·2^(−age/half-life), age counted
// from ref: the newest memory among the hits, not the wall clock, so that
// an archive nobody wrote to for a year still orders its notes by age
// instead of flattening every one of them to the floor. Evergreen files
// (dated 0) and a zero half-life do not decay; a date after ref counts as
// ref.
func recency(dated, ref int64, halfLifeDays, floor float64) float64 {
	if dated == 0 || halfLifeDays <= 0 {
		return 1
	}
	age := float64(ref-dated) / 86400
	if age <= 0 {
		return 1
	}
	return floor + (1-floor)*math.Exp(-math.Ln2/halfLifeDays*age)
}

// recencyFloor maps the option onto the factor's floor: 0 is the
// default, a negative value none (plain exponential decay), above 1 is 1.
func recencyFloor(o float64) float64 {
	switch {
	case o == 0:
		return DefaultRecencyFloor
	case o < 0:
		return 0
	case o > 1:
		return 1
	}
	return o
}

// newest is the reference time recency counts from: the newest dated hit,
// but never after now (a note dated in the future is not the present).
func newest(hits []*hit, now time.Time) int64 {
	var ref int64
	for _, h := range hits {
		ref = max(ref, h.dated)
	}
	if !now.IsZero() && ref > now.Unix() {
		ref = now.Unix()
	}
	return ref
}

// newestOf is newest for each project's hits (keyed by its label, ""
// for the project searching): a project's recency counts from its own
// newest memory, so another project's fresher notes do not age it, and a
// passage ranks alike in a search of its project and of the desk.
func newestOf(hits []*hit, now time.Time) map[string]int64 {
	by := map[string][]*hit{}
	for _, h := range hits {
		by[h.ix.project] = append(by[h.ix.project], h)
	}
	out := make(map[string]int64, len(by))
	for p, hs := range by {
		out[p] = newest(hs, now)
	}
	return out
}

// sameDesk groups the indexes by the desk index holding them, in order:
// each group is searched by one query.
func sameDesk(idxs []*Index) [][]*Index {
	var out [][]*Index
	at := map[string]int{}
	for _, ix := range idxs {
		i, ok := at[ix.Path]
		if !ok {
			i = len(out)
			at[ix.Path] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], ix)
	}
	return out
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

// unrepeated drops, from hits ranked best first, each passage that mostly
// shows lines a better one of the same file already shows: neighbouring
// chunks overlap, so two of them can yield the same passage or nearly,
// and a result that repeats another tells the reader nothing new. A
// passage sharing half of its lines or fewer stays: it shows as much
// that is new.
func unrepeated(ranked []*hit) []*hit {
	type span struct{ from, to int }
	shown := map[string][]span{}
	out := ranked[:0:0]
	for _, h := range ranked {
		key := h.ix.Root.Dir + "\x00" + h.rel
		from := h.start + h.snip.off
		to := from + max(h.snip.n, 1) - 1
		repeats := false
		for _, s := range shown[key] {
			if shared := min(to, s.to) - max(from, s.from) + 1; 2*shared > to-from+1 {
				repeats = true
				break
			}
		}
		if repeats {
			continue
		}
		shown[key] = append(shown[key], span{from, to})
		out = append(out, h)
	}
	return out
}

// Diversity: at most perFile of the first topK results come from one
// file, unless the query names that file; spare more hits are ranked
// than asked for so that the ones moved down have successors.
const (
	perFile = 2
	topK    = 5
	spare   = 10
)

// spread reorders ranked hits so that no file holds more than perFile of
// the first topK places (a long page matching everywhere would otherwise
// fill them), moving the excess just below them in their order, and cuts
// the list to limit. A file whose name the query spells out is exempt:
// asked for by name, it may fill the top.
func spread(ranked []*hit, stems []string, limit int) []*hit {
	out := make([]*hit, 0, min(limit, len(ranked)))
	var later []*hit
	count := map[string]int{}
	for _, h := range ranked {
		key := h.ix.Root.Dir + "\x00" + h.rel
		if len(out) < topK && count[key] >= perFile && !isLog(h.rel) && !namesFile(stems, h.rel) {
			later = append(later, h)
			continue
		}
		count[key]++
		out = append(out, h)
		if len(out) == topK {
			out = append(out, later...)
			later = nil
		}
	}
	out = append(out, later...)
	return out[:min(limit, len(out))]
}

// isLog reports whether a file is a day's log (a daily file, a name
// holding YYYY-MM-DD): its passages are separate events of that day, not
// one page's topic repeated, so it is not capped.
func isLog(rel string) bool { return dayName().MatchString(path.Base(rel)) }

// namedBoost favours the hits of a page whose name the query spells out
// ("install community plugins" names "Community plugins.md") over
// comparable hits of other pages: a long page that repeats the query's
// words everywhere otherwise outranks the short page asked for by name.
// Comparable means within 10%, as for recency (see DefaultRecencyFloor):
// the factor is that margin, so a far better match elsewhere still wins.
const namedBoost = 1 / DefaultRecencyFloor

// namesFile reports whether the query holds every word of the file's
// name (without folders and extension): "deploy checklist" names
// "Deploy checklist.md".
func namesFile(stems []string, rel string) bool {
	base := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	name := textan.Stems(base)
	if len(name) == 0 {
		return false
	}
	q := map[string]bool{}
	for _, s := range stems {
		q[s] = true
	}
	for _, s := range name {
		if !q[s] {
			return false
		}
	}
	return true
}
