package longterm

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// Fact is one dated fact line of a page.
type Fact struct {
	Date     string // YYYY-MM-DD
	Text     string // the fact, without its evidence
	Evidence string // everything after the first " · ": links and times
	Line     string // the line as written
}

var factLineRe = lazyregexp.New(`^-\s+(\d{4}-\d{2}-\d{2}):\s+(.*)$`)

// Facts returns the dated facts of a page's facts section, in page order.
// Lines that are not "- YYYY-MM-DD: …" are left out.
func Facts(data []byte) []Fact {
	lines := splitLines(strings.ReplaceAll(string(data), "\r\n", "\n"))
	sec, ok := findSection(lines, factNames)
	if !ok {
		return nil
	}
	var out []Fact
	for _, l := range lines[sec.Head+1 : sec.End] {
		m := factLineRe.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		f := Fact{Date: m[1], Text: m[2], Line: strings.TrimSpace(l)}
		if i := strings.Index(m[2], " · "); i >= 0 {
			f.Text, f.Evidence = strings.TrimSpace(m[2][:i]), strings.TrimSpace(m[2][i+len(" · "):])
		}
		out = append(out, f)
	}
	return out
}

// FactsHash is a short fingerprint of a page's facts: it changes when a
// fact is added, removed or reworded, and only then.
func FactsHash(data []byte) string {
	var b strings.Builder
	for _, f := range Facts(data) {
		b.WriteString(f.Line + "\n")
	}
	return short(Hash([]byte(b.String())))
}

// MergePlan is what `fact merge PAGE --from OTHER` will do; [Store.Merge]
// applies it only while both pages still have the hashes read here.
type MergePlan struct {
	Page      string   `json:"page"`
	From      string   `json:"from"`
	Facts     []string `json:"facts"`     // the merged facts section, in date order
	Added     int      `json:"added"`     // facts that come from OTHER
	Joined    int      `json:"joined"`    // facts both pages held: one line keeps both evidence links
	Archived  int      `json:"archived"`  // lines of OTHER's text kept in PAGE's archive section
	PageHash  string   `json:"page_hash"` // hashes when planned
	FromHash  string   `json:"from_hash"`
	otherBody []string // OTHER's text besides its facts
}

// PlanMerge reads both pages and builds the merge of OTHER into PAGE.
func (s *Store) PlanMerge(page, other string) (*MergePlan, error) {
	if err := s.requireScaffold(); err != nil {
		return nil, err
	}
	rel, abs, err := s.PagePath(page)
	if err != nil {
		return nil, err
	}
	orel, oabs, err := s.PagePath(other)
	if err != nil {
		return nil, err
	}
	if rel == orel {
		return nil, errors.New("fact merge: PAGE and --from name the same page")
	}
	pdata, err := safefs.ReadNote(abs, s.NoteBytes)
	if err != nil {
		return nil, fmt.Errorf("fact merge: read %s: %w", rel, err)
	}
	odata, err := safefs.ReadNote(oabs, s.NoteBytes)
	if err != nil {
		return nil, fmt.Errorf("fact merge: read %s: %w", orel, err)
	}
	if isRedirect(odata) {
		return nil, fmt.Errorf("fact merge: %s is already a redirect page", orel)
	}
	plan := &MergePlan{Page: rel, From: orel, PageHash: Hash(pdata), FromHash: Hash(odata)}
	type entry struct {
		f     Fact
		order int
	}
	var all []entry
	byKey := map[string]int{}
	add := func(f Fact, fromOther bool) {
		key := f.Date + "\x00" + strings.ToLower(strings.Join(strings.Fields(f.Text), " "))
		if i, ok := byKey[key]; ok {
			if f.Evidence != "" && !strings.Contains(all[i].f.Evidence, f.Evidence) {
				if all[i].f.Evidence == "" {
					all[i].f.Evidence = f.Evidence
				} else {
					all[i].f.Evidence += " · " + f.Evidence
				}
				plan.Joined++
			}
			return
		}
		byKey[key] = len(all)
		all = append(all, entry{f, len(all)})
		if fromOther {
			plan.Added++
		}
	}
	for _, f := range Facts(pdata) {
		add(f, false)
	}
	for _, f := range Facts(odata) {
		add(f, true)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].f.Date < all[j].f.Date })
	for _, e := range all {
		line := fmt.Sprintf("- %s: %s", e.f.Date, e.f.Text)
		if e.f.Evidence != "" {
			line += " · " + e.f.Evidence
		}
		plan.Facts = append(plan.Facts, line)
	}
	// OTHER's text besides its facts goes into PAGE's archive, so nothing
	// of it is lost when OTHER becomes a redirect.
	_, body := splitHead(strings.ReplaceAll(string(odata), "\r\n", "\n"))
	lines := splitLines(body)
	if sec, ok := findSection(lines, factNames); ok {
		lines = append(append([]string{}, lines[:sec.Head]...), lines[sec.End:]...)
	}
	for i, l := range lines {
		// Headings inside the archive entry go below its ### level.
		if lv := headingLevel(strings.TrimSpace(l)); lv > 0 && lv < 4 {
			lines[i] = "####" + strings.TrimLeft(strings.TrimSpace(l), "#")
		}
	}
	lines = trimBlankRuns(lines)
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	plan.otherBody = lines
	plan.Archived = len(lines)
	return plan, nil
}

// Describe is the plan in words, for the person to confirm.
func (p *MergePlan) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "merge %s into %s:\n", p.From, p.Page)
	fmt.Fprintf(&b, "  facts: %d in date order (%d from %s, %d held by both with their evidence links joined)\n", len(p.Facts), p.Added, p.From, p.Joined)
	for _, f := range p.Facts {
		fmt.Fprintf(&b, "    %s\n", f)
	}
	if p.Archived > 0 {
		fmt.Fprintf(&b, "  the rest of %s (%d lines) goes to the archive section of %s\n", p.From, p.Archived, p.Page)
	}
	fmt.Fprintf(&b, "  %s becomes a redirect page to [[%s]]\n", p.From, strings.TrimSuffix(p.Page, path.Ext(p.Page)))
	return b.String()
}

// ErrMergeStale says a page changed between the plan and the merge.
var ErrMergeStale = errors.New("a page changed since the merge was planned; nothing was written")

// Merge applies a plan: PAGE gets the merged facts (and OTHER's text in
// its archive), OTHER becomes a redirect page linking PAGE. Both pages
// must still have the hashes of the plan.
func (s *Store) Merge(p *MergePlan, now time.Time) error {
	_, abs, err := s.PagePath(p.Page)
	if err != nil {
		return err
	}
	_, oabs, err := s.PagePath(p.From)
	if err != nil {
		return err
	}
	return s.WithLock(func() error {
		pdata, err := safefs.ReadNote(abs, s.NoteBytes)
		if err != nil {
			return fmt.Errorf("fact merge: read %s: %w", p.Page, err)
		}
		odata, err := safefs.ReadNote(oabs, s.NoteBytes)
		if err != nil {
			return fmt.Errorf("fact merge: read %s: %w", p.From, err)
		}
		if Hash(pdata) != p.PageHash || Hash(odata) != p.FromHash {
			return fmt.Errorf("fact merge: %w", ErrMergeStale)
		}
		lines := splitLines(strings.ReplaceAll(string(pdata), "\r\n", "\n"))
		facts := append([]string{FactsHeading, ""}, p.Facts...)
		if sec, ok := findSection(lines, factNames); ok {
			facts[0] = lines[sec.Head]
			rest := append([]string{}, lines[sec.End:]...)
			lines = append(append(append([]string{}, lines[:sec.Head]...), facts...), append([]string{""}, rest...)...)
		} else {
			at := len(lines)
			if a, ok := findSection(lines, archiveNames); ok {
				at = a.Head
			}
			lines = insertLines(lines, at, append(append([]string{""}, facts...), "")...)
		}
		if len(p.otherBody) > 0 {
			entry := append([]string{"", fmt.Sprintf("### Merged from [[%s]] %s", strings.TrimSuffix(p.From, path.Ext(p.From)), now.Format(stampLayout)), ""}, p.otherBody...)
			if a, ok := findSection(lines, archiveNames); ok {
				lines = insertLines(lines, lastContent(lines, a), entry...)
			} else {
				lines = append(append(lines, "", ArchiveHeading), entry...)
			}
		}
		if err := atomicfile.Write(abs, []byte(joinLines(trimBlankRuns(lines))), 0o644); err != nil {
			return fmt.Errorf("fact merge: write %s: %w", p.Page, err)
		}
		target := strings.TrimSuffix(p.Page, path.Ext(p.Page))
		redirect := fmt.Sprintf("---\ntype: redirect\nredirect: %q\ndescription: %q\n---\n\n# Merged into [[%s]]\n\n"+
			"This page was merged into [[%s]] on %s: its facts, with their evidence, and its text are there.\n"+
			"Links to this page still lead here; the page before the merge is in the history (`memhook long log %s`).\n",
			p.Page, "merged into "+p.Page, target, target, now.Format(time.DateOnly), p.From)
		if err := atomicfile.Write(oabs, []byte(redirect), 0o644); err != nil {
			return fmt.Errorf("fact merge: write the redirect %s: %w", p.From, err)
		}
		if err := s.logLocked(now, "fact merge", fmt.Sprintf("%s into %s: %d facts (%d added), redirect left", p.From, p.Page, len(p.Facts), p.Added)); err != nil {
			return err
		}
		return s.refreshLocked()
	})
}

func isRedirect(data []byte) bool {
	head, _ := splitHead(string(data))
	return redirectType.MatchString(head)
}

var redirectType = lazyregexp.New(`(?m)^type:\s*["']?redirect["']?\s*$`)
