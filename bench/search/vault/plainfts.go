package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/sqlitedb"
)

// plainFTS loads the notes of dir as they are into a plain FTS5 table,
// one row a note (the unicode61 tokenizer, positions kept), in one
// transaction: what a script indexing the same files costs, the baseline
// of the cold index's time and size. It prints both against cerebro's.
func plainFTS(work, dir string, cold time.Duration, coldCPU time.Duration, indexBytes int64) error {
	wall, cpu, size, text, err := plainLoad(work, dir)
	if err != nil {
		return err
	}
	fmt.Printf("  cold index against a plain FTS5 load of the same notes: wall %s against %s (%.2fx), CPU %s against %s (%.2fx); index %.2fx the text against %.2fx\n",
		ms(cold), ms(wall), cold.Seconds()/wall.Seconds(), ms(coldCPU), ms(cpu), coldCPU.Seconds()/max(cpu.Seconds(), 1e-9),
		float64(indexBytes)/float64(text), float64(size)/float64(text))
	return nil
}

// plainLoad is the plain FTS5 load of dir: its wall and CPU time, the
// database's size and the bytes of text loaded.
func plainLoad(work, dir string) (wall, cpu time.Duration, size, text int64, err error) {
	path := filepath.Join(work, "plain-fts.sqlite")
	os.Remove(path)
	cpu0 := cpuTime()
	t0 := time.Now()
	db, err := sqlitedb.Open(path)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE notes USING fts5(path UNINDEXED, body, tokenize='unicode61 remove_diacritics 0')`); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("plain fts5: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		text += int64(len(data))
		_, err = tx.Exec(`INSERT INTO notes(path, body) VALUES(?, ?)`, p, string(data))
		return err
	})
	if err != nil {
		tx.Rollback()
		return 0, 0, 0, 0, fmt.Errorf("plain fts5: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, 0, 0, err
	}
	wall, cpu = time.Since(t0), cpuTime()-cpu0
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return 0, 0, 0, 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	return wall, cpu, fi.Size(), text, nil
}
