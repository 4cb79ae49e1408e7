package longterm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// LoadVault reads the long-term root as a wiki. raw/ holds sources, not
// pages: its files are listed as attachments (so links to them resolve)
// but never parsed as pages, even when they are Markdown.
func (s *Store) LoadVault() (*wiki.Vault, error) {
	v, err := wiki.Load(s.Dir, wiki.Options{Skip: []string{RawDir}, MaxFileBytes: s.NoteBytes})
	if err != nil {
		return nil, err
	}
	raw := s.Path(RawDir)
	err = filepath.WalkDir(raw, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == raw {
				return fs.SkipAll // no raw/ yet
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(s.Dir, p)
			v.Files = append(v.Files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list raw/: %w", err)
	}
	sort.Strings(v.Files)
	return v, nil
}

var evidenceRe = lazyregexp.New(`(?i)^daily/(?:_archive/)?([^/]+?)(\.md)?$`)

// EvidenceDay returns the day an evidence link ([[daily/YYYY-MM-DD]]) names.
func EvidenceDay(target string) (string, bool) {
	m := evidenceRe.FindStringSubmatch(strings.TrimSpace(target))
	if m == nil {
		return "", false
	}
	return daily.DateOf(m[1] + ".md")
}

// DayFile finds the short-term file of day: daily/ first, then
// daily/_archive/ where compile moves it. This is how evidence links stay
// valid after the move.
func (s *Store) DayFile(day string) (string, bool) {
	for _, d := range []string{s.DailyDir, s.ArchiveDir} {
		if d == "" {
			continue
		}
		p := daily.File(d, day)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// Evidence is one resolved link from a page to a short-term day.
type Evidence struct {
	From     string `json:"from"`
	Day      string `json:"day"`
	Line     int    `json:"line"`
	Archived bool   `json:"archived"`
}

// GraphData is the graph file: the wiki graph with evidence links taken out
// of "broken" when their day file exists.
type GraphData struct {
	*wiki.Graph
	Evidence []Evidence `json:"evidence"`
}

// Graph builds the graph of the long-term memory.
func (s *Store) Graph(v *wiki.Vault) *GraphData {
	g := v.Graph()
	gd := &GraphData{Graph: g, Evidence: []Evidence{}}
	kept := g.Broken[:0]
	for _, b := range g.Broken {
		if day, ok := EvidenceDay(b.Target); ok {
			if p, found := s.DayFile(day); found {
				gd.Evidence = append(gd.Evidence, Evidence{From: b.From, Day: day, Line: b.Line,
					Archived: filepath.Dir(p) == filepath.Clean(s.ArchiveDir)})
				continue
			}
		}
		kept = append(kept, b)
	}
	g.Broken = kept
	return gd
}

// JSON is the graph file's bytes: indented, sorted, byte-identical for the
// same pages.
func (g *GraphData) JSON() []byte {
	b, _ := json.MarshalIndent(g, "", "  ")
	return append(b, '\n')
}

// RebuildGraph writes graph.json from the pages; it reports whether the
// file changed.
func (s *Store) RebuildGraph() (bool, error) {
	if err := s.requireScaffold(); err != nil {
		return false, err
	}
	var changed bool
	err := s.WithLock(func() error {
		var err error
		changed, err = s.rebuildGraphLocked()
		return err
	})
	return changed, err
}

func (s *Store) rebuildGraphLocked() (bool, error) {
	v, err := s.LoadVault()
	if err != nil {
		return false, err
	}
	changed, err := s.writeIfChanged(s.Path(GraphFile), s.Graph(v).JSON())
	if err != nil {
		return false, fmt.Errorf("write graph: %w", err)
	}
	return changed, nil
}

// IndexMarker separates index.md's hand-written head from the generated
// catalogue below it.
const IndexMarker = "<!-- cerebro:index — the catalogue below is rebuilt by `memhook wiki index`; write above this line -->"

// RenderIndex returns index.md for the vault: the head of existing kept up
// to the marker (a new head when there is none) and the catalogue below.
func RenderIndex(existing []byte, v *wiki.Vault) []byte {
	head := indexPreamble
	if len(existing) > 0 {
		text := string(existing)
		if i := strings.Index(text, IndexMarker); i >= 0 {
			head = text[:i]
		} else {
			head = strings.TrimRight(text, "\n") + "\n\n"
		}
	}
	return []byte(head + IndexMarker + "\n" + Catalogue(v))
}

// Catalogue lists every page except index.md, grouped by type (sorted;
// pages without a type last), each as a link with its description.
func Catalogue(v *wiki.Vault) string {
	groups := map[string][]*wiki.Page{}
	for _, p := range v.Pages {
		if strings.EqualFold(p.Path, IndexFile) {
			continue
		}
		groups[p.Type] = append(groups[p.Type], p)
	}
	types := make([]string, 0, len(groups))
	for t := range groups {
		if t != "" {
			types = append(types, t)
		}
	}
	sort.Strings(types)
	if len(groups[""]) > 0 {
		types = append(types, "")
	}
	var b strings.Builder
	if len(types) == 0 {
		b.WriteString("\n_No pages yet._\n")
	}
	for _, t := range types {
		name := t
		if name == "" {
			name = "without type"
		}
		fmt.Fprintf(&b, "\n## %s\n\n", name)
		for _, p := range groups[t] {
			b.WriteString("- " + pageLink(p))
			if d, ok := p.Meta["description"].(string); ok && strings.TrimSpace(d) != "" {
				b.WriteString(" — " + strings.Join(strings.Fields(d), " "))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// pageLink links a page by its full path so the link is unambiguous;
// names a wikilink cannot hold fall back to a Markdown link.
func pageLink(p *wiki.Page) string {
	target := strings.TrimSuffix(p.Path, path.Ext(p.Path))
	title := strings.NewReplacer("|", "/", "[", "(", "]", ")", "\n", " ").Replace(p.Title)
	if strings.ContainsAny(target, "|#^[]") {
		u := (&url.URL{Path: p.Path}).EscapedPath()
		return fmt.Sprintf("[%s](<%s>)", title, u)
	}
	if title == p.Name {
		return "[[" + target + "]]"
	}
	return "[[" + target + "|" + title + "]]"
}

// RebuildIndex rewrites index.md's catalogue; it reports whether it changed.
func (s *Store) RebuildIndex() (bool, error) {
	if err := s.requireScaffold(); err != nil {
		return false, err
	}
	var changed bool
	err := s.WithLock(func() error {
		var err error
		changed, err = s.rebuildIndexLocked()
		return err
	})
	return changed, err
}

func (s *Store) rebuildIndexLocked() (bool, error) {
	v, err := s.LoadVault()
	if err != nil {
		return false, err
	}
	p := s.Path(IndexFile)
	old, err := safefs.ReadNote(p, s.NoteBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read index.md: %w", err)
	}
	// index.md may not be in the vault yet; the catalogue never lists it.
	changed, err := s.writeIfChanged(p, RenderIndex(old, v))
	if err != nil {
		return false, fmt.Errorf("write index.md: %w", err)
	}
	return changed, nil
}

// refreshLocked rebuilds index and graph after a change and logs it.
func (s *Store) refreshLocked() error {
	if _, err := s.rebuildIndexLocked(); err != nil {
		return err
	}
	_, err := s.rebuildGraphLocked()
	return err
}
