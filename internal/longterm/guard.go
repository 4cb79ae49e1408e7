package longterm

import (
	"fmt"
	"path"
	"strings"
	"time"
)

func isDate(s string) bool { _, err := time.Parse(time.DateOnly, s); return err == nil }

// The plain page writer ([Store.WritePage], `memhook wiki write`) writes
// pages, never memory: what the hooks, the night and the fact, truth and
// CORE writers keep is theirs. A plain write that would replace it is
// refused, naming the writer that changes it.

// MemoryWriteError refuses a plain write over memory.
type MemoryWriteError struct {
	Page   string
	Why    string
	Writer string // the command that writes this memory
}

func (e *MemoryWriteError) Error() string {
	return fmt.Sprintf("page write %s: refused: %s", e.Page, e.Why)
}

// Hint names the writer to use.
func (e *MemoryWriteError) Hint() string { return e.Writer }

// reservedDirs are names inside memory_long that belong to short-term
// memory: a page there would shadow the [[daily/DAY]] evidence links and
// the roll-ups every reader resolves outside the long-term folder.
var reservedDirs = []string{"daily", "rollups"}

// plainPathAllowed refuses the paths of memory's own folders.
func plainPathAllowed(rel string) error {
	lower := strings.ToLower(rel)
	for _, d := range reservedDirs {
		if strings.HasPrefix(lower, d+"/") {
			return &MemoryWriteError{Page: rel, Why: d + "/ is short-term memory's name (the hooks write the days, the night and `memhook rollup-days` the roll-ups); a page here would shadow [[" + d + "/…]] links",
				Writer: "write the page under wiki/; short-term days are written by the hooks, roll-ups by `memhook rollup-days`"}
		}
	}
	dir, base := path.Split(rel)
	if strings.EqualFold(strings.TrimSuffix(dir, "/"), PrivateDir) && strings.HasPrefix(strings.ToLower(base), "digest-") {
		if day := strings.TrimSuffix(base[len("digest-"):], path.Ext(base)); isDate(day) {
			return &MemoryWriteError{Page: rel, Why: "the night's digest of " + day + " is written by the night pass",
				Writer: "run `memhook night`; write your own compile pages under wiki/_private/ with another name"}
		}
	}
	return nil
}

// keepsMemory refuses a plain write over a card that would drop what its
// own writers keep: every dated fact line, the compiled truth and the
// archive must stay as they are. A write that keeps them (the page's
// prose edited around them) goes through.
func keepsMemory(rel string, old, text []byte) error {
	oldLines := splitLines(strings.ReplaceAll(string(old), "\r\n", "\n"))
	newText := strings.ReplaceAll(string(text), "\r\n", "\n")
	newLines := splitLines(newText)
	var lost []string
	have := map[string]bool{}
	for _, f := range Facts([]byte(newText)) {
		have[f.Line] = true
	}
	dropped := 0
	for _, f := range Facts(old) {
		if !have[f.Line] {
			dropped++
		}
	}
	if dropped > 0 {
		lost = append(lost, fmt.Sprintf("%d dated fact(s)", dropped))
	}
	for _, s := range []struct {
		names []string
		what  string
	}{{truthNames, "the compiled truth"}, {archiveNames, "the archive"}} {
		was := sectionBody(oldLines, s.names)
		if was == "" {
			continue
		}
		if sectionBody(newLines, s.names) != was {
			lost = append(lost, s.what)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	return &MemoryWriteError{Page: rel,
		Why:    "it is a card, and this text changes " + strings.Join(lost, ", ") + ": facts, truth and archive are memory",
		Writer: "keep those sections as they are and edit the rest, or use `memhook fact add` (a fact), `memhook truth set` (the compiled truth), `memhook fact merge` (two cards)"}
}

// sectionBody is the trimmed text of the first section named one of
// names, "" when there is none or it is empty.
func sectionBody(lines []string, names []string) string {
	sec, ok := findSection(lines, names)
	if !ok {
		return ""
	}
	return strings.TrimSpace(strings.Join(lines[sec.Head+1:sec.End], "\n"))
}
