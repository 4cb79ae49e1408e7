package search

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// FTS5 is given stems and only splits them at their spaces: every term it
// stores is one word as textan cuts it, and it stores as many in the stems
// column as the chunks count stems. Checked on the real vaults and on text
// whose words textan folds (case, ё, letters outside ASCII) before FTS5
// sees them.
func TestFTSTermsAreTheStems(t *testing.T) {
	own := t.TempDir()
	note := "# Ёлка и ЁЖИК\n\nStraße, ÉCOLE — naïve café; Ǆemal ǅemal. Ωμέγα ΣΊΣΥΦΟΣ 日本語テキスト ١٢٣ x²\nover-the-top e-mail foo_bar 3.14\n"
	if err := os.WriteFile(filepath.Join(own, "note.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := []string{own}
	for _, lang := range []string{"en", "ru"} {
		roots = append(roots, vaultDir(t, lang))
	}
	for _, dir := range roots {
		ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindOrg}, Params{})
		if _, err := ix.db.Exec(`CREATE VIRTUAL TABLE temp.cols USING fts5vocab(main, chunks_fts, 'col')`); err != nil {
			t.Fatal(err)
		}
		rows, err := ix.db.Query(`SELECT DISTINCT term FROM temp.cols`)
		if err != nil {
			t.Fatal(err)
		}
		terms := 0
		for rows.Next() {
			var term string
			if err := rows.Scan(&term); err != nil {
				t.Fatal(err)
			}
			terms++
			if ws := textan.Words(term); len(ws) != 1 || ws[0] != term {
				t.Errorf("%s: FTS5 term %q is not one folded word (textan reads %q)", dir, term, ws)
			}
		}
		rows.Close()
		var stored, counted int64
		if err := ix.db.QueryRow(`SELECT coalesce(sum(cnt), 0) FROM temp.cols WHERE col = 'stems'`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if err := ix.db.QueryRow(`SELECT coalesce(sum(tokens), 0) FROM chunks`).Scan(&counted); err != nil {
			t.Fatal(err)
		}
		if terms < 10 || stored != counted {
			t.Errorf("%s: %d distinct terms; %d terms in the stems column against %d stems counted", dir, terms, stored, counted)
		}
	}
}
