package importer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/tidwall/gjson"
)

// Transcript is one main session Claude Code kept:
// <projects>/<slug>/<session>.jsonl.
type Transcript struct {
	Path string
	ID   string // the session's id: the file's name without .jsonl
	Size int64
	// Mod is the file's last write: a session written to in the last
	// [Live] may still be running, and its hooks capture it.
	Mod time.Time
	// Cwd is where the session ran, as its first lines say; Start and End
	// its first and last stamps (zero when none was found).
	Cwd        string
	Start, End time.Time
}

// Skipped is a file or session left out, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Bounds of what the listing reads of each transcript: its first lines
// for the working directory and the first stamp, its last bytes for the
// last stamp. A transcript whose head holds no cwd in that much is not
// one the hooks could have placed either.
const (
	headLines = 400
	headBytes = 8 << 20
	tailBytes = 256 << 10
)

// List finds the main sessions under dir, Claude Code's projects folder,
// oldest first: <dir>/<slug>/<session>.jsonl. Subagent transcripts
// (agent-*.jsonl beside the sessions, <session>/subagents/) are their
// sessions' and read by their flushes; Claude Code's auto-memory folder is
// not a session. What is not a plain folder or a plain file (a link, a
// FIFO, a device) is passed over unopened and named in skipped, as is a
// file whose name is not a session id.
func List(dir string) (found []Transcript, skipped []Skipped, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("list Claude Code's transcripts in %s: %w", dir, err)
	}
	for _, e := range ents {
		slug := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			skipped = append(skipped, Skipped{slug, "a symbolic link, never followed"})
			continue
		}
		if !e.IsDir() {
			continue // a file beside the projects' folders: not Claude Code's
		}
		d, err := safefs.OpenDir(dir, slug, false)
		if err != nil {
			skipped = append(skipped, Skipped{slug, err.Error()})
			continue
		}
		files, err := os.ReadDir(slug)
		if err != nil {
			d.Close()
			skipped = append(skipped, Skipped{slug, err.Error()})
			continue
		}
		for _, f := range files {
			name := f.Name()
			if !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, "agent-") || strings.HasPrefix(name, ".") {
				continue
			}
			path := filepath.Join(slug, name)
			id := strings.TrimSuffix(name, ".jsonl")
			if !validID(id) {
				skipped = append(skipped, Skipped{path, "its name is not a session id"})
				continue
			}
			t, err := head(d, name) // a link or a FIFO is refused unopened
			if err != nil {
				skipped = append(skipped, Skipped{path, strings.TrimPrefix(err.Error(), path+" ")})
				continue
			}
			t.Path, t.ID = path, id
			found = append(found, t)
		}
		d.Close()
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Start.Before(found[j].Start) })
	return found, skipped, nil
}

// head reads what the listing needs of one transcript, opened in its
// folder (never through a link, never a FIFO).
func head(d *safefs.Dir, name string) (Transcript, error) {
	f, err := d.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return Transcript{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Transcript{}, err
	}
	t := Transcript{Size: fi.Size(), Mod: fi.ModTime()}
	br := bufio.NewReaderSize(io.LimitReader(f, headBytes), 64<<10)
	for n := 0; n < headLines && (t.Cwd == "" || t.Start.IsZero()); n++ {
		line, _, err := safefs.ReadLine(br, 1<<20)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return t, fmt.Errorf("read: %w", err)
		}
		if line == nil {
			continue // over a MB: an image, a tool's output
		}
		if t.Cwd == "" {
			t.Cwd = gjson.GetBytes(line, "cwd").Str
		}
		if at, ok := transcript.LineTime(line); ok && t.Start.IsZero() {
			t.Start = at
		}
	}
	t.End = lastStamp(f, fi.Size())
	if t.End.Before(t.Start) {
		t.End = t.Start
	}
	return t, nil
}

// lastStamp is the newest stamp among the last lines of a transcript.
func lastStamp(f *os.File, size int64) time.Time {
	from := max(size-tailBytes, 0)
	buf := make([]byte, size-from)
	n, _ := f.ReadAt(buf, from)
	var last time.Time
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		if at, ok := transcript.LineTime([]byte(line)); ok && at.After(last) {
			last = at
		}
	}
	return last
}

// validID accepts the names Claude Code gives sessions (UUIDs) and the
// like: letters, digits, '-', '_' and '.', never a path.
func validID(id string) bool {
	if id == "" || len(id) > 128 || id == "." || id == ".." {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
