// Package importtest lays real transcripts out as Claude Code keeps them
// and plays a session through its hooks as it was written, for the tests
// and benchmarks of `memhook import`:
//
//	path, err := importtest.Place(fixture, projectsDir, importtest.Placement{Cwd: project})
//	err = importtest.Relive(path, liveCopy, func(st importer.Step) error { ... run st's hook ... })
package importtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/importer"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/tidwall/gjson"
)

// Slug is the folder name Claude Code gives a working directory under
// ~/.claude/projects: every '/' and '.' made '-'.
func Slug(cwd string) string {
	return strings.NewReplacer("/", "-", ".", "-").Replace(cwd)
}

// SessionID is the session a fixture transcript of ../shared/fixtures
// holds: its name's last part after "__".
func SessionID(fixture string) string {
	stem := strings.TrimSuffix(filepath.Base(fixture), ".jsonl")
	if i := strings.LastIndex(stem, "__"); i >= 0 {
		return stem[i+2:]
	}
	return stem
}

// Placement says how [Place] lays a fixture out.
type Placement struct {
	// Cwd is the working directory the session is moved to: every
	// occurrence of the one it names is replaced by it.
	Cwd string
	// ID renames the session ("" keeps SessionID's); Agents suffixes its
	// subagents' file names, so that copies of one fixture can share a
	// folder.
	ID, Agents string
	// Shift moves every timestamp.
	Shift time.Duration
}

// Place copies a fixture transcript of ../shared/fixtures, with its
// subagents' transcripts (named <stem>__subagents__agent-*.jsonl for 2.1's
// <session>/subagents/, and <prefix>__agent-*.jsonl beside it for 2.0's
// files next to the session), into projects as Claude Code keeps them:
// <projects>/<slug of the cwd>/<session>.jsonl. Each file's modification
// time is its last stamp, as Claude Code's last write left it. It returns
// the session's path.
func Place(fixture, projects string, p Placement) (string, error) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		return "", err
	}
	old := gjson.GetBytes(firstWith(data, `"cwd"`), "cwd").Str
	oldID := SessionID(fixture)
	id := p.ID
	if id == "" {
		id = oldID
	}
	cwd := p.Cwd
	if old == "" || cwd == "" {
		cwd = old
	}
	dir := filepath.Join(projects, Slug(cwd))
	if cwd == "" {
		dir = filepath.Join(projects, "-unknown") // a session that never said where it ran
	}
	edit := func(b []byte) []byte {
		if old != "" && p.Cwd != "" {
			b = bytes.ReplaceAll(b, []byte(old), []byte(p.Cwd))
		}
		if id != oldID {
			b = bytes.ReplaceAll(b, []byte(oldID), []byte(id))
		}
		if p.Shift != 0 {
			b = shiftStamps(b, p.Shift)
		}
		return b
	}
	path := filepath.Join(dir, id+".jsonl")
	if err := writeStamped(path, edit(data)); err != nil {
		return "", err
	}
	stem := strings.TrimSuffix(filepath.Base(fixture), ".jsonl")
	nested, _ := filepath.Glob(filepath.Join(filepath.Dir(fixture), stem+"__subagents__agent-*.jsonl"))
	for _, s := range nested {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(s), stem+"__subagents__"), ".jsonl") + p.Agents + ".jsonl"
		if err := copyEdited(s, filepath.Join(dir, id, "subagents", name), edit); err != nil {
			return "", err
		}
	}
	if i := strings.LastIndex(stem, "__"); i > 0 {
		flat, _ := filepath.Glob(filepath.Join(filepath.Dir(fixture), stem[:i]+"__agent-*.jsonl"))
		for _, s := range flat {
			if gjson.GetBytes(firstLine(s), "sessionId").Str != oldID {
				continue
			}
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(s), stem[:i]+"__"), ".jsonl") + p.Agents + ".jsonl"
			if err := copyEdited(s, filepath.Join(dir, name), edit); err != nil {
				return "", err
			}
		}
	}
	return path, nil
}

func copyEdited(src, dst string, edit func([]byte) []byte) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeStamped(dst, edit(data))
}

// writeStamped writes a transcript and dates it by its last stamp.
func writeStamped(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	var last time.Time
	for _, line := range bytes.Split(data, []byte("\n")) {
		if at, ok := transcript.LineTime(line); ok && at.After(last) {
			last = at
		}
	}
	if last.IsZero() {
		return nil
	}
	return os.Chtimes(path, last, last)
}

// shiftStamps moves every "timestamp" value of a transcript's lines by d.
func shiftStamps(b []byte, d time.Duration) []byte {
	const key = `"timestamp":"`
	var out bytes.Buffer
	for {
		i := bytes.Index(b, []byte(key))
		if i < 0 {
			out.Write(b)
			return out.Bytes()
		}
		out.Write(b[:i+len(key)])
		b = b[i+len(key):]
		j := bytes.IndexByte(b, '"')
		if j < 0 {
			out.Write(b)
			return out.Bytes()
		}
		if t, err := time.Parse(time.RFC3339Nano, string(b[:j])); err == nil {
			out.WriteString(t.Add(d).UTC().Format("2006-01-02T15:04:05.000Z"))
		} else {
			out.Write(b[:j])
		}
		b = b[j:]
	}
}

func firstWith(data []byte, key string) []byte {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(line, []byte(key)) && gjson.GetBytes(line, "cwd").Str != "" {
			return line
		}
	}
	return nil
}

func firstLine(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(f, 1<<20).ReadBytes('\n')
	return line
}

// Relive plays a session laid out at src through its hooks as Claude Code
// wrote it, into a copy at dst that grows meanwhile: before each step of
// [importer.Walker], dst holds the transcript's bytes written by then and
// each subagent's copy its lines stamped no later than the step (2.1's
// under <dst without .jsonl>/subagents/, 2.0's beside dst); fire runs the
// step's hook. It is the live run an import of src must equal.
func Relive(src, dst string, fire func(importer.Step) error) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := create(dst)
	if err != nil {
		return err
	}
	defer out.Close()
	subs, err := subagents(src, dst)
	defer func() {
		for _, s := range subs {
			s.out.Close()
		}
	}()
	if err != nil {
		return err
	}
	feed, err := os.Open(src)
	if err != nil {
		return err
	}
	defer feed.Close()
	written := int64(0)
	return importer.Steps(in, 0, func(st importer.Step) error {
		if _, err := io.CopyN(out, feed, st.Offset-written); err != nil {
			return fmt.Errorf("grow %s: %w", dst, err)
		}
		written = st.Offset
		for _, s := range subs {
			if err := s.upTo(st.At); err != nil {
				return err
			}
		}
		if err := fire(st); err != nil {
			return err
		}
		if st.Event == "SessionEnd" {
			_, err := io.Copy(out, feed) // an unterminated tail, never read
			return err
		}
		return nil
	})
}

// growing is a subagent's transcript written line by line as time passes.
type growing struct {
	lines [][]byte
	next  int
	out   *os.File
}

func (g *growing) upTo(at time.Time) error {
	for ; g.next < len(g.lines); g.next++ {
		if t, ok := transcript.LineTime(g.lines[g.next]); ok && t.After(at) {
			return nil
		}
		if _, err := g.out.Write(g.lines[g.next]); err != nil {
			return err
		}
	}
	return nil
}

// subagents are the subagent transcripts of the session at src, each with
// its growing copy for the session at dst.
func subagents(src, dst string) ([]*growing, error) {
	id := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	type pair struct{ from, to string }
	var pairs []pair
	nested, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(src, ".jsonl"), "subagents", "agent-*.jsonl"))
	for _, s := range nested {
		pairs = append(pairs, pair{s, filepath.Join(strings.TrimSuffix(dst, ".jsonl"), "subagents", filepath.Base(s))})
	}
	flat, _ := filepath.Glob(filepath.Join(filepath.Dir(src), "agent-*.jsonl"))
	for _, s := range flat {
		if gjson.GetBytes(firstLine(s), "sessionId").Str == id {
			pairs = append(pairs, pair{s, filepath.Join(filepath.Dir(dst), filepath.Base(s))})
		}
	}
	var out []*growing
	for _, p := range pairs {
		data, err := os.ReadFile(p.from)
		if err != nil {
			return out, err
		}
		f, err := create(p.to)
		if err != nil {
			return out, err
		}
		out = append(out, &growing{lines: bytes.SplitAfter(data, []byte("\n")), out: f})
	}
	return out, nil
}

func create(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}
