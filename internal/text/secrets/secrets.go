// Package secrets finds secrets (API keys, tokens, private keys, passwords,
// connection strings, high-entropy values in key-like context) and personal
// data (e-mail addresses, phone numbers, card numbers, Russian passport, INN
// and SNILS numbers) in text, so that nothing of the kind reaches a
// shareable place such as the org vault.
//
// Call [Scan] on a text to get its [Finding]s, each with a kind, a place and
// a redacted [Finding.Preview] that is safe to print or log: the secret
// itself never leaves the text. [Redact] replaces the findings with markers
// like "[REDACTED:aws-access-key]".
//
// Detectors prefer silence on placeholders and documentation examples
// ("password=changeme", "<your-key>", "AKIA...EXAMPLE", user@example.com):
// a finding is meant to be acted upon.
package secrets

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Category tells secrets from personal data.
type Category string

// The two categories of finding.
const (
	Secret Category = "secret"
	PII    Category = "pii"
)

// Finding is one secret or piece of personal data found in a text.
type Finding struct {
	Kind    string `json:"kind"`    // e.g. "aws-access-key", "email", "inn"
	Line    int    `json:"line"`    // 1-based line of Start
	Col     int    `json:"col"`     // 1-based column of Start, in characters
	Start   int    `json:"start"`   // byte offset of the sensitive value
	End     int    `json:"end"`     // byte offset just past it
	Preview string `json:"preview"` // redacted, safe to print
}

// Category reports whether the finding is a secret or personal data.
func (f Finding) Category() Category {
	for _, d := range detectors {
		if d.kind == f.Kind {
			return d.cat
		}
	}
	return Secret
}

// String is the finding as a person reads it: "line 3:7 email m…[redacted 15 chars]".
func (f Finding) String() string {
	return fmt.Sprintf("line %d:%d %s %s", f.Line, f.Col, f.Kind, f.Preview)
}

// match is a raw detector hit: the sensitive span inside the text.
type match struct{ start, end int }

type detector struct {
	kind string
	cat  Category
	// need lists lower-case strings of which the text must hold one for
	// the detector to run at all: a cheap filter before the regexps.
	need []string
	find func(text string) []match
}

// Scan finds every secret and piece of personal data in text, in order of
// position. Overlapping hits keep the more specific detector's.
func Scan(text string) []Finding {
	var hits []hit
	lower := foldLower(text)
	for prio, d := range detectors {
		if d.need != nil && !containsAny(lower, d.need) {
			continue
		}
		for _, m := range d.find(text) {
			if m.end > m.start {
				hits = append(hits, hit{m, prio, d.kind})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].prio != hits[j].prio {
			return hits[i].prio < hits[j].prio
		}
		return hits[i].start < hits[j].start
	})
	// A hit is kept unless it overlaps one kept before it (a more specific
	// detector's, or an earlier one of its own). The kept hits are disjoint
	// and sorted by start, so each detector's hits are swept against them
	// once and merged in: a file of 100,000 keys once took a comparison of
	// every finding with every other (minutes for a 6 MB artifact).
	var kept []hit
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].prio == hits[i].prio {
			j++
		}
		var mine []hit
		k := 0
		for _, h := range hits[i:j] {
			for k < len(kept) && kept[k].end <= h.start {
				k++
			}
			if k < len(kept) && kept[k].start < h.end {
				continue
			}
			if n := len(mine); n > 0 && mine[n-1].end > h.start {
				continue
			}
			mine = append(mine, h)
		}
		kept = mergeByStart(kept, mine)
		i = j
	}
	out := make([]Finding, 0, len(kept))
	lines := lineStarts(text)
	for _, h := range kept {
		line := sort.Search(len(lines), func(i int) bool { return lines[i] > h.start })
		col := utf8.RuneCountInString(text[lines[line-1]:h.start]) + 1
		out = append(out, Finding{
			Kind: h.kind, Line: line, Col: col, Start: h.start, End: h.end,
			Preview: preview(text[h.start:h.end]),
		})
	}
	return out
}

// hit is a detector's match with the detector's priority (its place in
// detectors: lower is more specific) and kind.
type hit struct {
	match
	prio int
	kind string
}

// mergeByStart merges two lists of hits sorted by start.
func mergeByStart(a, b []hit) []hit {
	if len(b) == 0 {
		return a
	}
	out := make([]hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].start <= b[0].start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// preview keeps at most a quarter of the value (and never more than four
// characters) so a person can tell which value is meant without seeing it.
func preview(s string) string {
	n := utf8.RuneCountInString(s)
	keep := n / 4
	if keep > 4 {
		keep = 4
	}
	r := []rune(s)
	head := strings.Map(func(c rune) rune {
		if c == '\n' || c == '\r' || c == '\t' {
			return ' '
		}
		return c
	}, string(r[:keep]))
	return fmt.Sprintf("%s…[redacted %d chars]", head, n-keep)
}

// Marker is what [Redact] puts in place of a finding of kind.
func Marker(kind string) string { return "[REDACTED:" + kind + "]" }

// Redact replaces each finding's span in text with its [Marker]. Findings
// must come from [Scan] of the same text.
func Redact(text string, findings []Finding) string {
	fs := append([]Finding(nil), findings...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Start > fs[j].Start })
	last := len(text) + 1
	for _, f := range fs {
		if f.Start < 0 || f.End > len(text) || f.End > last || f.Start >= f.End {
			continue // overlapping or foreign span: leave the text intact there
		}
		text = text[:f.Start] + Marker(f.Kind) + text[f.End:]
		last = f.Start
	}
	return text
}

// RedactText scans text and replaces every finding with its marker, for
// writers that must never store one (the short-term flush with
// short.scan_secrets on). It returns the findings for a log line: kinds,
// places and previews only.
func RedactText(text string) (string, []Finding) {
	fs := Scan(text)
	if len(fs) == 0 {
		return text, nil
	}
	return Redact(text, fs), fs
}

// Redacted is text with every finding replaced by its marker: the guard a
// prompt passes before it leaves for a model (claude.Runner.Guard).
func Redacted(text string) string {
	out, _ := RedactText(text)
	return out
}
