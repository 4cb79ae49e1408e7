package orgvault

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"gopkg.in/yaml.v3"
)

// Located is a finding with the file it was found in (shared with the
// project's ingest through internal/store/rawfile).
type Located = rawfile.Located

// RefusedError is ingest's refusal: the content holds secrets or personal
// data (see [rawfile.RefusedError]).
type RefusedError = rawfile.RefusedError

// IngestOptions tune an ingest.
type IngestOptions struct {
	Redact     bool      // replace findings with markers instead of refusing
	LargeBytes int64     // files larger than this go to raw/_large/
	MaxBytes   int64     // a source larger than this is refused before copying (0: no limit)
	Now        time.Time // the time written into pages, the log and the commit
}

// IngestResult tells what an ingest did.
type IngestResult struct {
	Raw      string `json:"raw,omitempty"` // the stored file, relative to the root
	Page     string `json:"page"`          // the draft page, relative to the root
	Redacted int    `json:"redacted"`      // findings replaced by markers
	Existed  bool   `json:"existed"`       // the same content was ingested before
	Commit   string `json:"commit,omitempty"`
}

// Text files up to this size are read whole (they may need redacting);
// anything else is streamed, and its printable runs are scanned.
const maxTextBytes = rawfile.MaxTextBytes

// smallText is the size up to which a text source is read whole; a larger
// one is screened and copied as a stream.
const smallText = 8 << 20

// validUTF8 reads f (size bytes) chunk by chunk and reports whether it is
// UTF-8 text, a character split between chunks included.
func validUTF8(f io.ReaderAt, size int64) (bool, error) {
	buf := make([]byte, 1<<20)
	var carry []byte
	for at := int64(0); at < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if n == 0 {
			break
		}
		at += int64(n)
		chunk := append(carry, buf[:n]...)
		// Keep a character cut by the chunk's end for the next one.
		cut := len(chunk)
		for i := 1; i <= utf8.UTFMax && i <= len(chunk); i++ {
			if utf8.RuneStart(chunk[len(chunk)-i]) {
				if !utf8.FullRune(chunk[len(chunk)-i:]) {
					cut = len(chunk) - i
				}
				break
			}
		}
		if !utf8.Valid(chunk[:cut]) {
			return false, nil
		}
		carry = append([]byte(nil), chunk[cut:]...)
	}
	return utf8.Valid(carry), nil
}

func (v *Vault) ingestFile(src string, opts IngestOptions) (*IngestResult, error) {
	// The same refusals as the project's ingest: no link, no special file,
	// nothing over the limit, all before a byte is copied.
	f, info, err := rawfile.OpenSource(src, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Base(src)
	head := make([]byte, min(info.Size(), 8000))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	res := &IngestResult{}
	var data []byte // the text to store; nil for a streamed file
	binary := bytes.IndexByte(head, 0) >= 0 || info.Size() > maxTextBytes
	src2 := io.ReadSeeker(f) // what is stored: the source, or its redacted copy
	size := info.Size()
	var sum []byte
	switch {
	case !binary && info.Size() <= smallText:
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		if data, err = safefs.ReadAll(f, src, smallText); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		if !utf8.Valid(data) {
			binary, data = true, nil
		} else if data, res.Redacted, err = rawfile.ScreenText(base, data, opts.Redact); err != nil {
			return nil, err
		}
	case !binary:
		// A large text source is screened window by window, never held
		// whole (a 63 MB file once cost 470 MB).
		if ok, err := validUTF8(f, info.Size()); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		} else if !ok {
			binary = true
			break
		}
		if !opts.Redact {
			if _, err := rawfile.ScreenFile(base, f, info.Size(), false, nil); err != nil {
				return nil, err
			}
			break
		}
		staged := filepath.Join(v.Root, ".claude", ".cerebro", "ingest", fmt.Sprintf("%d-%d", os.Getpid(), opts.Now.UnixNano()))
		pr, pw := io.Pipe()
		h := sha256.New()
		go func() {
			c, err := rawfile.ScreenFile(base, f, info.Size(), true, io.MultiWriter(pw, h))
			res.Redacted = c
			pw.CloseWithError(err)
		}()
		n, err := atomicfile.WriteFrom(staged, pr, 0o644)
		defer safefs.Remove(staged)
		if err != nil {
			return nil, err
		}
		if res.Redacted > 0 {
			sf, err := safefs.Open(staged)
			if err != nil {
				return nil, err
			}
			defer sf.Close()
			src2, size, sum = sf, n, h.Sum(nil)
		}
	}
	if binary {
		data = nil
		if err := rawfile.ScreenBinary(base, f, info.Size(), opts.Redact); err != nil {
			return nil, err
		}
	}
	write := func(dst string) error {
		if data != nil {
			return atomicfile.Write(dst, data, 0o644)
		}
		if _, err := src2.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := atomicfile.WriteFrom(dst, src2, 0o644)
		return err
	}
	switch {
	case data != nil:
		size = int64(len(data))
		h := sha256.Sum256(data)
		sum = h[:]
	case sum == nil:
		h := sha256.New()
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		if _, err := io.Copy(h, f); err != nil {
			return nil, fmt.Errorf("hash %s: %w", src, err)
		}
		sum = h.Sum(nil)
	}
	rawRel, existed, err := rawfile.Place(v.Root, rawfile.SourceName(base), size, sum, opts.LargeBytes, write)
	if err != nil {
		return nil, err
	}
	res.Raw, res.Existed = rawRel, existed
	stem := strings.TrimSuffix(path.Base(rawRel), path.Ext(rawRel))
	t, _ := TypeByName("source")
	pageRel := t.Folder + "/" + safeName(stem) + ".md"
	res.Page = pageRel
	changed := []string{rawRel}
	if _, err := os.Stat(v.abs(pageRel)); errors.Is(err, os.ErrNotExist) {
		excerpt := ""
		if data != nil {
			excerpt = firstLines(string(data), 8)
		} else if !binary && res.Redacted == 0 {
			excerpt = firstLines(strings.ToValidUTF8(string(head), ""), 8)
		}
		words := draftWords(stem, excerpt)
		page := sourcePage(words, stem, rawRel, excerpt, opts.Now)
		if err := writeNew(v.abs(pageRel), page); err != nil {
			return nil, err
		}
		if err := v.addToIndex(pageRel, t, words.index+rawRel); err != nil {
			return nil, err
		}
		changed = append(changed, pageRel, IndexFile)
	}
	detail := fmt.Sprintf("%s → [[%s]]", rawRel, pageLink(pageRel))
	if res.Redacted > 0 {
		detail += fmt.Sprintf(" (redacted %d)", res.Redacted)
	}
	if existed && len(changed) == 1 {
		return res, nil // the same file again: nothing to record
	}
	if res.Commit, err = v.record(opts.Now, "ingest", detail, changed...); err != nil {
		return nil, err
	}
	return res, nil
}

// writeNew writes a new file, refusing to replace an existing one.
func writeNew(p string, data string) error {
	if _, err := os.Stat(p); err == nil {
		return fmt.Errorf("%s exists; edit it or move it to .trash with `memhook org rm`", p)
	}
	if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	if err := atomicfile.Write(p, []byte(data), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// meta is a page's frontmatter in the schema's order.
type meta struct {
	Type    string   `yaml:"type"`
	Status  string   `yaml:"status"`
	Title   string   `yaml:"title"`
	Created string   `yaml:"created"`
	Updated string   `yaml:"updated"`
	Tags    []string `yaml:"tags,flow"`
	Raw     string   `yaml:"raw,omitempty"`
	Project string   `yaml:"project,omitempty"`
}

func (m meta) render() string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(m) // a flat struct of strings always encodes
	return "---\n" + b.String() + "---\n"
}

// sourceWords are the words of a source page's draft, in one language.
type sourceWords struct {
	ask, start, summary, links, file, index string
}

// redactions are the markers redaction left in an excerpt: not the
// file's words.
var redactions = lazyregexp.New(`\[REDACTED:[a-z0-9-]+\]`)

// draftWords are a draft's words in the language of the file it is about:
// its first lines, else (a binary file) its name. Russian when they are
// mostly Cyrillic or hold no letter at all (the vault's own language),
// else English.
func draftWords(stem, excerpt string) sourceWords {
	text := redactions.ReplaceAllString(excerpt, "")
	if !strings.ContainsFunc(text, unicode.IsLetter) {
		text = stem
	}
	if textan.Cyrillic(text) || !strings.ContainsFunc(text, unicode.IsLetter) {
		return sourceWords{
			ask:   "Черновик. Перескажите [[%s]] своими словами: о чём файл, ключевые факты и выводы, кому и когда он полезен. Затем status: active.",
			start: "Начало файла", summary: "Кратко", links: LinksHeading, file: "Исходный файл", index: "черновик, источник ",
		}
	}
	return sourceWords{
		ask:   "Draft. Retell [[%s]] in your own words: what the file is about, its key facts and conclusions, who needs it and when. Then set status: active.",
		start: "Start of the file", summary: "Summary", links: LinksHeadingEn, file: "Source file", index: "draft, source ",
	}
}

func sourcePage(w sourceWords, stem, rawRel, excerpt string, now time.Time) string {
	day := now.Format(time.DateOnly)
	m := meta{Type: "source", Status: "draft", Title: stem, Created: day, Updated: day, Tags: []string{"source"}, Raw: rawRel}
	var b strings.Builder
	b.WriteString(m.render())
	fmt.Fprintf(&b, "\n# %s\n\n> "+w.ask+"\n", stem, rawRel)
	if excerpt != "" {
		b.WriteString("\n## " + w.start + "\n\n")
		for _, l := range strings.Split(excerpt, "\n") {
			b.WriteString("> " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n- \n\n## %s\n\n- %s: [[%s]]\n- [[%s]]\n", w.summary, w.links, w.file, rawRel, HubName)
	return b.String()
}

// firstLines returns up to n non-blank lines, without frontmatter.
func firstLines(text string, n int) string {
	if strings.HasPrefix(text, "---\n") {
		if i := strings.Index(text[4:], "\n---"); i >= 0 {
			text = text[4+i+4:]
		}
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < n {
			if utf8.RuneCountInString(l) > 200 {
				l = string([]rune(l)[:200]) + "…"
			}
			out = append(out, strings.ReplaceAll(l, "[[", "[ ["))
		}
	}
	return strings.Join(out, "\n")
}
