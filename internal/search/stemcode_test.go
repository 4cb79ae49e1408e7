package search

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
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

// An index written by the schema before (the full-text table holding a
// copy of its columns) is made again when opened, and searches after its
// update.
func TestOldSchemaIndexIsRebuilt(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "deploy.md"), "# Deploy\n\nThe billing service ships on Fridays.\n")
	db, err := sqlitedb.Open(filepath.Join(state, deskFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`INSERT INTO meta(key, value) VALUES('schema', '7'), ('chunks', '1'), ('tokens', '3')`,
		`CREATE TABLE roots(id INTEGER PRIMARY KEY, dir TEXT NOT NULL UNIQUE, fingerprint TEXT NOT NULL)`,
		`INSERT INTO roots(id, dir, fingerprint) VALUES(1, '` + filepath.Clean(dir) + `', 'schema=7|old')`,
		`CREATE TABLE files(root INTEGER NOT NULL, path TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
			hash TEXT NOT NULL, dated INTEGER NOT NULL, PRIMARY KEY(root, path)) WITHOUT ROWID`,
		`CREATE TABLE chunks(id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path TEXT NOT NULL, start_line INTEGER NOT NULL,
			end_line INTEGER NOT NULL, text TEXT NOT NULL, tokens INTEGER NOT NULL, embedding BLOB, links REAL NOT NULL DEFAULT 0)`,
		`CREATE VIRTUAL TABLE chunks_fts USING fts5(stems, title, heads, root, tokenize='unicode61 remove_diacritics 0')`,
		`INSERT INTO chunks(id, root, path, start_line, end_line, text, tokens) VALUES(1, 1, 'gone.md', 1, 1, 'old kafka note', 3)`,
		`INSERT INTO chunks_fts(rowid, stems, title, heads, root) VALUES(1, 'old kafka note', 'gone', '', 'cerebroroot1')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	ix, err := Open(state, Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if !ix.Rebuilt {
		t.Fatal("an index of schema 7 was opened as it was")
	}
	var copies int
	if err := ix.db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'chunks_fts_content'`).Scan(&copies); err != nil || copies != 0 {
		t.Fatalf("the full-text table still keeps a copy of its columns (%d, %v)", copies, err)
	}
	if _, err := ix.Update(context.Background(), now, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Search(context.Background(), []*Index{ix}, "shipping billing", defaults())
	if err != nil || len(r.Results) != 1 || !strings.HasSuffix(r.Results[0].Path, "deploy.md") {
		t.Fatalf("search after the rebuild: %+v %v", r, err)
	}
	if r, _ := Search(context.Background(), []*Index{ix}, "kafka", defaults()); len(r.Results) != 0 {
		t.Fatalf("the old schema's chunks are still found: %v", paths(r))
	}
}
