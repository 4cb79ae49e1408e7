package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// redactMessage is the commit that replaces what a remote's pages held in
// clear.
const redactMessage = "sync: redact the secrets the remote's pages held in clear"

// redactBytes bounds the files a sync scans for secrets: a note is far
// smaller, and a scan costs a few times the text in memory, so a big
// attachment must not take the sync past its memory bound.
const redactBytes = 4 << 20

// redactTaken scans the files a sync took from the remote (paths relative
// to the work tree) with the daily file's secret scan and writes back,
// committed, each that held a finding. A file gone, not text, or over
// redactBytes is left as it is.
func (r *Repo) redactTaken(paths []string, when time.Time) ([]string, error) {
	var red []string
	for _, rel := range paths {
		path := filepath.Join(r.root, filepath.FromSlash(rel))
		st, err := safefs.Lstat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() > redactBytes {
			continue
		}
		data, err := safefs.ReadFile(path, redactBytes)
		if errors.Is(err, fs.ErrNotExist) || safefs.Refused(err) {
			continue
		}
		if err != nil || !utf8.Valid(data) {
			continue
		}
		clean, found := secrets.RedactText(string(data))
		if len(found) == 0 {
			continue
		}
		// Replaced whole, keeping the file's mode: a crash mid-write must
		// not leave the note cut short in the work tree.
		if err := atomicfile.Write(path, []byte(clean), st.Mode().Perm()); err != nil {
			return nil, fmt.Errorf("redact %s: %w", rel, err)
		}
		red = append(red, rel)
	}
	if len(red) == 0 {
		return nil, nil
	}
	if _, err := r.CommitPaths(red, redactMessage, when); err != nil {
		return nil, fmt.Errorf("commit the redaction of %d files: %w", len(red), err)
	}
	return red, nil
}
