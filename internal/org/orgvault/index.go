package orgvault

import (
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// addToIndex lists a page in index.md under its type's section (creating
// the section when a person removed it). A page already listed is left.
func (v *Vault) addToIndex(rel string, t PageType, note string) error {
	data, err := safefs.ReadNote(v.abs(IndexFile), v.NoteBytes)
	if err != nil {
		return fmt.Errorf("read %s: %w", IndexFile, err)
	}
	text := string(data)
	link := pageLink(rel)
	for _, l := range wiki.ParseLinks(text, 1) {
		if strings.EqualFold(strings.TrimSuffix(l.Target, ".md"), link) {
			return nil
		}
	}
	entry := fmt.Sprintf("- [[%s]] — %s\n", link, note)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	lines := strings.SplitAfter(text, "\n")
	lines = lines[:len(lines)-1] // SplitAfter leaves "" after the last newline
	at := -1
	for i, ln := range lines {
		if !strings.HasPrefix(ln, "## ") || !(strings.Contains(ln, "("+t.Name+")") || strings.TrimSpace(ln[3:]) == t.Plural) {
			continue
		}
		last := -1
		for j := i + 1; j < len(lines) && !strings.HasPrefix(lines[j], "#"); j++ {
			if strings.TrimSpace(lines[j]) != "" {
				last = j
			}
		}
		if last >= 0 {
			at = last + 1
			break
		}
		// An empty section: a blank line, the entry, and a blank line
		// before the next heading.
		at = i + 1
		for at < len(lines) && strings.TrimSpace(lines[at]) == "" {
			at++
		}
		entry = "\n" + entry
		if at < len(lines) {
			entry += "\n"
		}
		lines = append(lines[:i+1], lines[at:]...)
		at = i + 1
		break
	}
	if at < 0 {
		text += fmt.Sprintf("\n## %s (%s)\n\n%s", t.Plural, t.Name, entry)
	} else {
		lines = append(lines[:at], append([]string{entry}, lines[at:]...)...)
		text = strings.Join(lines, "")
	}
	return atomicfile.Write(v.abs(IndexFile), []byte(text), 0o644)
}

// removeFromIndex drops the index lines linking the page.
func (v *Vault) removeFromIndex(vault *wiki.Vault, rel string) (bool, error) {
	data, err := safefs.ReadNote(v.abs(IndexFile), v.NoteBytes)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", IndexFile, err)
	}
	var out []string
	removed := false
	for i, ln := range strings.SplitAfter(string(data), "\n") {
		drop := false
		for _, l := range wiki.ParseLinks(ln, i+1) {
			if p := vault.Resolve(l.Target, IndexFile); p != nil && p.Path == rel {
				drop = true
			}
		}
		if drop {
			removed = true
			continue
		}
		out = append(out, ln)
	}
	if !removed {
		return false, nil
	}
	return true, atomicfile.Write(v.abs(IndexFile), []byte(strings.Join(out, "")), 0o644)
}
