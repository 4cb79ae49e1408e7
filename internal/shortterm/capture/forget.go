package capture

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ForgetFlushed takes the flushed part of the journal out of the state
// dir once its section is durably in the daily file: the journal holds
// prompts and replies as the hooks received them, secrets included, and
// must not keep them after their segment is saved (and redacted) in
// memory. It runs under the session lock after a flush committed.
//
// A journal flushed to its end is removed, then the cursors are reset and
// saved durably; killed in between, the state still points past the end
// of a journal that is gone, which [Session.Reconcile] reads as empty. A
// journal with unflushed lines after the cursor keeps its length: the
// flushed lines are overwritten with blanks in place (blank lines parse as
// nothing), so no offset moves and a kill mid-way leaves only blanks and
// flushed lines before the cursor, which nothing reads again. Resetting the
// cursors bumps JournalGen, which a flusher's commit compares, so a flush
// that read the journal before the reset never writes its segment again.
//
// crash, when set, is called after the journal is changed and before the
// state is saved (tests kill the process there).
func (x *Session) ForgetFlushed(crash func(point string)) error {
	if crash == nil {
		crash = func(string) {}
	}
	return atomicfile.WithLockTimeout(x.StatePath(), LockTimeout, func() error {
		st, err := x.Load()
		if err != nil {
			return err
		}
		if st.Intent != nil || st.JournalOffset == 0 {
			return nil // a section write to settle first, or nothing flushed
		}
		fi, err := os.Stat(x.JournalPath())
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Removed by a run killed before it saved the reset.
			st.JournalOffset, st.JournalSize, st.JournalBlank = 0, 0, 0
			st.JournalGen++
			return x.Save(st)
		case err != nil:
			return fmt.Errorf("stat journal: %w", err)
		case fi.Size() < st.JournalOffset:
			return nil // cut behind the cursor: Reconcile starts it over
		case fi.Size() == st.JournalOffset:
			if err := safefs.Remove(x.JournalPath()); err != nil {
				return fmt.Errorf("remove flushed journal: %w", err)
			}
			crash("after-forget")
			st.JournalOffset, st.JournalSize, st.JournalBlank = 0, 0, 0
			st.JournalGen++
			return x.Save(st)
		}
		if st.JournalBlank >= st.JournalOffset {
			return nil
		}
		if err := blankRange(x.JournalPath(), st.JournalBlank, st.JournalOffset); err != nil {
			return err
		}
		crash("after-forget")
		st.JournalBlank = st.JournalOffset
		return x.SaveFast(st)
	})
}

// blankRange overwrites every byte of [from, to) but line ends with a
// space, and syncs the file.
func blankRange(path string, from, to int64) error {
	f, err := safefs.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("blank flushed journal: %w", err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for pos := from; pos < to; {
		n := int(min(int64(len(buf)), to-pos))
		if _, err := f.ReadAt(buf[:n], pos); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("blank flushed journal: %w", err)
		}
		for i := 0; i < n; i++ {
			if buf[i] != '\n' {
				buf[i] = ' '
			}
		}
		if _, err := f.WriteAt(buf[:n], pos); err != nil {
			return fmt.Errorf("blank flushed journal: %w", err)
		}
		pos += int64(n)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("blank flushed journal: %w", err)
	}
	return nil
}

// Rewind takes st back to the session's last flush, under the session
// lock its caller holds: the journal lines captured since are cut and the
// segment's counters cleared, so that replaying the session's events from
// the flushed cursor captures each of them once. `memhook import` rewinds
// a session it was killed in the middle of. The final message the last
// flush carried is remembered as counted, as the Stop that carried it left
// it.
func (x *Session) Rewind(st *State) error {
	if err := safefs.Truncate(x.JournalPath(), st.JournalOffset); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rewind journal: %w", err)
	}
	st.JournalSize = st.JournalOffset
	st.SegReplies, st.SegChars, st.SegStart = 0, 0, time.Time{}
	st.Scan, st.LastID, st.LagKey = st.Offset, "", ""
	if n := len(st.Carried); n > 0 {
		st.LagKey = st.Carried[n-1].Key
	}
	st.Parked, st.Ended = false, false
	return nil
}
