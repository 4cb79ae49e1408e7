package longterm

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// LintOptions tune [Store.Lint].
type LintOptions struct {
	CoreMaxChars int  // 0 skips the CORE.md size check
	Project      bool // check the project files (index.md, План-факт.md, CORE.md) too
}

// Lint checks the long-term memory:
//
//	frontmatter      error    frontmatter present but unreadable
//	missing-type     error    a page without a `type`
//	broken-link      error    a wikilink to no page and no file
//	broken-evidence  error    [[daily/D]] with no day file in daily/ or daily/_archive/
//	plan-fact        error    each breach of the План-факт.md contract, on its line
//	core-size        error    CORE.md over long.core_max_chars
//	index-drift      warning  index.md differs from what `memhook wiki index` would write
//	orphan           warning  a page nothing links to and that links nowhere
//	truth-pending    warning  a refused truth waits to be merged by hand
//
// Findings are sorted by file, line and rule.
func (s *Store) Lint(opts LintOptions) ([]lint.Finding, error) {
	v, err := s.LoadVault()
	if err != nil {
		return nil, err
	}
	out := []lint.Finding{}
	add := func(file string, line int, rule, sev, msg string) {
		out = append(out, lint.Finding{File: file, Line: line, Rule: rule, Message: msg, Severity: sev})
	}
	for _, p := range v.Pages {
		if p.MetaErr != nil {
			add(p.Path, frontmatter.Line(p.MetaErr), "frontmatter", lint.Error, p.MetaErr.Error())
		} else if strings.TrimSpace(p.Type) == "" {
			add(p.Path, 1, "missing-type", lint.Error, "page has no `type` in its frontmatter")
		}
		if p.Type == "truth-pending" {
			add(p.Path, 1, "truth-pending", lint.Warning, "a proposed compiled truth waits to be merged by hand")
		}
	}
	g := s.Graph(v)
	for _, b := range g.Broken {
		if day, ok := EvidenceDay(b.Target); ok {
			add(b.From, b.Line, "broken-evidence", lint.Error, fmt.Sprintf("[[%s]]: no day file %s.md in daily/ or daily/_archive/", b.Target, day))
			continue
		}
		what := "page"
		if b.Attachment {
			what = "file"
		}
		add(b.From, b.Line, "broken-link", lint.Error, fmt.Sprintf("[[%s]]: no such %s", b.Target, what))
	}
	for _, o := range g.Orphans {
		add(o, 1, "orphan", lint.Warning, "no page links here and it links nowhere")
	}
	if opts.Project {
		s.lintProjectFiles(v, opts, add)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
	return out, nil
}

func (s *Store) lintProjectFiles(v *wiki.Vault, opts LintOptions, add func(string, int, string, string, string)) {
	idx, err := safefs.ReadNote(s.Path(IndexFile), s.NoteBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		add(IndexFile, 1, "index-drift", lint.Warning, "index.md is missing; run `memhook wiki index`")
	case err != nil:
		add(IndexFile, 1, "index-drift", lint.Warning, "cannot read index.md: "+err.Error())
	default:
		if want := RenderIndex(idx, v); string(want) != string(idx) {
			add(IndexFile, driftLine(idx, want), "index-drift", lint.Warning, "index.md is out of date with the pages; run `memhook wiki index`")
		}
	}
	pf, err := safefs.ReadNote(s.Path(planfact.FileName), s.NoteBytes)
	if errors.Is(err, fs.ErrNotExist) {
		add(planfact.FileName, 1, "plan-fact", lint.Error, "missing; `memhook long on` creates it from the template")
	} else if err == nil {
		_, probs := planfact.Parse(pf)
		for _, p := range probs {
			msg := p.Message
			if p.Field != "" {
				msg = p.Field + ": " + msg
			}
			add(planfact.FileName, p.Line, "plan-fact", lint.Error, msg)
		}
	}
	if opts.CoreMaxChars > 0 {
		if data, err := safefs.ReadNote(s.Path(CoreFile), s.NoteBytes); err == nil {
			if n := utf8.RuneCount(data); n > opts.CoreMaxChars {
				add(CoreFile, 1, "core-size", lint.Error, fmt.Sprintf("%d characters, %d over the cap of %d", n, n-opts.CoreMaxChars, opts.CoreMaxChars))
			}
		}
	}
}

// driftLine is the first line where index.md differs from its rebuild.
func driftLine(have, want []byte) int {
	a, b := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i + 1
		}
	}
	if len(a) < len(b) {
		return len(a)
	}
	return len(b)
}
