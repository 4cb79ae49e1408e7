package search

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
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

var (
	// a data: URI, base64 or not, longer than a short inline icon name
	dataURI = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`data:[A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+(?:;[A-Za-z0-9=.+-]+)*(?:;base64)?,[A-Za-z0-9+/=%._~!$&'*:@-]{16,}`)
	})
	// a run of base64 long enough to be data, not a word or a hash
	// (a SHA-512 in hex is 128 characters)
	base64Run = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9+/]{160,}={0,2}`) })
)

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
}

func (h *Hygiene) add(o Hygiene) {
	h.Blobs += o.Blobs
	h.BlobBytes += o.BlobBytes
	h.BinaryFiles += o.BinaryFiles
}

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
	if strings.Contains(l, "data:") {
		l = dataURI().ReplaceAllStringFunc(l, func(m string) string {
			h.Blobs++
			h.BlobBytes += int64(len(m))
			return blobMark
		})
	}
	if len(l) >= 160 {
		l = base64Run().ReplaceAllStringFunc(l, func(m string) string {
			if !mixedBase64(m) {
				return m
			}
			h.Blobs++
			h.BlobBytes += int64(len(m))
			return blobMark
		})
	}
	return l
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
	lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
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
	rows, err := ix.db.Query(`SELECT text FROM chunks`)
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
		if dataURI().MatchString(t) {
			f.BlobChunks++
			continue
		}
		for _, m := range base64Run().FindAllString(t, -1) {
			if mixedBase64(m) {
				f.BlobChunks++
				break
			}
		}
	}
	return f, rows.Err()
}
