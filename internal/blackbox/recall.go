package blackbox

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/kgraph"
	"github.com/cerebro-mem/cerebro/internal/tables"
)

// Recall climbs the ladder up to the requested depth and stops at the
// first level that answers. depth_used is the level actually reached.
func (b *Box) Recall(ctx context.Context, req RecallRequest, fates map[string]Fate, now time.Time) (*RecallAnswer, error) {
	ans := &RecallAnswer{Kind: KindNone, Items: []Item{}, DepthRequested: req.Depth, Report: []StoreReport{}, Params: fates}
	if ans.Params == nil {
		ans.Params = map[string]Fate{}
	}
	max := depthMax[req.Depth]
	if max == 0 {
		return nil, fmt.Errorf("recall: unknown depth %q", req.Depth)
	}
	deniedIDs, err := denied(b.LongDir)
	if err != nil {
		return nil, err
	}
	for level := LevelTables; level <= max; level++ {
		rep := StoreReport{Level: level, Store: storeName[level]}
		found, note, err := b.level(ctx, level, req)
		switch {
		case err == errSkip:
			rep.Status, rep.Note = "skipped", note
			ans.Report = append(ans.Report, rep)
			continue
		case err != nil:
			rep.Status, rep.Note = "error", err.Error()
		}
		ans.DepthUsed = level
		var kept []Item
		for _, it := range found {
			it.Level, it.Store = level, storeName[level]
			it.ID = inferenceID(req.Query, it.Fact)
			if deniedIDs[it.ID] {
				rep.Denied++
				continue
			}
			switch it.Fit = fitAny(it.Scope, req.scopes()); it.Fit {
			case "other":
				rep.OutScope++
				continue
			case "match":
				it.Fit = ""
			}
			kept = append(kept, it)
			if len(kept) == req.Limit {
				break
			}
		}
		if req.Chain {
			ans.Chain = append(ans.Chain, Step{Level: level, Store: storeName[level], Query: req.Query, Found: nonNil(found), Note: note})
		}
		rep.Returned = len(kept)
		if rep.Status == "" {
			rep.Status = "empty"
			if len(kept) > 0 {
				rep.Status = "answered"
			}
		}
		rep.Note = joinNote(rep.Note, note)
		if len(kept) > 0 {
			b.settle(ans, level, kept, req)
			rep.Kind = ans.Kind
			ans.Report = append(ans.Report, rep)
			break
		}
		ans.Report = append(ans.Report, rep)
		if ctx.Err() != nil {
			break
		}
	}
	if err := rememberOffers(b.OffersPath, ans.Items, req.Query, now); err != nil {
		ans.Report = append(ans.Report, StoreReport{Store: "offers", Status: "error", Note: "deny may not know these items: " + err.Error()})
	}
	return ans, nil
}

func nonNil(it []Item) []Item {
	if it == nil {
		return []Item{}
	}
	return it
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// settle turns the answering level's items into the answer and its kind.
func (b *Box) settle(ans *RecallAnswer, level int, items []Item, req RecallRequest) {
	ans.Items = items
	ans.Kind = KindProbabilistic
	if level == LevelTables {
		ans.Kind = KindAffirmative
		var data []any
		for _, it := range items {
			data = append(data, it.Data)
			if c, ok := it.Data.(tables.Cell); ok && c.Claim != tables.ClaimStated || it.Fit == "unknown" {
				ans.Kind = KindProbabilistic
			}
		}
		ans.Answer = data
	} else if top := items[0]; top.Object != "" {
		ans.Answer = map[string]string{"object": top.Object, "summary": top.Text}
	} else if top.Data != nil {
		ans.Answer = top.Data
	} else {
		ans.Answer = top.Text
	}
	if m := dependence(items, req.wanted()); len(m) > 0 {
		ans.Kind, ans.Missing = KindParamDep, m
	}
	if level >= LevelVector {
		ans.Relearn = fmt.Sprintf("this answer cost level %d; put it back with `memhook relearn --artifact FILE --summary TEXT --about ENTITY` so the same question costs level 2–3 next time", level)
	}
}

// errSkip marks a level that was not consulted (unavailable here).
var errSkip = fmt.Errorf("skipped")

func (b *Box) level(ctx context.Context, level int, req RecallRequest) ([]Item, string, error) {
	switch level {
	case LevelTables:
		if b.Tables == nil {
			return nil, "no relational store", errSkip
		}
		cells, err := b.Tables.Lookup(tables.Query{Words: tables.Words(req.Query), Table: req.Table, Key: req.Key, Kind: req.Kind})
		if err != nil {
			return nil, "", err
		}
		var out []Item
		for _, c := range cells {
			out = append(out, Item{Fact: c.ID, Data: c, Text: fmt.Sprintf("%s.%s[%s] = %s", c.Table, c.Kind, c.Key, c.Value),
				Cite: "table " + c.Table, Scope: Scope{Calendar: c.Calendar, Geo: c.Geo}})
		}
		return out, "", nil
	case LevelText, LevelVector:
		s := b.Text
		if level == LevelVector {
			if s = b.Vector; s == nil {
				return nil, b.VectorWhy, errSkip
			}
		}
		if s == nil {
			return nil, "no text search", errSkip
		}
		hits, err := s.Search(ctx, req.Query, req.Limit*4)
		if err != nil {
			return nil, "", err
		}
		var out []Item
		below, min := 0, MinCoverage
		if level == LevelVector {
			min = b.VectorMin
		}
		for _, h := range hits {
			if h.Score < min {
				below++
				continue
			}
			fact := h.Record
			if fact == "" {
				fact = shortHash("m-", h.Path, h.Text)
			}
			out = append(out, Item{Fact: fact, Text: h.Text, Object: h.Object, Cite: fmt.Sprintf("%s:%d", h.Path, h.Line), Scope: h.Scope, Score: h.Score})
		}
		note := ""
		if below > 0 {
			note = fmt.Sprintf("%d weaker passages held under %.0f%% of the question's words and do not count", below, min*100)
			if level == LevelVector {
				note = fmt.Sprintf("%d passages were less similar than %.2f and do not count", below, min)
			}
		}
		return out, note, nil
	case LevelGraph:
		g, err := kgraph.Load(b.LongDir)
		if err != nil {
			return nil, "", err
		}
		c := g.Ask(req.Query)
		if c.Empty() {
			return nil, "", nil
		}
		var names []string
		for _, e := range c.Entities {
			names = append(names, e.Name)
		}
		key, _ := json.Marshal(names)
		cite := ""
		if c.Entities[0].Page != "" {
			cite = ".claude/memory_long/" + c.Entities[0].Page
		}
		return []Item{{Fact: shortHash("g-", string(key)), Data: c, Cite: cite,
			Text: fmt.Sprintf("graph context for %d entities, %d paths (context only, no generated text)", len(c.Entities), len(c.Paths))}}, "", nil
	case LevelResearch:
		if b.Nested {
			return nil, "nested call (CEREBRO_NESTED): level 5 never runs inside level 5", errSkip
		}
		if b.Research == nil {
			return nil, "no claude command configured", errSkip
		}
		r, err := b.Research.Research(ctx, req.Query)
		note := fmt.Sprintf("%d model calls, %.1f s (budget %d calls, %d s)", r.Calls, r.Seconds, b.ResearchCalls, b.ResearchSeconds)
		if err != nil || r.Text == "" {
			return nil, note, err
		}
		return []Item{{Fact: shortHash("x-", r.Text), Text: r.Text, Cite: "claude -p research"}}, note, nil
	}
	return nil, "", errSkip
}
