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
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
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
	if !binary {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		if data, err = safefs.ReadAll(f, src, maxTextBytes); err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		binary = !utf8.Valid(data)
	}
	if binary {
		data = nil
		if err := rawfile.ScreenBinary(base, f, info.Size(), opts.Redact); err != nil {
			return nil, err
		}
	} else if data, res.Redacted, err = rawfile.ScreenText(base, data, opts.Redact); err != nil {
		return nil, err
	}
	size := info.Size()
	write := func(dst string) error {
		if data != nil {
			return atomicfile.Write(dst, data, 0o644)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := atomicfile.WriteFrom(dst, f, 0o644)
		return err
	}
	var sum []byte
	if data != nil {
		size = int64(len(data))
		h := sha256.Sum256(data)
		sum = h[:]
	} else {
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
		}
		page := sourcePage(stem, rawRel, excerpt, opts.Now)
		if err := writeNew(v.abs(pageRel), page); err != nil {
			return nil, err
		}
		if err := v.addToIndex(pageRel, t, "черновик, источник "+rawRel); err != nil {
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

func sourcePage(stem, rawRel, excerpt string, now time.Time) string {
	day := now.Format("2006-01-02")
	m := meta{Type: "source", Status: "draft", Title: stem, Created: day, Updated: day, Tags: []string{"source"}, Raw: rawRel}
	var b strings.Builder
	b.WriteString(m.render())
	fmt.Fprintf(&b, "\n# %s\n\n> Черновик. Перескажите [[%s]] своими словами: о чём файл, ключевые факты и выводы, кому и когда он полезен. Затем status: active.\n", stem, rawRel)
	if excerpt != "" {
		b.WriteString("\n## Начало файла\n\n")
		for _, l := range strings.Split(excerpt, "\n") {
			b.WriteString("> " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "\n## Кратко\n\n- \n\n## %s\n\n- Исходный файл: [[%s]]\n- [[%s]]\n", LinksHeading, rawRel, HubName)
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
