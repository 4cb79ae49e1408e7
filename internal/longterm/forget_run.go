package longterm

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
)

// ForgetRequest is `memhook forget` in the project of the store: the
// forget itself, then the search index and, when the file was the long-term
// memory's, log.md and the commit.
type ForgetRequest struct {
	Roots     []forget.Root // the project's memory roots (short-term and this store's)
	Target    string        // PATH or PATH#SECTION
	Base      string        // the folder a relative PATH starts from
	Git       string        // long.git
	NoteBytes int64
	Now       time.Time
	// Reindex reads the file at rel under rootDir again in the search
	// index (or drops it): the index is a cache of the files, and the next
	// search must not return the old text.
	Reindex func(rootDir, rel string) error
	// Warn takes what failed after the text was moved: the forget stands.
	Warn func(string)
}

// ForgetReport is what `memhook forget` did.
type ForgetReport struct {
	forget.Result
	Indexed bool   `json:"dropped_from_index"`
	Commit  string `json:"commit,omitempty"`
	Note    string `json:"note,omitempty"`
	project string
}

// ForgetIn forgets what req names in the store's project.
func (s *Store) ForgetIn(req ForgetRequest) (*ForgetReport, error) {
	res, err := forget.Forget(forget.Request{Roots: req.Roots, Target: req.Target, Base: req.Base, Now: req.Now, NoteBytes: req.NoteBytes})
	if err != nil {
		return nil, err
	}
	out := &ForgetReport{Result: *res, project: s.Project}
	if err := req.Reindex(res.Root, res.File); err != nil {
		req.Warn(fmt.Sprintf("forget: %v (the next search reads the file again)", err))
	} else {
		out.Indexed = true
	}
	if res.Root == s.Dir {
		// log.md and the commit message name the file, not the heading:
		// the heading may be the very words taken back.
		logged := res.File
		if res.Section != "" {
			logged += " (one section)"
		}
		var logErr error
		out.Commit, out.Note, logErr = s.RecordForget(req.Git, res, logged, req.Now)
		if logErr != nil {
			req.Warn(fmt.Sprintf("forget: %v", logErr))
		}
	}
	return out, nil
}

// WriteText says what moved where, and what became of the index and the
// history.
func (r *ForgetReport) WriteText(w io.Writer) {
	what := r.File
	if r.Section != "" {
		what += "#" + r.Section
	}
	rootRel, _ := filepath.Rel(r.project, r.Root)
	rootRel = filepath.ToSlash(rootRel)
	fmt.Fprintf(w, "forgot %s/%s\nmoved to %s/%s (nothing is deleted: remove it there to be rid of it)\n", rootRel, what, rootRel, r.Trash)
	if r.Indexed {
		fmt.Fprintln(w, "dropped from the search index")
	}
	if r.Commit != "" {
		fmt.Fprintf(w, "committed the removal: %s (earlier commits still hold it)\n", shortHash(r.Commit))
	}
	if r.Note != "" {
		fmt.Fprintln(w, r.Note)
	}
}

// shortHash is a commit's hash as `memhook forget` shows it.
func shortHash(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}
