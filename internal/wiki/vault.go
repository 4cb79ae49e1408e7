package wiki

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// Page is one Markdown file of a vault.
type Page struct {
	Path     string         `json:"path"` // slash-separated, relative to the vault root
	Name     string         `json:"name"` // base name without .md
	Meta     map[string]any `json:"meta,omitempty"`
	Type     string         `json:"type,omitempty"`
	Title    string         `json:"title,omitempty"`
	Links    []Link         `json:"links,omitempty"`
	Body     string         `json:"-"`
	BodyLine int            `json:"-"`    // 1-based line where Body starts
	MetaErr  error          `json:"-"`    // frontmatter present but broken
	Size     int64          `json:"size"` // bytes on disk
}

// Options choose which files a vault holds.
type Options struct {
	// Skip lists slash-separated folder paths (relative to the root) left
	// out with everything under them. Folders starting with "." are always
	// left out (.obsidian, .trash, .git).
	Skip []string
	// MaxFileBytes leaves out larger Markdown files: the vault's
	// limits.note_bytes (0: safefs.DefaultNoteBytes).
	MaxFileBytes int64
}

// Vault is a loaded folder of pages.
type Vault struct {
	Root    string
	Pages   []*Page          // sorted by Path
	Files   []string         // every non-Markdown file, slash paths, sorted (attachments, raw sources)
	Skipped map[string]error // files that could not be read, by path
	byPath  map[string]*Page // lower-case path without .md
	byName  map[string][]*Page
}

// Load reads every Markdown page under root.
func Load(root string, opts Options) (*Vault, error) {
	if opts.MaxFileBytes == 0 {
		opts.MaxFileBytes = safefs.DefaultNoteBytes
	}
	v := &Vault{Root: root, Skipped: map[string]error{}}
	skip := map[string]bool{}
	for _, s := range opts.Skip {
		skip[strings.Trim(s, "/")] = true
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			v.Skipped[rel] = err
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || skip[rel]) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.EqualFold(path.Ext(rel), ".md") {
			if !strings.HasPrefix(d.Name(), ".") {
				v.Files = append(v.Files, rel)
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			v.Skipped[rel] = err
			return nil
		}
		if info.Size() > opts.MaxFileBytes {
			v.Skipped[rel] = fmt.Errorf("larger than %d bytes", opts.MaxFileBytes)
			return nil
		}
		data, err := safefs.ReadNote(p, opts.MaxFileBytes)
		if err != nil {
			v.Skipped[rel] = err
			return nil
		}
		pg := ParsePage(rel, data)
		pg.Size = info.Size()
		v.Pages = append(v.Pages, pg)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read vault %s: %w", root, err)
	}
	sort.Slice(v.Pages, func(i, j int) bool { return v.Pages[i].Path < v.Pages[j].Path })
	sort.Strings(v.Files)
	v.index()
	return v, nil
}

// ParsePage parses one page from its bytes; rel is its vault path.
func ParsePage(rel string, data []byte) *Page {
	if !utf8.Valid(data) {
		data = []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
	}
	pg := &Page{Path: rel, Name: strings.TrimSuffix(path.Base(rel), path.Ext(rel)), BodyLine: 1}
	body := data
	meta, rest, err := frontmatter.Map(data)
	switch {
	case err != nil && !errors.Is(err, frontmatter.ErrNone):
		pg.MetaErr = err
	case meta != nil:
		pg.Meta = meta
		body = rest
		pg.BodyLine = strings.Count(string(data[:len(data)-len(rest)]), "\n") + 1
	}
	if pg.MetaErr != nil {
		if b, err := frontmatter.Split(data); err == nil {
			body = data[b.BodyStart:]
			pg.BodyLine = b.BodyLine
		}
	}
	pg.Body = string(body)
	pg.Type, _ = pg.Meta["type"].(string)
	pg.Title, _ = pg.Meta["title"].(string)
	if pg.Title == "" {
		pg.Title = pg.Name
	}
	pg.Links = ParseLinks(pg.Body, pg.BodyLine)
	return pg
}

func (v *Vault) index() {
	v.byPath = map[string]*Page{}
	v.byName = map[string][]*Page{}
	for _, p := range v.Pages {
		key := strings.ToLower(strings.TrimSuffix(p.Path, path.Ext(p.Path)))
		v.byPath[key] = p
		name := strings.ToLower(p.Name)
		v.byName[name] = append(v.byName[name], p)
	}
	for _, ps := range v.byName {
		// Obsidian prefers the shortest path when names collide.
		sort.Slice(ps, func(i, j int) bool {
			if len(ps[i].Path) != len(ps[j].Path) {
				return len(ps[i].Path) < len(ps[j].Path)
			}
			return ps[i].Path < ps[j].Path
		})
	}
}

// Page returns the page at a vault path (with or without .md, any case).
func (v *Vault) Page(p string) *Page {
	return v.byPath[strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(p, "/"), ".md"))]
}

// Resolve finds the page a link target names, from the page at fromPath:
// a path from the vault root, a path relative to the linking page's folder,
// or a base name anywhere in the vault; case does not matter. A heading-only
// link ([[#h]]) resolves to the linking page itself. It returns nil for a
// broken link; links to attachments (non-Markdown files) resolve to nil and
// are reported by [Vault.File].
func (v *Vault) Resolve(target, fromPath string) *Page {
	if target == "" {
		return v.Page(fromPath)
	}
	t := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(target), ".md"))
	t = strings.TrimPrefix(t, "/")
	if p, ok := v.byPath[t]; ok {
		return p
	}
	if strings.Contains(t, "/") {
		rel := path.Clean(path.Join(path.Dir(strings.ToLower(fromPath)), t))
		if p, ok := v.byPath[rel]; ok {
			return p
		}
		// A partial path matches any page whose path ends with it.
		var best *Page
		for key, p := range v.byPath {
			if strings.HasSuffix(key, "/"+t) && (best == nil || len(p.Path) < len(best.Path) || len(p.Path) == len(best.Path) && p.Path < best.Path) {
				best = p
			}
		}
		return best
	}
	if ps := v.byName[t]; len(ps) > 0 {
		return ps[0]
	}
	return nil
}

// File reports whether a link target names a non-Markdown file of the vault
// (an attachment such as an image or a PDF), by path or base name.
func (v *Vault) File(target string) (string, bool) {
	t := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(target), "/"))
	if t == "" || path.Ext(t) == "" {
		return "", false
	}
	for _, f := range v.Files {
		lf := strings.ToLower(f)
		if lf == t || path.Base(lf) == t || strings.HasSuffix(lf, "/"+t) {
			return f, true
		}
	}
	return "", false
}
