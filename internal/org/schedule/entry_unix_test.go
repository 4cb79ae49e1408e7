//go:build unix

package schedule

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An entry's file is read as its install wrote it: a FIFO in its place is
// refused at once (doctor and status must not hang on it), and a file far
// larger than any entry we write is not read at all.
func TestEntryTimeRefusesWhatItDidNotWrite(t *testing.T) {
	home := t.TempDir()
	tg := target(Systemd, home)
	_, timer := systemdPaths(tg)
	if err := os.MkdirAll(filepath.Dir(timer), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(timer, []byte(systemdTimer(tg)), 0o644); err != nil {
		t.Fatal(err)
	}
	if when, where, ok := EntryTime(tg); !ok || when != "07:05" || where != timer {
		t.Fatalf("EntryTime of a written timer = %q %q %v", when, where, ok)
	}

	big := []byte(systemdTimer(tg) + strings.Repeat("#\n", entryLimit))
	if err := os.WriteFile(timer, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := EntryTime(tg); ok {
		t.Error("a timer file over the entry bound was read")
	}

	os.Remove(timer)
	if err := syscall.Mkfifo(timer, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { _, _, ok := EntryTime(tg); done <- ok }()
	select {
	case ok := <-done:
		if ok {
			t.Error("a FIFO in place of the timer was read as an entry")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("EntryTime blocked on a FIFO in place of the timer")
	}
	if st := (&Executor{}).Status(tg); st.Installed {
		t.Errorf("status of a FIFO in place of the timer = %+v", st)
	}
}
