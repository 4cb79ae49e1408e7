package search

import (
	"runtime"
	"strings"
	"time"
)

// A search across projects (scope projects and everything) searches this
// project's memory and every other project's on the desk's registry that
// shares it, and ranks the results together, each labelled with its
// project (its registry id; another project's citations read
// id:path#Lstart-Lend).
//
// Comparable scores. Each index scores BM25 from its own word statistics
// (how many of its chunks hold each word), so the same passage scores
// differently in a small index and in a large one, and a word that every
// note of one project says ("billing", in the billing service) counts for
// little there and much in the others: the project the question is about
// would lose. A search across projects therefore gives every index the
// statistics of the whole desk — its chunks and each word's, over every
// project in scope — as if all were one memory. The analyser, the field
// weights and the formulas are the same everywhere already, so one passage
// then scores the same in whichever index it lies. bench/across measured
// the alternatives (each index's own statistics; each project's scores
// over its best; reciprocal rank fusion of the projects' lists) on
// questions whose project is known; see docs/search.md.
//
// Cost. Opening and searching an index costs about what a search of one
// small project does, and a desk of 50 projects holds 150 of them, so a
// search does not open them all: the catalog (catalog.go) tells, by a few
// stats and one query, that another project's memory has not changed
// since its indexes were last read, what its words' statistics are, and
// how much its best passage could score for the query (from each word's
// best chunks, so that words meeting in no chunk are not added up). The
// other projects' indexes are then searched best bound first, each alone
// (a project's wiki is not opened when only its daily notes can reach the
// results), a few at a time (at most GOMAXPROCS), each with a bounded
// candidate pool, until no index left can score above the results
// already found, or the budget ends; the answer says how many projects
// and indexes were searched, how many projects could not reach the
// results, and which were not reached in time.

// Project is one of the desk's other projects as a search across projects
// reads it: its memory roots, and the index settings its own searches
// keep its indexes with (any other settings would rebuild them).
type Project struct {
	ID     string // its registry id: the label of its results
	Name   string
	Root   string
	Roots  []Root
	Params Params
}

// Skipped is a registered project a search across projects left out.
type Skipped struct {
	Project string `json:"project"`
	Reason  string `json:"reason"`
}

// Desk is the desk's other projects, searched with a [Memory]'s own.
type Desk struct {
	// ID labels this project's own results.
	ID string
	// Others are searched in this order when their scores tie; this
	// project's results come first on a tie.
	Others []Project
	// Skipped are registered projects left out, named in every answer.
	Skipped []Skipped
	// OptedOut counts the registered projects that keep their memory to
	// themselves (share_across_projects = false): counted, never named.
	OptedOut int
	// Budget bounds the search of the other projects, catching their
	// indexes up included; 0 means [DefaultDeskBudget]. This project's
	// memory is searched whatever it says.
	Budget time.Duration
	// Workers bounds the projects searched at once; 0 means GOMAXPROCS.
	Workers int
	// Exhaustive searches every project with a word of the query, bound
	// or not, each index as a pruned search would (tests and benchmarks
	// compare).
	Exhaustive bool
}

// DefaultDeskBudget bounds the other projects' part of a search.
const DefaultDeskBudget = 2 * time.Second

// AcrossReport is what a search across projects covered.
type AcrossReport struct {
	// Self is this project's id, which its own results carry.
	Self string `json:"self"`
	// Projects is how many projects were in scope, this one included.
	Projects int `json:"projects"`
	// Searched is how many of them were searched.
	Searched int `json:"searched"`
	// Indexes is how many of the other projects' indexes were searched:
	// each alone, only those whose results could still count.
	Indexes int `json:"indexes_searched"`
	// FromLists is how many of those were searched from the catalog's
	// candidates rather than by FTS5 (benchmarks print it).
	FromLists int `json:"-"`
	// RuledOut is how many could not score above the results found (or
	// hold none of the query's words), so their indexes were not opened.
	RuledOut int `json:"ruled_out"`
	// NotReached names the projects the budget ran out before; their
	// results may be missing.
	NotReached []string `json:"not_reached,omitempty"`
	// Skipped names the registered projects left out, and why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// OptedOut counts the registered projects that share no memory.
	OptedOut int `json:"opted_out,omitempty"`
}

func (d *Desk) budget() time.Duration {
	if d.Budget > 0 {
		return d.Budget
	}
	return DefaultDeskBudget
}

func (d *Desk) workers() int {
	if d.Workers > 0 {
		return d.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// split reads a path of another project's memory, id:path as its
// results print it: that project and the path in it. This project's own
// id is taken off too (p is nil then). ok is false for a plain path.
func (d *Desk) split(path string) (p *Project, rest string, ok bool) {
	if d == nil {
		return nil, "", false
	}
	id, rest, found := strings.Cut(path, ":")
	if !found || id == "" {
		return nil, "", false
	}
	if id == d.ID {
		return nil, rest, true
	}
	for i := range d.Others {
		if d.Others[i].ID == id {
			return &d.Others[i], rest, true
		}
	}
	return nil, "", false
}

// get reads lines of a memory file of this project, as [Memory.Get] does
// its own; the path it answers with carries the project's id.
func (p *Project) get(path string, from, lines int) (Got, error) {
	abs, err := Resolve(p.Roots, p.Root, path)
	if err != nil {
		return Got{}, err
	}
	text, err := ReadLines(abs, from, lines, p.Params.NoteBytes)
	if err != nil {
		return Got{}, err
	}
	return Got{Text: text, Path: p.ID + ":" + DisplayPath(abs, p.Root)}, nil
}
