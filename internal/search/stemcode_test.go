package search

import (
	"errors"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The stems a search reads back are rebuilt from the chunk's words and
// the stored edits: they must be exactly what stemming the text gives,
// endings changed, irregular forms and Cyrillic included.
func TestStemCodeGivesTheStemsBack(t *testing.T) {
	text := "# Ran the Migrations\n\nThe skies were happy; we ran 3 jobs (v1.2, a828e60).\n\n" +
		"Мигрировали базу данных — ёлки, ударе́ние.\nI was going, they went, children's geese.\n  \n"
	var code []byte
	var want []string
	for _, line := range strings.Split(text, "\n") {
		words := textan.Words(line)
		stems := make([]string, len(words))
		for i, w := range words {
			stems[i] = textan.Stem(w)
			code = stemCode(code, w, stems[i])
		}
		want = append(want, strings.Join(stems, " "))
	}
	got, err := chunkStems(text, code)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.Join(want, "\n") {
		t.Fatalf("stems from the edits:\n%q\nwant\n%q", got, strings.Join(want, "\n"))
	}
	if len(code) > len(got)/3 {
		t.Fatalf("the edits take %d bytes for %d bytes of stems", len(code), len(got))
	}
	// edits of other text (an index the file changed under) are refused,
	// not read as wrong stems
	for _, bad := range [][]byte{code[:len(code)-1], append(append([]byte(nil), code...), 0), {0x7f}} {
		if _, err := chunkStems(text, bad); !errors.Is(err, errStemCode) {
			t.Fatalf("edits %x: err %v, want errStemCode", bad, err)
		}
	}
}
