// Package blackbox is memory seen from outside: two verbs, remember and
// recall, taking text plus parameters and answering one object written for
// the model that asked. Recall climbs a ladder ordered by price — 1 tables,
// 2 memory text, 3 knowledge graph, 4 vector, 5 bounded research — and
// stops at the first level that answers; the answer says how deep it went,
// of which kind it is, what each store returned, and what became of every
// parameter sent. A level 4–5 answer is relearned before it returns, so
// the next recall of it is cheap; a question asking for a breakdown over
// table rows is answered at level 1 by a Markdown object memhook computes.
// Deny withholds a rejected inference — by its claim, whatever the words —
// without deleting anything. Remember shapes phrases it can read whole
// into tables of its own choosing.
//
//	box := &blackbox.Box{LongDir: ..., Tables: store, Text: &blackbox.Indexed{Memory: m, Now: time.Now}}
//	req, fates, err := blackbox.ParseRecall(raw, box.Caps())
//	ans, err := box.Recall(ctx, req, fates, now)
package blackbox

import (
	"context"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/objects"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// Researcher makes level 5's model calls; the walk between them (graph,
// vectors, rephrasings, text search) is the box's own.
type Researcher interface {
	// Call runs one model call with the prompt and returns its output; read
	// lets the call read the project (the answering call), otherwise it
	// gets no tool at all (the rephrasing call). It stops at ctx's end.
	Call(ctx context.Context, prompt string, read bool) (string, error)
}

// Box is one project's memory behind the two verbs.
type Box struct {
	Root    string // project root: hit paths are relative to it
	LongDir string // <project>/.claude/memory_long
	Tables  *tables.Store
	Text    TextSearcher // level 2; nil when it cannot be set up, with TextWhy saying why
	TextWhy string
	// Across is level 2 over this project's memory and the desk's other
	// projects', asked for with scope "projects" (never a default); nil
	// when not wired, with AcrossWhy saying why.
	Across    TextSearcher
	AcrossWhy string
	// AcrossGraphs lists the other projects' knowledge graphs that level
	// 3 reads too when asked with scope "projects" (never a default); nil
	// when not wired.
	AcrossGraphs GraphLister
	// Vector is level 4; nil when no embedding provider is configured or
	// wired, with VectorWhy saying which.
	Vector    TextSearcher
	VectorWhy string
	// VectorMin is the similarity a level-4 hit needs to count as an answer.
	VectorMin float64
	// Research is level 5; nil when there is no claude command or the
	// day's model calls are spent, with ResearchWhy saying which ("" is
	// the first).
	Research        Researcher
	ResearchWhy     string
	ResearchCalls   int
	ResearchSeconds int
	// Namer makes the one model call that names a table a remember asks
	// for; nil when there is no claude command, the call is nested or the
	// day's budget is spent, with NamerWhy saying which. Without it the
	// asked name is transliterated.
	Namer    Researcher
	NamerWhy string
	// Nested is true inside another recall's level-5 research: the ladder
	// then never climbs to 5, so research cannot recurse.
	Nested bool
	// Guard, when set, is the secret guard a recall's answer passes (see
	// [Recall]): set when the reader is cerebro's own model call (the
	// research walk's answering call runs `memhook recall` as its only way
	// to read memory), whose output goes to the model past the guard its
	// prompt passed. The person's own session reads what its own tools
	// may read anyway.
	Guard func(string) string
	// OffersPath caches recently offered inferences for deny (plugin state).
	OffersPath string
	// ThreadsDir keeps the histories of research cycles (plugin state);
	// empty, a thread parameter is not_supported.
	ThreadsDir string
	// Chronicle, when set, records each change in the long-term memory's
	// chronology (log.md); a failure there never undoes the change.
	Chronicle func(now time.Time, action, details string) error
	// NoteBytes bounds the reads of the project's notes: its
	// limits.note_bytes (0: safefs.DefaultNoteBytes).
	NoteBytes int64
}

func (b *Box) chronicle(now time.Time, action, details string) {
	if b.Chronicle != nil {
		_ = b.Chronicle(now, action, details)
	}
}

// Caps reports what this box can do, for the parameters' notes.
func (b *Box) Caps() Caps {
	return Caps{Vector: b.Vector != nil, VectorWhy: b.VectorWhy, Research: b.Research != nil, ResearchWhy: b.ResearchWhy,
		ResearchCalls: b.ResearchCalls, ResearchSeconds: b.ResearchSeconds, Nested: b.Nested,
		Across: b.Across != nil, AcrossWhy: b.AcrossWhy}
}

// Objects is the box's object store.
func (b *Box) Objects() objects.Store {
	return objects.Store{Dir: filepath.Join(b.LongDir, filepath.FromSlash(ObjectsDir))}
}

var _ Researcher = ClaudeResearch{}
