package orgvault

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Rules and their severities; lint exits non-zero only on errors.
var Rules = map[string]string{
	"broken-link": lint.Error, "missing-frontmatter": lint.Error, "invalid-frontmatter": lint.Error,
	"unknown-type": lint.Error, "bad-status": lint.Error, "missing-links-section": lint.Error,
	"orphan": lint.Warning, "index-drift": lint.Error, "hub-drift": lint.Warning,
	"raw-unsourced": lint.Warning, "trash-link": lint.Error, "large-file": lint.Warning,
	"deprecated-link": lint.Warning, "secret": lint.Error, "pii": lint.Error,
}

// structural files follow their own shape, not the page schema.
var structural = map[string]bool{SchemaFile: true, IndexFile: true, LogFile: true}

// replacedContext marks a line that links a deprecated page knowingly.
var replacedContext = lazyregexp.New(`(?i)(deprecated|replaced|superseded|obsolete|устарел|замен|вместо|ранее|бывш)`)

var dateRe = lazyregexp.New(`^\d{4}-\d{2}-\d{2}$`)

type linter struct {
	root   string
	vault  *wiki.Vault
	large  int64
	notes  int64 // limits.note_bytes
	issues []lint.Finding
}

func (l *linter) add(file string, line int, rule, format string, args ...any) {
	l.issues = append(l.issues, lint.Finding{File: file, Line: line, Rule: rule, Message: fmt.Sprintf(format, args...), Severity: Rules[rule]})
}

// Lint checks the vault against SCHEMA.md; largeBytes is the raw/_large/
// threshold. Issues come sorted by file and line.
func (v *Vault) Lint(largeBytes int64) ([]lint.Finding, error) {
	return lintVault(v.Root, largeBytes, v.NoteBytes)
}

func lintVault(root string, largeBytes, noteBytes int64) ([]lint.Finding, error) {
	vault, err := wiki.Load(root, wiki.Options{Skip: []string{TemplatesDir, RawDir}, MaxFileBytes: noteBytes})
	if err != nil {
		return nil, err
	}
	l := &linter{root: root, vault: vault, large: largeBytes, notes: noteBytes}
	incoming := map[string]int{}
	for _, p := range vault.Pages {
		if !structural[p.Path] {
			l.page(p)
		}
		if p.Path != SchemaFile && p.Path != LogFile { // they quote links as examples
			l.links(p, incoming)
		}
		l.scan(p.Path)
	}
	l.orphans(incoming)
	l.index()
	l.hub()
	l.files()
	sort.SliceStable(l.issues, func(i, j int) bool {
		a, b := l.issues[i], l.issues[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return l.issues, nil
}

func (l *linter) page(p *wiki.Page) {
	switch {
	case p.MetaErr != nil:
		l.add(p.Path, 1, "invalid-frontmatter", "frontmatter does not parse: %v", p.MetaErr)
		return
	case p.Meta == nil:
		l.add(p.Path, 1, "missing-frontmatter", "no frontmatter; start the page with type, status, title, created, updated, tags")
		return
	}
	typ, _ := p.Meta["type"].(string)
	if _, ok := TypeByName(typ); !ok {
		l.add(p.Path, 1, "unknown-type", "type %q is not one of case, regulation, approach, tool, work-type, moc, source", typ)
	}
	status, _ := p.Meta["status"].(string)
	if status != "draft" && status != "active" && status != "deprecated" {
		l.add(p.Path, 1, "bad-status", "status %q is not draft, active or deprecated", status)
	}
	var missing []string
	for _, k := range []string{"title", "created", "updated", "tags"} {
		if _, ok := p.Meta[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		l.add(p.Path, 1, "invalid-frontmatter", "missing %s", strings.Join(missing, ", "))
	}
	for _, k := range []string{"created", "updated"} {
		if val, ok := p.Meta[k]; ok && !isDate(val) {
			l.add(p.Path, 1, "invalid-frontmatter", "%s %v is not a YYYY-MM-DD date", k, val)
		}
	}
	if tags, ok := p.Meta["tags"]; ok {
		if _, list := tags.([]any); !list {
			if _, s := tags.(string); !s {
				l.add(p.Path, 1, "invalid-frontmatter", "tags must be a list")
			}
		}
	}
	if typ == "source" {
		raw, _ := p.Meta["raw"].(string)
		if raw == "" {
			l.add(p.Path, 1, "invalid-frontmatter", "a source page needs raw: with its file in raw/")
		} else if _, err := os.Stat(filepath.Join(l.root, filepath.FromSlash(raw))); err != nil {
			l.add(p.Path, 1, "invalid-frontmatter", "raw file %s does not exist", raw)
		}
	}
	l.linksSection(p)
}

func isDate(v any) bool {
	switch d := v.(type) {
	case time.Time:
		return true
	case string:
		_, err := time.Parse(time.DateOnly, d)
		return dateRe.MatchString(d) && err == nil
	}
	return false
}

// linksSection wants a "## Связи" heading ("## Links" in an English
// page) with at least one wikilink before the next heading of the same or
// a higher level.
func (l *linter) linksSection(p *wiki.Page) {
	lines := strings.Split(p.Body, "\n")
	for i, line := range lines {
		if h := strings.TrimSpace(strings.TrimPrefix(line, "## ")); !strings.HasPrefix(line, "## ") || !strings.EqualFold(h, LinksHeading) && !strings.EqualFold(h, LinksHeadingEn) {
			continue
		}
		var section []string
		for _, s := range lines[i+1:] {
			if strings.HasPrefix(s, "# ") || strings.HasPrefix(s, "## ") {
				break
			}
			section = append(section, s)
		}
		if len(wiki.ParseLinks(strings.Join(section, "\n"), 1)) == 0 {
			l.add(p.Path, p.BodyLine+i, "missing-links-section", "the ## %s section has no [[link]]", LinksHeading)
		}
		return
	}
	l.add(p.Path, p.BodyLine, "missing-links-section", "no ## %s section with at least one [[link]]", LinksHeading)
}

func (l *linter) links(p *wiki.Page, incoming map[string]int) {
	status, _ := p.Meta["status"].(string)
	body := strings.Split(p.Body, "\n")
	for _, k := range p.Links {
		target := strings.TrimPrefix(strings.TrimSpace(k.Target), "/")
		if strings.HasPrefix(target, TrashDir+"/") {
			l.add(p.Path, k.Line, "trash-link", "links into %s: %s", TrashDir, k.Target)
			continue
		}
		to := l.vault.Resolve(k.Target, p.Path)
		if to == nil {
			if _, ok := l.vault.File(k.Target); ok || l.rawFile(target) {
				continue
			}
			if p.Path == IndexFile {
				l.add(p.Path, k.Line, "index-drift", "index lists %s, which does not exist", k.Target)
			} else if l.inTrash(target) {
				l.add(p.Path, k.Line, "trash-link", "links to %s, which was moved to %s", k.Target, TrashDir)
			} else {
				l.add(p.Path, k.Line, "broken-link", "no page or file %s", k.Target)
			}
			continue
		}
		if to.Path != p.Path && !structural[p.Path] {
			incoming[to.Path]++
		}
		if toStatus, _ := to.Meta["status"].(string); toStatus == "deprecated" && status == "active" {
			if i := k.Line - p.BodyLine; i >= 0 && i < len(body) && !replacedContext.MatchString(body[i]) {
				l.add(p.Path, k.Line, "deprecated-link", "links %s as current, but it is deprecated (say «заменено»/«устарело» or link its replacement)", to.Path)
			}
		}
	}
}

func (l *linter) rawFile(target string) bool {
	if !strings.HasPrefix(target, RawDir+"/") {
		return false
	}
	_, err := os.Stat(filepath.Join(l.root, filepath.FromSlash(target)))
	return err == nil
}

// inTrash reports whether a page of that name rests in .trash/.
func (l *linter) inTrash(target string) bool {
	name := strings.ToLower(path.Base(strings.TrimSuffix(target, ".md")))
	found := false
	filepath.WalkDir(filepath.Join(l.root, TrashDir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.ToLower(strings.TrimSuffix(d.Name(), ".md")) == name {
			found = true
		}
		return nil
	})
	return found
}

func (l *linter) orphans(incoming map[string]int) {
	for _, p := range l.vault.Pages {
		if structural[p.Path] || p.Path == HubFile || incoming[p.Path] > 0 {
			continue
		}
		l.add(p.Path, 1, "orphan", "no page links here (index.md does not count); link it from a map or a related page")
	}
}

func (l *linter) index() {
	idx := l.vault.Page(IndexFile)
	if idx == nil {
		l.add(IndexFile, 1, "index-drift", "index.md is missing; run `memhook org init` to restore it")
		return
	}
	listed := map[string]bool{}
	for _, k := range idx.Links {
		if p := l.vault.Resolve(k.Target, IndexFile); p != nil {
			listed[p.Path] = true
		}
	}
	for _, p := range l.vault.Pages {
		if !structural[p.Path] && !listed[p.Path] {
			l.add(p.Path, 1, "index-drift", "not listed in index.md")
		}
	}
}

func (l *linter) hub() {
	hub := l.vault.Page(HubFile)
	if hub == nil {
		l.add(HubFile, 1, "hub-drift", "the hub %s is missing; run `memhook org init` to restore it", HubFile)
		return
	}
	linked := map[string]bool{}
	for _, k := range hub.Links {
		if p := l.vault.Resolve(k.Target, HubFile); p != nil {
			linked[p.Path] = true
		}
	}
	for _, p := range l.vault.Pages {
		if p.Type == "moc" && p.Path != HubFile && !linked[p.Path] {
			l.add(p.Path, 1, "hub-drift", "a map (moc) the hub does not link")
		}
	}
}

// files checks raw/ against the source pages, sizes outside raw/_large/,
// and scans raw text files for secrets.
func (l *linter) files() {
	sourced := map[string]bool{}
	for _, p := range l.vault.Pages {
		if raw, _ := p.Meta["raw"].(string); raw != "" {
			sourced[path.Clean(raw)] = true
		}
		for _, k := range p.Links {
			sourced[path.Clean(strings.TrimPrefix(k.Target, "/"))] = true
		}
	}
	filepath.WalkDir(l.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(l.root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == TemplatesDir) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		inRaw := strings.HasPrefix(rel, RawDir+"/")
		// Pages may grow; it is attachments and sources that belong in raw/_large/.
		if l.large > 0 && info.Size() > l.large && !strings.HasPrefix(rel, RawLargeDir+"/") && !strings.EqualFold(path.Ext(rel), ".md") {
			l.add(rel, 0, "large-file", "%d bytes, over org.raw_large_bytes (%d): keep large files in %s/", info.Size(), l.large, RawLargeDir)
		}
		if inRaw {
			if !sourced[rel] {
				l.add(rel, 0, "raw-unsourced", "no source page has raw: %s", rel)
			}
			if info.Size() <= 8<<20 {
				l.scan(rel)
			}
		}
		return nil
	})
}

// scan reports secrets and personal data of a text file.
func (l *linter) scan(rel string) {
	data, err := safefs.ReadNote(filepath.Join(l.root, filepath.FromSlash(rel)), l.notes)
	if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return
	}
	for _, f := range secrets.Scan(string(data)) {
		l.add(rel, f.Line, string(f.Category()), "%s %s", f.Kind, f.Preview)
	}
}
