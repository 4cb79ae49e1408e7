package search

import (
	"encoding/binary"
	"errors"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// A chunk's stems are stored as edits of its words. Scoring reads back
// the stems of the few dozen candidates of a query, so they must be kept,
// but as text they weigh about as much as the chunk's own text, and
// stemming the candidates again at each query costs more than the rest of
// the query (Snowball is slow). A stem is almost always its word with an
// ending cut and sometimes another put on ("running" → "run", "happy" →
// "happi"), so a chunk stores, for each word of its text (textan.Words of
// each line, in order), how many bytes its stem cuts off the word's end
// and what it adds: one byte for most words, a tenth of the stems' size.

// stemCode appends to buf the edit taking word to stem: a uvarint of the
// bytes cut from the end, times two, plus one when an ending follows (a
// uvarint length and its bytes).
func stemCode(buf []byte, word, stem string) []byte {
	k := 0
	for k < len(word) && k < len(stem) && word[k] == stem[k] {
		k++
	}
	cut := uint64(len(word) - k)
	if k == len(stem) {
		return binary.AppendUvarint(buf, cut<<1)
	}
	buf = binary.AppendUvarint(buf, cut<<1|1)
	buf = binary.AppendUvarint(buf, uint64(len(stem)-k))
	return append(buf, stem[k:]...)
}

var errStemCode = errors.New("stored stems do not fit the chunk's words")

// chunkStems is the stems of text (a line of stems per line of text,
// joined by spaces) from the edits stemCode stored for its words.
func chunkStems(text string, code []byte) (string, error) {
	var b strings.Builder
	b.Grow(len(text))
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, w := range textan.Words(line) {
			v, n := binary.Uvarint(code)
			if n <= 0 || v>>1 > uint64(len(w)) {
				return "", errStemCode
			}
			code = code[n:]
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w[:len(w)-int(v>>1)])
			if v&1 == 1 {
				m, n := binary.Uvarint(code)
				if n <= 0 || m > uint64(len(code)-n) {
					return "", errStemCode
				}
				b.Write(code[n : n+int(m)])
				code = code[n+int(m):]
			}
		}
	}
	if len(code) != 0 {
		return "", errStemCode
	}
	return b.String(), nil
}
