package search

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Memory is one project's searchable memory as a caller sees it: the
// roots in scope, where their indexes live, how they are chunked and how a
// search ranks. `memhook search`, `memhook get` and the MCP server's
// memory_search and memory_get all go through it, so a tool and a command
// answer alike.
//
//	m := &search.Memory{Base: root, Roots: search.Roots(...), IndexDir: ..., Params: ..., Options: ...}
//	resp, err := m.Query(ctx, "deploy", 10, now, nil)
//	got, err := m.Get("daily/2026-11-29.md", 1, 0)
type Memory struct {
	// Base is the project root: result paths under it are relative.
	Base     string
	Roots    []Root
	IndexDir string // the state dir's index folder
	Params   Params
	// Options are the ranking settings; Query sets Limit, Now and Base.
	Options Options
	// UpdateBudget bounds catching an index up before a search: past it
	// the search reads what is indexed and a note says so.
	UpdateBudget time.Duration
	// Desk, when set, is the desk's other projects, searched with this
	// one (scope projects and everything; see [Desk]).
	Desk *Desk
}

// Existing keeps the roots that exist on disk: only those have an index.
func (m *Memory) Existing() []Root {
	var out []Root
	for _, r := range m.Roots {
		if fi, err := os.Stat(r.Dir); err == nil && fi.IsDir() {
			out = append(out, r)
		}
	}
	return out
}

// Query catches each index up within UpdateBudget (cheaply, see
// [Index.Refresh]) and searches them together, kept to the files dated in
// within when it is set (see [Options.Within]). The notes say what made
// the answer less than complete: an index still behind, chunks whose
// embedding failed.
func (m *Memory) Query(ctx context.Context, query string, limit int, now time.Time, within *DayRange) (*Response, error) {
	if m.Desk != nil {
		return m.queryDesk(ctx, query, limit, now, within)
	}
	idxs, notes, err := m.open(ctx, now)
	defer closeIndexes(idxs)
	if err != nil {
		return nil, err
	}
	o := m.Options
	o.Limit, o.Now, o.Base, o.Within = limit, now, m.Base, within
	resp, err := Search(ctx, idxs, query, o)
	if err != nil {
		return nil, err
	}
	resp.Notes = append(notes, resp.Notes...)
	return resp, nil
}

// open opens the index of each existing root and catches it up within
// UpdateBudget; the notes say which is behind. The indexes opened are
// returned with an error too, for the caller to close.
func (m *Memory) open(ctx context.Context, now time.Time) ([]*Index, []string, error) {
	uctx, cancel := context.WithTimeout(ctx, m.UpdateBudget)
	defer cancel()
	var idxs []*Index
	var notes []string
	for _, r := range m.Existing() {
		ix, err := Open(m.IndexDir, r, m.Params)
		if err != nil {
			return idxs, nil, err
		}
		idxs = append(idxs, ix)
		st, err := ix.Refresh(uctx, now)
		if err != nil {
			return idxs, nil, err
		}
		if st.EmbedErr != nil && uctx.Err() == nil {
			notes = append(notes, fmt.Sprintf("embedding the chunks of %s failed, they are searched by text: %v",
				DisplayPath(r.Dir, m.Base), st.EmbedErr))
		}
		if !st.Complete {
			notes = append(notes, fmt.Sprintf("index of %s is behind (%d files not yet read within %s); searched what is indexed — run memhook index",
				DisplayPath(r.Dir, m.Base), st.Pending, m.UpdateBudget))
		}
	}
	return idxs, notes, nil
}

func closeIndexes(idxs []*Index) {
	for _, ix := range idxs {
		ix.Close()
	}
}

// Got is a read of a memory file: its text (or some of its lines) and its
// path as search prints it.
type Got struct {
	Text string `json:"text"`
	Path string `json:"path"`
}

// Get reads lines [from, from+lines) of a memory file (lines 0: to the
// end). A path outside the roots is refused with an [*OutsideError]; a
// memory file that does not exist yet reads as empty text.
func (m *Memory) Get(path string, from, lines int) (Got, error) {
	if p, rest, ok := m.Desk.split(path); ok {
		if p != nil {
			return p.get(rest, from, lines)
		}
		path = rest
	}
	abs, err := Resolve(m.Roots, m.Base, path)
	if err != nil {
		return Got{}, err
	}
	text, err := ReadLines(abs, from, lines, m.Params.NoteBytes)
	if err != nil {
		return Got{}, err
	}
	return Got{Text: text, Path: DisplayPath(abs, m.Base)}, nil
}
