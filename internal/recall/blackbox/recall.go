package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// Recall climbs the ladder up to the requested depth and stops at the
// first level that answers. depth_used is the level actually reached.
func (b *Box) Recall(ctx context.Context, req RecallRequest, fates map[string]Fate, now time.Time) (*RecallAnswer, error) {
	ans := &RecallAnswer{Kind: KindNone, Items: []Item{}, DepthRequested: req.Depth, Report: []StoreReport{}, Params: fates}
	if ans.Params == nil {
		ans.Params = map[string]Fate{}
	}
	if req.Thread != "" {
		req.history = b.threadHistory(req.Thread, now)
	}
	if req.Table != "" {
		var how string
		if req.Table, how = b.resolveTable(req.Table); how != "" {
			f := ans.Params["table"]
			f.Note += how
			ans.Params["table"] = f
		}
	}
	max := depthMax[req.Depth]
	if max == 0 {
		return nil, fmt.Errorf("recall: unknown depth %q", req.Depth)
	}
	den, err := denied(b.LongDir)
	if err != nil {
		return nil, err
	}
	claim := extractClaim(req.Query)
	if !claim.Usable() {
		claim = nil
	}
	gate := b.newEntityGate(req.Query)
	// checked is a denied conclusion a relearned answer to this question
	// carried: the question was researched, and the person said no.
	var checked *Claim
	for level := LevelTables; level <= max; level++ {
		rep := StoreReport{Level: level, Store: storeName[level]}
		if d := den.claimDenied(claim); d != nil && level == LevelResearch {
			// Research would only derive the denied conclusion again, at
			// the price of model calls.
			rep.Status, rep.Denied = StatusSkipped, 1
			rep.Note = fmt.Sprintf("the claim %s · %s · %s was denied; research would only derive it again", d.Subject, orUnknown(d.Relation), d.Object)
			ans.Report = append(ans.Report, rep)
			continue
		}
		if d := checked; d != nil && level == LevelResearch {
			rep.Status, rep.Denied = StatusSkipped, 1
			rep.Note = fmt.Sprintf("this question was researched, and its conclusion %s · %s · %s was denied; research would only derive it again", d.Subject, orUnknown(d.Relation), d.Object)
			ans.Report = append(ans.Report, rep)
			continue
		}
		var walk []Step
		found, note, err := b.level(ctx, level, req, now, &walk, &ans.asked)
		switch {
		case err == errSkip:
			rep.Status, rep.Note = StatusSkipped, note
			ans.Report = append(ans.Report, rep)
			continue
		case err != nil:
			rep.Status, rep.Note = StatusError, err.Error()
		}
		ans.DepthUsed = level
		var kept []Item
		other := 0
		for _, it := range found {
			if (level == LevelText || level == LevelVector) && !gate.answers(it) {
				other++
				continue
			}
			it.Level, it.Store = level, storeName[level]
			it.ID = inferenceID(req.Query, it.Fact)
			it.Claim = claim
			if den.withholds(it) {
				rep.Denied++
				if level == LevelText && it.Object != "" && checked == nil {
					checked = den.carried(it.whole + "\n" + it.Text)
				}
				if level == LevelResearch && it.Fact == found[0].Fact {
					// The answer carries a denied conclusion: the passages
					// it was given are its evidence, not another answer.
					rep.Denied += len(found) - 1
					rep.Note = joinNote(rep.Note, "the research answer carries a denied conclusion and is withheld with what it rested on")
					break
				}
				continue
			}
			if level == LevelGraph {
				if c, ok := it.Data.(*kgraph.Context); ok {
					pruned, n := b.withoutDenied(c, den)
					rep.Denied += n
					if pruned == nil {
						continue
					}
					it.Data = pruned
				}
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
			ans.Chain = append(ans.Chain, walk...)
			ans.Chain = append(ans.Chain, Step{Level: level, Store: storeName[level], Query: req.Query, Found: nonNil(found), Note: note})
		}
		rep.Returned = len(kept)
		if rep.Status == "" {
			rep.Status = StatusEmpty
			if len(kept) > 0 {
				rep.Status = StatusAnswered
			}
		}
		rep.Note = joinNote(rep.Note, note)
		if other > 0 {
			rep.Note = joinNote(rep.Note, gate.note(other))
		}
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
	if ans.DepthUsed >= LevelVector && len(ans.Items) > 0 {
		b.relearnAnswer(ctx, ans, req, claim, now)
	}
	if err := rememberOffers(b.OffersPath, ans.Items, req.Query, now); err != nil {
		ans.Report = append(ans.Report, StoreReport{Store: "offers", Status: StatusError, Note: "deny may not know these items: " + err.Error()})
	}
	if req.Thread != "" {
		e := threadEntry{Verb: VerbRecall, Text: req.Query, At: now, Depth: ans.DepthUsed, Kind: ans.Kind, Answer: answerText(ans)}
		for _, it := range ans.Items {
			if it.Cite != "" && len(e.Cites) < 5 {
				e.Cites = append(e.Cites, it.Cite)
			}
		}
		// Research answering ends the cycle: its result is memory now.
		end := ans.DepthUsed == LevelResearch && len(ans.Items) > 0
		b.threadCall(ans.Params, &ans.Thread, req.Thread, e, end, now)
	} else if b.ThreadsDir != "" {
		b.sweepThreads(now, "")
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
	if bd, isBreakdown := items[0].Data.(*Breakdown); isBreakdown {
		ans.Kind = KindAffirmative
		if !bd.Stated {
			ans.Kind = KindProbabilistic
		}
		ans.Answer = map[string]string{"object": bd.Object, "summary": bd.Summary}
	} else if level == LevelTables {
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
}

// relearnAnswer runs the relearn cycle on an expensive answer before it
// goes out, so the same question costs level 2–3 next time: the answer
// becomes an object, a summary page, a graph link and a link-table row.
func (b *Box) relearnAnswer(ctx context.Context, ans *RecallAnswer, req RecallRequest, claim *Claim, now time.Time) {
	top := ans.Items[0]
	switch {
	case !req.Relearn:
		ans.Relearn = fmt.Sprintf("not relearned (relearn: false): the same question will cost level %d again; put it back with `memhook relearn --artifact FILE --summary TEXT --about ENTITY`", ans.DepthUsed)
		return
	case b.Nested:
		ans.Relearn = "not relearned: a nested recall inside research never writes; the outer recall relearns its own answer"
		return
	case top.Object != "":
		ans.Relearn = "not relearned: the answer is already a relearned object (" + top.Object + ")"
		return
	}
	about := "unnamed question"
	if c := extractClaim(req.Query); c != nil {
		about = c.Subject
	}
	var doc strings.Builder
	fmt.Fprintf(&doc, "# %s\n\nAnswered at level %d (%s), %s, on %s.\n\n## Answer\n\n%s\n\n## What it rests on\n\n",
		clip(req.Query, 200), ans.DepthUsed, storeName[ans.DepthUsed], ans.Kind, now.UTC().Format(time.DateOnly), strings.TrimSpace(top.Text))
	for _, it := range ans.Items {
		fmt.Fprintf(&doc, "- %s (%s): %s\n", it.Fact, orUnknown(it.Cite), clip(it.Text, 400))
	}
	for _, r := range ans.Report {
		fmt.Fprintf(&doc, "\n- level %d %s: %s %s", r.Level, r.Store, r.Status, r.Note)
	}
	doc.WriteString("\n")
	summary := strings.TrimSpace(top.Text) + "\n\n" + researchedFor + " " + clip(req.Query, 300)
	idx, _ := b.Text.(Indexer)
	res, err := b.Relearn(ctx, RelearnRequest{Artifact: []byte(doc.String()), ArtifactName: "answer.md", Summary: summary, About: about, AlsoAsked: ans.asked}, idx, now)
	if err != nil {
		ans.Relearn = fmt.Sprintf("relearn failed (%v); the answer stands but the same question will cost level %d again", err, ans.DepthUsed)
		if res != nil {
			res.Error = err.Error()
			ans.Relearned = res
		}
		return
	}
	ans.Relearned = res
	// The summary is linked to the claim's other entity too, so a question
	// naming both in other words finds a path at level 3.
	if claim != nil && claim.Object != "" && !strings.ContainsAny(claim.Object, "[]|#·") {
		page := strings.TrimSuffix(filepath.Base(res.SummaryPath), ".md")
		if r, err := kgraph.Link(b.LongDir, page, claim.Object, "summarises", res.Object, now, b.NoteBytes); err == nil {
			res.ObjectRelation = r.ID
		}
	}
}

// researchedFor opens the line of a relearned summary naming the question
// it answered.
const researchedFor = "Researched for the question:"

// errSkip marks a level that was not consulted (unavailable here).
var errSkip = fmt.Errorf("skipped")

func (b *Box) level(ctx context.Context, level int, req RecallRequest, now time.Time, walk *[]Step, asked *[]string) ([]Item, string, error) {
	switch level {
	case LevelTables:
		if b.Tables == nil {
			return nil, "no relational store", errSkip
		}
		bd, err := b.breakdown(req, now)
		if err != nil {
			return nil, "", err
		}
		if bd != nil {
			note := fmt.Sprintf("a breakdown (%s over %d rows of %s.%s) computed by memhook, stored as a Markdown table", bd.Op, bd.Rows, bd.Table, bd.Kind)
			if bd.NoDate > 0 {
				note += fmt.Sprintf("; %d rows without a date left out", bd.NoDate)
			}
			return []Item{{Fact: shortHash("t-", bd.Object), Object: bd.Object, Text: bd.Summary, Data: bd, Cite: "table " + bd.Table,
				Scope: req.Scope}}, note, nil // the rows were filtered by the caller's scope already
		}
		cells, err := b.Tables.Lookup(tables.Query{Words: lookupWords(req.Query), Table: req.Table, Key: req.Key, Kind: req.Kind})
		if err != nil {
			return nil, "", err
		}
		note := ""
		if len(cells) == 0 && req.Table == "" && req.Key == "" && req.Kind == "" {
			// "кто в моей команде", "who are my friends": the rows of the
			// group or the relation, in either language.
			if rel, groups := membersAsked(req.Query); len(rel)+len(groups) > 0 {
				if cells, note, err = b.rowsOf(rel, groups); err != nil {
					return nil, "", err
				}
			}
		}
		if sk, _ := b.Tables.Skipped(); len(sk) > 0 {
			note = joinNote(note, fmt.Sprintf("%d table journal ops could not apply and were skipped (run `memhook tables repair`)", len(sk)))
		}
		var out []Item
		for _, c := range cells {
			out = append(out, Item{Fact: c.ID, Data: c, Text: fmt.Sprintf("%s.%s[%s] = %s", c.Table, c.Kind, c.Key, c.Value),
				Cite: "table " + c.Table, Scope: Scope{Calendar: c.Calendar, Geo: c.Geo}})
		}
		return out, note, nil
	case LevelText, LevelVector:
		s := b.Text
		if level == LevelText && req.Across && b.Across != nil {
			s = b.Across
		}
		if level == LevelVector {
			if s = b.Vector; s == nil {
				return nil, b.VectorWhy, errSkip
			}
		}
		if s == nil {
			why := "no text search"
			if b.TextWhy != "" {
				why = b.TextWhy
			}
			return nil, why, errSkip
		}
		var out []Item
		var notes []string
		kept := map[string]bool{}
		if rf, ok := b.Text.(RelearnFinder); ok && level == LevelText {
			// A relearned answer first, found by the question's meaning.
			rh, err := rf.Relearned(ctx, req.Query, req.Limit)
			if err != nil {
				notes = append(notes, "the relearned answers were not searched: "+err.Error())
			}
			for _, h := range rh {
				kept[h.Fact()] = true
				out = append(out, Item{Fact: h.Fact(), Text: h.Text, Object: h.Object, Cite: h.Cite(), Scope: h.Scope, Score: h.Score, whole: h.section})
			}
			if len(rh) > 0 {
				notes = append(notes, fmt.Sprintf("%d relearned answer(s) found by the question's meaning (search's coverage of its informative weight, at least %.0f%%)", len(rh), RelearnCover*100))
			}
		}
		hits, err := s.Search(ctx, req.Query, req.Limit*4)
		if err != nil {
			return nil, "", err
		}
		below, min := 0, MinCoverage
		if level == LevelVector {
			min = b.VectorMin
		}
		for _, h := range hits {
			if kept[h.Fact()] {
				continue
			}
			if h.Score < min {
				below++
				continue
			}
			out = append(out, Item{Fact: h.Fact(), Text: h.Text, Object: h.Object, Cite: h.Cite(), Scope: h.Scope, Score: h.Score, Project: h.Project, whole: h.section})
		}
		if below > 0 {
			n := fmt.Sprintf("%d weaker passages held under %.0f%% of the question's informative weight and do not count", below, min*100)
			if level == LevelVector {
				n = fmt.Sprintf("%d passages were less similar than %.2f and do not count", below, min)
			}
			notes = append(notes, n)
		}
		return out, strings.Join(notes, "; "), nil
	case LevelGraph:
		return b.graphLevel(ctx, req)
	case LevelResearch:
		if b.Nested {
			return nil, "nested call (CEREBRO_NESTED): level 5 never runs inside level 5", errSkip
		}
		if b.Research == nil {
			why := "no claude command configured"
			if b.ResearchWhy != "" {
				why = b.ResearchWhy
			}
			return nil, why, errSkip
		}
		items, note, steps, err := b.research(ctx, req, asked)
		*walk = steps
		return items, note, err
	}
	return nil, "", errSkip
}
