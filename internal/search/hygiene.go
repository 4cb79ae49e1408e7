package search

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// Index hygiene: a note is text for people, but vaults hold more. An
// image pasted into a note is a data: URI of tens of kilobytes, a
// clipped page carries minified scripts, an attachment saved as .md is
// binary. None of it is anything a query can mean, and all of it bloats
// the index (a 1,394-note vault made a 50 MB index) and slows indexing
// (Snowball over megabytes of base64). Such runs are replaced by a mark
// without letters or digits, so the lines and their numbers stay (a
// citation still names the file's lines) and the snippet shows where
// something was left out; a binary file is not indexed at all.

// blobMark stands for what was left out: no word in it, so no stem.
const blobMark = "[…]"

// minBase64Run is a run of base64 long enough to be data, not a word
// or a hash (a SHA-512 in hex is 128 characters); a data: URI's payload
// counts from minDataPayload.
const (
	minBase64Run   = 160
	minDataPayload = 16
)

func isB64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

func isMimeChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-'
}

// isPayload is a character of a data: URI's payload, base64 or
// percent-encoded, up to what ends a Markdown link or an attribute.
func isPayload(c byte) bool {
	return isB64(c) || c == '=' || c == '%' || c == '.' || c == '_' || c == '~' || c == '-' || c == '!' || c == '$' || c == '&' || c == '*' || c == ':' || c == '@' || c == ';' || c == ','
}

// dataURIAt is the length of the data: URI starting at l[i:] ("data:"
// there), 0 when it is none or its payload is too short to be data.
// Hand-written, not a regexp: pasted images are megabytes, and the
// index reads every line of every note.
func dataURIAt(l string, i int) int {
	j := i + len("data:")
	k := j
	for k < len(l) && isMimeChar(l[k]) {
		k++
	}
	if k == j || k >= len(l) || l[k] != '/' {
		return 0
	}
	k++
	m := k
	for k < len(l) && isMimeChar(l[k]) {
		k++
	}
	if k == m {
		return 0
	}
	for k < len(l) && l[k] == ';' { // parameters, ;base64 among them
		k++
		for k < len(l) && (isMimeChar(l[k]) || l[k] == '=') {
			k++
		}
	}
	if k >= len(l) || l[k] != ',' {
		return 0
	}
	k++
	p := k
	for k < len(l) && isPayload(l[k]) {
		k++
	}
	if k-p < minDataPayload {
		return 0
	}
	return k - i
}

// blobSpans finds the data: URIs and long base64 runs of a line, in
// order, as [from, to) byte offsets.
func blobSpans(l string) [][2]int {
	var out [][2]int
	for i := 0; i < len(l); {
		if l[i] == 'd' && strings.HasPrefix(l[i:], "data:") {
			if n := dataURIAt(l, i); n > 0 {
				out = append(out, [2]int{i, i + n})
				i += n
				continue
			}
		}
		if isB64(l[i]) {
			j := i
			for j < len(l) && isB64(l[j]) {
				j++
			}
			end := j
			for end < len(l) && end-j < 2 && l[end] == '=' {
				end++
			}
			if j-i >= minBase64Run && mixedBase64(l[i:j]) {
				out = append(out, [2]int{i, end})
			}
			i = end
			if i == j {
				i++
			}
			continue
		}
		i++
	}
	return out
}

// Minified text: a long line with hardly a space and code's punctuation
// throughout. Prose has a space every 5–7 characters; a long line in a
// script without spaces (Chinese, Japanese) has little ASCII punctuation.
const (
	minifiedMinChars   = 1000
	minifiedMaxSpaces  = 0.06
	minifiedMinPunct   = 0.08
	binaryInvalidShare = 0.01
)

// Hygiene counts what one update left out of the index.
type Hygiene struct {
	Blobs       int   // data URIs, base64 runs and minified lines replaced by a mark
	BlobBytes   int64 // their size
	BinaryFiles int   // files not indexed: binary content
	CutFiles    int   // files indexed to their first MaxIndexLines lines only
}

func (h *Hygiene) add(o Hygiene) {
	h.Blobs += o.Blobs
	h.BlobBytes += o.BlobBytes
	h.BinaryFiles += o.BinaryFiles
	h.CutFiles += o.CutFiles
}

// MaxIndexLines bounds the lines of one file the index reads: each line
// costs the indexer its own few words of bookkeeping, and a note of 3
// million one-character lines (6 MB, under limits.note_bytes) once took
// it to 355 MB. A note of ordinary lines reaches limits.note_bytes well
// before this many.
const MaxIndexLines = 200_000

// isBinary reports whether data is not text: a NUL byte, or more than a
// percent of it invalid UTF-8.
func isBinary(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	if utf8.Valid(data) {
		return false
	}
	bad := 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			bad++
		}
		i += n
	}
	return float64(bad) > binaryInvalidShare*float64(len(data))
}

// cleanLine replaces the blobs of one line by the mark.
func cleanLine(l string, h *Hygiene) string {
	if len(l) < 16 {
		return l
	}
	if len(l) >= minifiedMinChars && minified(l) {
		h.Blobs++
		h.BlobBytes += int64(len(l))
		return blobMark
	}
	spans := blobSpans(l)
	if len(spans) == 0 {
		return l
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(l[last:sp[0]])
		b.WriteString(blobMark)
		h.Blobs++
		h.BlobBytes += int64(sp[1] - sp[0])
		last = sp[1]
	}
	b.WriteString(l[last:])
	return b.String()
}

// mixedBase64 tells data from a long word or path: base64 of anything
// mixes upper and lower case letters and digits.
func mixedBase64(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			dig = true
		}
	}
	return up && low && dig
}

func minified(l string) bool {
	var spaces, punct, n int
	for _, r := range l {
		n++
		switch {
		case r == ' ' || r == '\t':
			spaces++
		case strings.ContainsRune("{}()[];,=:<>\"'+*&|!?", r):
			punct++
		}
	}
	return float64(spaces) < minifiedMaxSpaces*float64(n) && float64(punct) >= minifiedMinPunct*float64(n)
}

// noteText is a note's lines as the index takes them: blobs replaced,
// and the line the body starts at after the frontmatter (0-based; 0
// without frontmatter, or when nothing but frontmatter is there: then
// it is all the text the note has).
func noteText(data []byte) (lines []string, body int, h Hygiene) {
	text := strings.TrimSuffix(string(data), "\n")
	// SplitN makes room for as many lines as it may cut, up to the text's
	// length: the lines are counted first
	lines = strings.SplitN(text, "\n", min(strings.Count(text, "\n")+1, MaxIndexLines+1))
	if len(lines) > MaxIndexLines {
		lines = lines[:MaxIndexLines]
		h.CutFiles++
	}
	for i, l := range lines {
		lines[i] = cleanLine(l, &h)
	}
	if b, err := frontmatter.Split(data); err == nil {
		body = b.BodyLine - 1
		for _, l := range lines[min(body, len(lines)):] {
			if strings.TrimSpace(l) != "" {
				return lines, body, h
			}
		}
		body = 0
	}
	return lines, body, h
}

// Footprint is what an index holds against what it was built from.
type Footprint struct {
	Bytes      int64 // the index file
	Chunks     int
	BlobChunks int // chunks still holding a data: URI or a base64 run (should be 0)
}

// Footprint measures the index: its size on disk and how many chunks
// hold embedded data that hygiene should have left out.
func (ix *Index) Footprint() (Footprint, error) {
	var f Footprint
	var pages, size int64
	if err := ix.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		return f, fmt.Errorf("measure index of %s: %w", ix.Root.Dir, err)
	}
	if err := ix.db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		return f, fmt.Errorf("measure index of %s: %w", ix.Root.Dir, err)
	}
	f.Bytes = pages * size
	rows, err := ix.db.Query(`SELECT text FROM chunks WHERE root=?`, ix.id)
	if err != nil {
		return f, fmt.Errorf("measure index of %s: %w", ix.Root.Dir, err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return f, fmt.Errorf("measure index of %s: %w", ix.Root.Dir, err)
		}
		f.Chunks++
		if len(blobSpans(t)) > 0 {
			f.BlobChunks++
		}
	}
	return f, rows.Err()
}
