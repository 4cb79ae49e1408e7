package shortterm

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/tidwall/gjson"
)

// maxSubagents bounds how many subagent transcripts one flush reads.
const maxSubagents = 64

// subagentFiles lists the subagent transcripts of the session whose
// transcript is tr, in both layouts Claude Code wrote them in:
//
//   - 2.1: <transcript without .jsonl>/subagents/agent-*.jsonl, all the
//     session's;
//   - 2.0: agent-*.jsonl beside the transcript, in the folder every
//     session of the project shares, so a file is the session's only when
//     its lines name the session (sessionID). Only files written to since
//     since are opened for that check, and files already followed
//     (offsets) are the session's without one.
//
// Claude Code 1.0 wrote subagents inline, in the main file ([transcript.Log]
// Side). The compaction agent (agent-acompact*) is skipped: its transcript
// retells the session, it did nothing.
func subagentFiles(tr, sessionID string, offsets map[string]int64, since time.Time) []string {
	if tr == "" {
		return nil
	}
	var files []string
	dir := filepath.Join(strings.TrimSuffix(tr, ".jsonl"), "subagents")
	if plainDir(filepath.Dir(dir)) && plainDir(dir) {
		// A folder that is a link may lead anywhere: not Claude Code's.
		nested, _ := filepath.Glob(filepath.Join(dir, "agent-*.jsonl"))
		files = append(files, nested...)
	}
	flat, _ := filepath.Glob(filepath.Join(filepath.Dir(tr), "agent-*.jsonl"))
	for _, f := range flat {
		if _, ok := offsets[filepath.Base(f)]; ok {
			files = append(files, f)
			continue
		}
		fi, err := os.Stat(f)
		if err != nil || !fi.Mode().IsRegular() || (!since.IsZero() && fi.ModTime().Before(since)) {
			continue
		}
		if sessionID != "" && firstSessionID(f) == sessionID {
			files = append(files, f)
		}
	}
	kept := files[:0]
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "agent-acompact") {
			kept = append(kept, f)
		}
	}
	files = kept
	if len(files) > maxSubagents {
		// The newest are where the segment's work is.
		sort.Slice(files, func(i, j int) bool { return modTime(files[i]).Before(modTime(files[j])) })
		files = files[len(files)-maxSubagents:]
	}
	return files
}

// plainDir reports whether path is a folder, not a link to one.
func plainDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// firstSessionID is the sessionId the first line of a transcript names
// ("" when it cannot be read). The line is read through the safe file
// layer and bounded: the folder is Claude Code's, but a file in it may be
// anything.
func firstSessionID(path string) string {
	f, err := safefs.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	line, err := br.ReadSlice('\n')
	if err != nil && len(line) == 0 {
		return ""
	}
	return gjson.GetBytes(line, "sessionId").Str
}

// readSubagents reads what the session's subagents did since the last
// flush: their tool calls, each paired with its result. Their own
// dialogue is not the session's.
func readSubagents(r transcript.Reader, tr, sessionID string, offsets map[string]int64, since time.Time) ([]transcript.Item, map[string]int64) {
	files := subagentFiles(tr, sessionID, offsets, since)
	if len(files) == 0 {
		return nil, offsets
	}
	next := make(map[string]int64, len(offsets)+len(files))
	for k, v := range offsets {
		next[k] = v
	}
	var out []transcript.Item
	for _, f := range files {
		name := filepath.Base(f)
		var log transcript.Log
		pos := next[name]
		for {
			part, to, err := r.ReadSidechainLog(f, pos, ReadChunk)
			log = log.Append(part)
			if err != nil || to <= pos {
				break
			}
			pos = to
		}
		out = append(out, toolsOnly(log.Items)...)
		next[name] = pos
	}
	return out, next
}

// toolsOnly keeps the tool calls of a subagent's items.
func toolsOnly(items []transcript.Item) []transcript.Item {
	var out []transcript.Item
	for _, it := range items {
		if it.Role == transcript.RoleAssistant && len(it.Tools) > 0 {
			out = append(out, transcript.Item{Role: it.Role, Tools: it.Tools, Time: it.Time, ID: it.ID})
		}
	}
	return out
}
