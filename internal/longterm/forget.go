package longterm

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ForgetRoot is the long-term memory as `memhook forget` acts in it:
// under the memory's lock, its structure (CORE, SCHEMA, index, log,
// plan-fact) never forgotten whole.
func (s *Store) ForgetRoot() forget.Root {
	return forget.Root{Dir: s.Dir, Lock: func(_ string, fn func() error) error { return s.WithLock(fn) },
		Keep: []string{CoreFile, SchemaFile, IndexFile, LogFile, planfact.FileName}}
}

// RecordForget records a removal from the long-term memory: log.md names
// it (what: the file, never the heading, which may be the very words taken
// back), and with a history of its own (mode: long.git) it is committed,
// the commit holding only these files and .trash/ kept out of the history
// (it would keep what was forgotten). It returns the commit, or a note
// saying why there is none; logErr is a log.md that could not be written.
func (s *Store) RecordForget(mode string, res *forget.Result, what string, now time.Time) (hash, note string, logErr error) {
	logErr = s.Log(now, "forget", what+" → "+res.Trash)
	h, err := s.History(mode, now)
	if err != nil {
		return "", fmt.Sprintf("not committed: %v", err), logErr
	}
	if !h.Versioned() {
		return "", h.Note, logErr
	}
	paths := []string{s.Path(res.File), s.Path(LogFile)}
	ignore := s.Path(".gitignore")
	if added, err := ignoreTrash(ignore); err != nil {
		return "", fmt.Sprintf("not committed: %v", err), logErr
	} else if added {
		paths = append(paths, ignore)
	}
	hash, err = h.Repo.CommitPaths(paths, "memhook forget: "+what, now)
	if errors.Is(err, gitrepo.ErrNothingToCommit) {
		return "", "nothing to commit: the file was not in the history", logErr
	}
	if err != nil {
		return "", fmt.Sprintf("not committed: %v (`memhook night` commits it later)", err), logErr
	}
	return hash, "", logErr
}

// ignoreTrash makes sure the memory's .gitignore keeps .trash/ out.
func ignoreTrash(p string) (bool, error) {
	data, err := safefs.ReadFile(p, 1<<20)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path.Base(p), err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(line); t == forget.TrashDir+"/" || t == forget.TrashDir || t == "/"+forget.TrashDir+"/" {
			return false, nil
		}
	}
	text := string(data)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "# written by memhook forget: what was forgotten stays out of the history\n" + forget.TrashDir + "/\n"
	if err := atomicfile.Write(p, []byte(text), 0o644); err != nil {
		return false, fmt.Errorf("write %s: %w", path.Base(p), err)
	}
	return true, nil
}
