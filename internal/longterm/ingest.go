package longterm

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// refuse is a source memhook refuses to ingest, with what to do (h).
func refuse(file, why, h string) error { return hint.Wrap(fmt.Errorf("ingest %s: %s", file, why), h) }

// IngestResult says what [Store.Ingest] did.
type IngestResult struct {
	Raw      string // slash path of the copy, relative to the long-term root
	Page     string // the source page
	Large    bool   // copied into raw/_large/
	Document bool   // a binary document type: copied, no text body
	Already  bool   // an identical copy was already in raw/
	PageKept bool   // the source page existed and was left alone
	Bytes    int64
	Redacted int // secrets replaced by markers in the stored copy
}

// documentMagic lists the binary document types ingest accepts, by
// extension, with the bytes such a file starts with. A file whose content
// does not match its extension is refused as junk.
var documentMagic = map[string][]string{
	".pdf":  {"%PDF-"},
	".docx": {"PK\x03\x04"}, ".xlsx": {"PK\x03\x04"}, ".pptx": {"PK\x03\x04"},
	".odt": {"PK\x03\x04"}, ".ods": {"PK\x03\x04"}, ".odp": {"PK\x03\x04"}, ".epub": {"PK\x03\x04"},
	".zip": {"PK\x03\x04"},
	".doc": {"\xD0\xCF\x11\xE0"}, ".xls": {"\xD0\xCF\x11\xE0"}, ".ppt": {"\xD0\xCF\x11\xE0"},
	".png": {"\x89PNG\r\n\x1a\n"}, ".jpg": {"\xFF\xD8\xFF"}, ".jpeg": {"\xFF\xD8\xFF"},
	".gif": {"GIF87a", "GIF89a"}, ".webp": {"RIFF"},
}

// Ingest copies the named file into raw/ (raw/_large/ above largeBytes) and
// creates its source page stub in wiki/sources/, then logs the change and
// rebuilds index.md and the graph.
//
// What it refuses, and why: a symbolic link as the named file (the file
// read must be the one the user named, not wherever a link points; name
// the target itself), anything that is not a regular file (directories,
// devices, pipes), files already inside the long-term root, and junk: a
// known document type (.pdf, .docx, images...) whose bytes do not start the
// way that type does, or any other file that is not UTF-8 text or holds
// NUL bytes, and a file over maxBytes (before anything is copied). The
// refusals are [rawfile.OpenSource]'s, shared with the org vault's ingest.
// raw/ is immutable: an identical copy is reused, a different
// file with the same name gets a numbered name.
func (s *Store) Ingest(file string, largeBytes, maxBytes int64, now time.Time) (*IngestResult, error) {
	return s.IngestWith(file, IngestOptions{LargeBytes: largeBytes, MaxBytes: maxBytes, Now: now})
}

// IngestOptions tune [Store.IngestWith].
type IngestOptions struct {
	LargeBytes int64     // sources above this go to raw/_large/
	MaxBytes   int64     // a source above this is refused before copying (0: no limit)
	Redact     bool      // replace secrets with [REDACTED:kind] markers instead of refusing
	Now        time.Time // the time written into the page and the log
}

// IngestWith is [Store.Ingest] with the secret scan's choice: a source
// holding secrets or personal data is refused with a
// [*rawfile.RefusedError] unless opts.Redact is set, when the stored copy
// has each one replaced by a marker — the same scan as the org vault's
// ingest ([rawfile.ScreenText], [rawfile.ScreenBinary]).
func (s *Store) IngestWith(file string, opts IngestOptions) (*IngestResult, error) {
	largeBytes, maxBytes, now := opts.LargeBytes, opts.MaxBytes, opts.Now
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, refuse(file, err.Error(), "")
	}
	if err := s.outsideStore(abs); err != nil {
		return nil, refuse(file, err.Error(), "ingest sources from outside .claude/memory_long")
	}
	f, _, err := rawfile.OpenSource(file, maxBytes) // names file as given; opens the same abs
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := rawfile.SourceName(filepath.Base(abs))
	ext := strings.ToLower(path.Ext(name))
	res := &IngestResult{}
	check := &sourceCheck{text: true, hash: sha256.New()}
	if magic, ok := documentMagic[ext]; ok {
		head := make([]byte, 8)
		n, _ := io.ReadFull(f, head)
		if !hasAnyPrefix(head[:n], magic) {
			return nil, refuse(file, fmt.Sprintf("does not look like a %s file (its first bytes do not match)", ext), "check that the file is not damaged or misnamed")
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, refuse(file, "rewind it: "+err.Error(), "")
		}
		res.Document, check.text = true, false
	}
	// One pass: the source streams into a staging file inside the store
	// while it is hashed and checked, so it is read once, never held in
	// memory whole, and what lands in raw/ is exactly what was checked.
	staging := filepath.Join(s.Dir, stateDir, "ingest", fmt.Sprintf("%d-%d", os.Getpid(), now.UnixNano()))
	n, err := atomicfile.WriteFrom(staging, io.TeeReader(f, check), 0o644)
	if err != nil {
		safefs.Remove(staging)
		var junk *junkError
		if errors.As(err, &junk) {
			return nil, refuse(file, junk.why+"; only text files and known document types ("+documentList()+") are ingested", "convert it to text (Markdown, .txt) first")
		}
		return nil, refuse(file, "copy it: "+err.Error(), "")
	}
	if err := check.finish(); err != nil {
		safefs.Remove(staging)
		return nil, refuse(file, err.(*junkError).why+"; only text files and known document types ("+documentList()+") are ingested", "convert it to text (Markdown, .txt) first")
	}
	defer safefs.Remove(staging) // gone after the rename; left only on a failure
	sum := check.hash.Sum(nil)
	if n, sum, res.Redacted, err = screenStaged(staging, filepath.Base(abs), n, sum, !check.text, opts.Redact); err != nil {
		return nil, err
	}
	res.Bytes = n
	res.Large = rawfile.DirFor(n, largeBytes) == LargeDir
	err = s.WithLock(func() error {
		raw, already, err := s.placeRaw(name, staging, n, sum, largeBytes)
		if err != nil {
			return err
		}
		res.Raw, res.Already = raw, already
		res.Page = path.Join(SourcesDir, strings.TrimSuffix(path.Base(raw), path.Ext(raw))+".md")
		made, err := createIfMissing(s.Path(res.Page), sourceStub(raw, name, res, now))
		if err != nil {
			return err
		}
		res.PageKept = !made
		what := "copied"
		if already {
			what = "already in raw/, identical"
		}
		if res.Redacted > 0 {
			what += fmt.Sprintf(", redacted %d", res.Redacted)
		}
		if err := s.logLocked(now, "ingest", fmt.Sprintf("%s → %s (%s, %d bytes); page %s", filepath.Base(abs), raw, what, n, res.Page)); err != nil {
			return err
		}
		return s.refreshLocked()
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// screenStaged runs the secret scan on the staged copy: a binary source
// or one too large to hold is scanned by its printable runs, text is
// scanned whole and, when redacted, the staged copy is rewritten and its
// size and hash follow.
func screenStaged(staging, name string, n int64, sum []byte, binary, redact bool) (int64, []byte, int, error) {
	f, err := safefs.Open(staging)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("scan %s: %w", name, err)
	}
	defer f.Close()
	if binary || n > rawfile.MaxTextBytes {
		return n, sum, 0, rawfile.ScreenBinary(name, f, n, redact)
	}
	if !redact {
		_, err := rawfile.ScreenFile(name, f, n, false, nil)
		return n, sum, 0, err
	}
	// The redacted copy is streamed beside the staged one and hashed as it
	// is written: the source is never held whole.
	red := staging + ".redacted"
	pr, pw := io.Pipe()
	h := sha256.New()
	var count int
	go func() {
		c, err := rawfile.ScreenFile(name, f, n, true, io.MultiWriter(pw, h))
		count = c
		pw.CloseWithError(err)
	}()
	size, err := atomicfile.WriteFrom(red, pr, 0o644)
	defer safefs.Remove(red)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("redact %s: %w", name, err)
	}
	if count == 0 {
		return n, sum, 0, nil
	}
	if err := safefs.Rename(red, staging); err != nil {
		return 0, nil, 0, fmt.Errorf("redact %s: %w", name, err)
	}
	return size, h.Sum(nil), count, nil
}

// placeRaw moves the staged copy into raw/ or raw/_large/ (see
// [rawfile.Place]).
func (s *Store) placeRaw(name, staging string, size int64, sum []byte, largeBytes int64) (string, bool, error) {
	return rawfile.Place(s.Dir, name, size, sum, largeBytes, func(abs string) error {
		return safefs.Rename(staging, abs)
	})
}

// junkError is a source that is not text.
type junkError struct{ why string }

func (e *junkError) Error() string { return e.why }

// sourceCheck hashes a source as it streams by and, for text, refuses NUL
// bytes and invalid UTF-8, carrying a rune split across two writes.
type sourceCheck struct {
	text  bool
	hash  hash.Hash
	carry []byte
	off   int64
}

func (c *sourceCheck) Write(p []byte) (int, error) {
	c.hash.Write(p)
	if !c.text {
		return len(p), nil
	}
	data := append(c.carry, p...)
	base := c.off - int64(len(c.carry))
	c.carry = nil
	for i := 0; i < len(data); {
		if data[i] == 0 {
			return 0, &junkError{fmt.Sprintf("holds a NUL byte at offset %d (binary)", base+int64(i))}
		}
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		if !utf8.FullRune(data[i:]) {
			c.carry = append([]byte(nil), data[i:]...)
			break
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return 0, &junkError{fmt.Sprintf("is not UTF-8 text (invalid byte at offset %d)", base+int64(i))}
		}
		i += n
	}
	c.off += int64(len(p))
	return len(p), nil
}

func (c *sourceCheck) finish() error {
	if c.text && len(c.carry) > 0 {
		return &junkError{fmt.Sprintf("is not UTF-8 text (cut-off character at offset %d)", c.off-int64(len(c.carry)))}
	}
	return nil
}

func sourceStub(raw, original string, res *IngestResult, now time.Time) []byte {
	title := strings.TrimSuffix(path.Base(raw), path.Ext(raw))
	kind := "text"
	if res.Document {
		kind = "document"
	}
	return []byte(fmt.Sprintf(`---
type: source
title: %q
description: "ingested %s, not summarised yet"
source: %q
ingested: %s
bytes: %d
---

# %s

Source: [[%s]] (%s, %d bytes, ingested %s).

## Summary

_To be written: what this source says, in a few paragraphs, per SCHEMA.md._

## Key points

## Links

- [[index]]
`, title, original, raw, now.Format(time.DateOnly), res.Bytes, title, raw, kind, res.Bytes, now.Format(time.DateOnly)))
}

func hasAnyPrefix(data []byte, prefixes []string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(data, []byte(p)) {
			return true
		}
	}
	return false
}

func documentList() string {
	return ".pdf, .docx, .xlsx, .pptx, .odt, .ods, .odp, .epub, .doc, .xls, .ppt, .zip, .png, .jpg, .gif, .webp"
}

// outsideStore refuses sources already inside the long-term root.
func (s *Store) outsideStore(abs string) error {
	root, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil
	}
	if rel, err := filepath.Rel(root, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return errors.New("is inside the long-term memory already")
	}
	return nil
}
