package night

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// One ready day goes through the night's four steps, each resumable:
//
//  1. extract: the day's sections go to the model in parts (cut between
//     sections); each answer is cached with the sections it covers;
//  2. facts: facts the person stated go to their cards, the digest is
//     written (one commit);
//  3. links: two-way links between the digest and the cards it touches,
//     only when both files exist (one commit);
//  4. core: CORE.md lines drawn from the person's own replies, applied
//     through the CORE writer or left for `memhook core review`.
//
// The day is then archived. The cache in .cerebro/night/cache/DAY.json
// keeps every answer and the last step done, so a night cut short (the
// budget, a provider failure) resumes where it stopped. The cache remembers
// the sections it read by hash: sections added at the day's end later are
// the only ones sent, and a section changed after it was read stops the
// day until the person deletes the cache (`memhook night forget DAY`).

const cacheVersion = 2

// The steps a day has finished, in order.
const (
	stepFacts = "facts"
	stepLinks = "links"
	stepCore  = "core"
)

var stepOrder = map[string]int{"": 0, stepFacts: 1, stepLinks: 2, stepCore: 3}

// unit is one piece of a day file the cache tracks: the header
// (frontmatter and title) or one "## " section.
type unit struct {
	text string
	head string
}

func dayUnits(data []byte) []unit {
	d := daily.Parse(data)
	out := []unit{{text: d.Preamble, head: "the header (frontmatter and title)"}}
	for _, sec := range d.Sections {
		out = append(out, unit{text: sec.Raw, head: "## " + sec.Heading})
	}
	return out
}

// hash ignores trailing blank lines: appending a section adds a newline
// to the one before it.
func (u unit) hash() string {
	return longterm.Hash([]byte(strings.TrimRight(u.text, "\r\n\t ")))[:16]
}

type cachedUnit struct {
	Hash string `json:"hash"`
	Head string `json:"head"`
}

// cachedPart is one answer, covering the units [From, To).
type cachedPart struct {
	From         int    `json:"from"`
	To           int    `json:"to"`
	Answer       string `json:"answer"`
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
}

// dayCache is one day's cache: the units read so far (a prefix of the
// day), the answers that cover them, the CORE answers and the last step
// done.
type dayCache struct {
	Version int          `json:"version"`
	Day     string       `json:"day"`
	Units   []cachedUnit `json:"units"`
	Parts   []cachedPart `json:"parts"`
	Core    []cachedPart `json:"core,omitempty"`
	CoreTo  int          `json:"core_to,omitempty"` // units whose replies the CORE step has seen
	Step    string       `json:"step,omitempty"`
}

// DayChange is a ready day whose earlier section changed after the night
// read it: nothing is written for the day until the person deletes its
// cache.
type DayChange struct {
	Day     string `json:"day"`
	Section int    `json:"section"` // 0: the header; n: the day's n-th section
	Head    string `json:"head"`
	Command string `json:"command"` // deletes the day's cache
}

func (c DayChange) String() string {
	which := "the header"
	if c.Section > 0 {
		which = fmt.Sprintf("section %d (%s)", c.Section, c.Head)
	}
	return fmt.Sprintf("%s: %s changed after the night read it; nothing is written for this day until its cache is deleted: run `%s`", c.Day, which, c.Command)
}

// ForgetCommand is the command that deletes a day's cache.
func ForgetCommand(project, day string) string {
	cmd := "memhook night forget " + day
	if project != "" {
		cmd += " --project " + shellQuote(project)
	}
	return cmd
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Forget deletes the night's cache of day in a project's long-term memory:
// the next night reads the day again from its first section. It reports
// whether there was a cache.
func Forget(s *longterm.Store, day string) (bool, error) {
	if !isDay(day) {
		return false, fmt.Errorf("night forget: %q is not a day YYYY-MM-DD", day)
	}
	p := cachePath(s, day+".json")
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	// Removed through the safe layer: a planted .cerebro link never
	// takes a file outside the memory with it.
	if err := safefs.Remove(p); err != nil {
		return false, fmt.Errorf("night forget %s: %w", day, err)
	}
	return true, nil
}

var dayRe = lazyregexp.New(`^\d{4}-\d{2}-\d{2}$`)

func isDay(s string) bool { return dayRe.MatchString(s) }

// changed finds the first unit the cache read that is not the same now.
func (c *dayCache) changed(units []unit) (int, bool) {
	for i, cu := range c.Units {
		if i >= len(units) || units[i].hash() != cu.Hash {
			return i, true
		}
	}
	return 0, false
}

// span is a part to send: the units [from, to).
type span struct{ from, to int }

// spans cuts units[from:] into parts of at most max characters, between
// units; the header goes with the first section, and a single longer
// section is a part of its own.
func spans(units []unit, from, max int) []span {
	var out []span
	cur, n := from, 0
	for i := from; i < len(units); i++ {
		size := utf8.RuneCountInString(units[i].text)
		if n > 0 && n+size > max && !(cur == 0 && i == 1) {
			out = append(out, span{cur, i})
			cur, n = i, 0
		}
		n += size
	}
	if cur < len(units) {
		out = append(out, span{cur, len(units)})
	}
	return out
}

func joinUnits(units []unit) string {
	var b strings.Builder
	for _, u := range units {
		b.WriteString(u.text)
	}
	return b.String()
}

const maxCardsListed = 150

func dayPrompt(day string, sp span, total int, text string, cs []*wiki.Page) string {
	var b strings.Builder
	b.WriteString(dayInstructions)
	b.WriteString("\nCard pages:\n")
	if len(cs) == 0 {
		b.WriteString("(none yet: leave facts and cards empty)\n")
	}
	for i, p := range cs {
		if i == maxCardsListed {
			fmt.Fprintf(&b, "(and %d more not listed)\n", len(cs)-i)
			break
		}
		fmt.Fprintf(&b, "- %s", p.Path)
		if p.Title != "" && p.Title != p.Name {
			fmt.Fprintf(&b, " — %s", oneLine(p.Title))
		}
		if d, ok := p.Meta["description"].(string); ok && strings.TrimSpace(d) != "" {
			fmt.Fprintf(&b, " — %s", oneLine(d))
		}
		b.WriteString("\n")
	}
	sections := total - 1 // unit 0 is the header
	if sp.from > 0 || sp.to < total {
		first := sp.from
		if first == 0 {
			first = 1
		}
		fmt.Fprintf(&b, "\nThis part holds sections %d–%d of the day's %d; the others are compiled separately.\n", first, sp.to-1, sections)
	}
	fmt.Fprintf(&b, "\n<day date=\"%s\">\n%s\n</day>\n", day, strings.TrimRight(text, "\n"))
	return b.String()
}

var hhmm = lazyregexp.New(`^([01]\d|2[0-3]):[0-5]\d$`)

func (n *run) compileDays(ctx context.Context) {
	days, err := n.readyDays()
	if err != nil {
		n.rep.problem(fmt.Errorf("list closed days: %w", err))
		return
	}
	if len(days) == 0 {
		return
	}
	n.rep.ran(StepCompile)
	for _, d := range days {
		if n.rep.BudgetStop || n.stopped() {
			return
		}
		if err := n.compileDay(ctx, d); err != nil {
			n.rep.problem(fmt.Errorf("compile %s: %w", d.Date, err))
		}
	}
}

func (n *run) saveCache(c *dayCache) error {
	body, _ := json.MarshalIndent(c, "", "  ")
	return writeState(n.s, stateDir+"/cache/"+c.Day+".json", append(body, '\n'))
}

func (n *run) compileDay(ctx context.Context, d longterm.Day) error {
	data, err := safefs.ReadFile(d.Path, maxFileBytes)
	if err != nil {
		return err
	}
	units := dayUnits(data)
	var c dayCache
	if !readJSON(cachePath(n.s, d.Date+".json"), &c) || c.Version != cacheVersion || c.Day != d.Date {
		c = dayCache{Version: cacheVersion, Day: d.Date}
	}
	if i, changed := c.changed(units); changed {
		ch := DayChange{Day: d.Date, Section: i, Head: c.Units[i].Head, Command: ForgetCommand(n.s.Project, d.Date)}
		n.rep.Changed = append(n.rep.Changed, ch)
		n.rep.Problems = append(n.rep.Problems, ch.String())
		return nil
	}
	v, err := n.s.LoadVault()
	if err != nil {
		return err
	}
	cs := cards(v)
	todo := spans(units, len(c.Units), n.o.MaxDayChars)
	if n.o.DryRun {
		calls := len(todo)
		if n.o.Core != CoreOff && c.CoreTo < len(units) && len(UserReplies([]byte(joinUnits(units[max(c.CoreTo, 1):])))) > 0 {
			calls++ // step 4's call over the person's replies
		}
		n.rep.ran(fmt.Sprintf(StepCompile+" %s: %d call(s), %d cached", d.Date, calls, len(c.Parts)))
		return nil
	}
	n.rep.Cached += len(c.Parts)
	for _, sp := range todo {
		a, ok, err := n.ask(ctx, dayPrompt(d.Date, sp, len(units), joinUnits(units[sp.from:sp.to]), cs))
		if !ok {
			return nil // stopped: the day waits for the next night
		}
		if err != nil {
			return err
		}
		var ans dayAnswer
		if err := parseAnswer(a.Text, &ans); err != nil {
			return err
		}
		c.Parts = append(c.Parts, cachedPart{From: sp.from, To: sp.to, Answer: a.Text, InputTokens: a.Usage.Input(), OutputTokens: a.Usage.OutputTokens})
		for _, u := range units[sp.from:sp.to] {
			c.Units = append(c.Units, cachedUnit{Hash: u.hash(), Head: u.head})
		}
		c.Step = "" // new sections: every later step runs again
		if err := n.saveCache(&c); err != nil {
			return err
		}
	}
	var answers []dayAnswer
	for _, p := range c.Parts {
		var a dayAnswer
		if err := parseAnswer(p.Answer, &a); err != nil {
			return fmt.Errorf("cached answer for sections %d–%d: %w", p.From, p.To-1, err)
		}
		answers = append(answers, a)
	}
	if stepOrder[c.Step] < stepOrder[stepFacts] {
		if err := n.step("night compile "+d.Date, func() error { return n.applyFacts(d, data, answers, cs) }); err != nil {
			return err
		}
		c.Step = stepFacts
		if err := n.saveCache(&c); err != nil {
			return err
		}
	}
	if stepOrder[c.Step] < stepOrder[stepLinks] {
		if err := n.step("night links "+d.Date, func() error { return n.linkDay(d, answers, cs) }); err != nil {
			return err
		}
		c.Step = stepLinks
		if err := n.saveCache(&c); err != nil {
			return err
		}
	}
	if stepOrder[c.Step] < stepOrder[stepCore] {
		done, err := n.coreDay(ctx, d, data, units, &c)
		if err != nil || !done {
			return err
		}
		c.Step = stepCore
		if err := n.saveCache(&c); err != nil {
			return err
		}
	}
	return n.step("night archive "+d.Date, func() error {
		if _, err := n.s.CompileDone([]string{d.Date}, n.o.Now); err != nil {
			return err
		}
		n.rep.Compiled = append(n.rep.Compiled, d.Date)
		n.rep.wrote("memory_short/daily/_archive/" + d.Date + ".md")
		return nil
	})
}

// applyFacts writes what the model said about a day: facts that pass the
// owner check go to their cards, the rest stay proposals in the digest,
// and the digest is written to wiki/_private/.
func (n *run) applyFacts(d longterm.Day, data []byte, answers []dayAnswer, cs []*wiki.Page) error {
	isCard := cardSet(cs)
	var digest []string
	var written, proposed []string
	seen := map[string]bool{}
	for _, a := range answers {
		if t := strings.TrimSpace(a.Digest); t != "" {
			digest = append(digest, t)
		}
		for _, f := range a.Facts {
			page := cardPath(f.Page)
			text := oneLine(f.Text)
			if page == "" || text == "" || seen[strings.ToLower(page)+"\x00"+text] {
				continue
			}
			seen[strings.ToLower(page)+"\x00"+text] = true
			if !isCard[strings.ToLower(page)] {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: no such card page", page, text))
				continue
			}
			reply, ok := OwnerEvidence(data, text)
			if !ok {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: the person's replies of %s do not state it", page, text, d.Date))
				continue
			}
			at := reply.Time
			if at == "" && hhmm.MatchString(f.Time) {
				at = f.Time
			}
			res, err := n.s.FactAdd(page, text, "daily/"+d.Date, at, n.o.Now)
			if err != nil {
				proposed = append(proposed, fmt.Sprintf("- %s: %s — not written: %s", page, text, oneLine(err.Error())))
				continue
			}
			if !res.Already {
				n.rep.Facts++
				n.rep.wrote("memory_long/" + res.Page)
			}
			written = append(written, fmt.Sprintf("- [[%s]]: %s", strings.TrimSuffix(res.Page, path.Ext(res.Page)), strings.TrimPrefix(res.Line, "- ")))
		}
	}
	n.rep.Proposals += len(proposed)
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntype: digest\ndate: %q\ndescription: %q\n---\n\n# Digest %s\n\nCompiled by the night pass from [[daily/%s]].\n\n",
		d.Date, "night digest of "+d.Date, d.Date, d.Date)
	if len(digest) == 0 {
		b.WriteString("_Nothing worth keeping, by the model's reading._\n")
	} else {
		b.WriteString(demote(strings.Join(digest, "\n\n")) + "\n")
	}
	if len(written) > 0 {
		b.WriteString("\n## Facts written\n\n" + strings.Join(written, "\n") + "\n")
	}
	if len(proposed) > 0 {
		b.WriteString("\n## Proposed facts\n\nThe model proposed these; they wait for a person (`memhook fact add`).\n\n" + strings.Join(proposed, "\n") + "\n")
	}
	res, err := n.s.WriteDigest(d.Date, []byte(b.String()), n.o.Now)
	if err != nil {
		return err
	}
	if res.Changed {
		n.rep.wrote("memory_long/" + res.Page)
	}
	return nil
}

func cardSet(cs []*wiki.Page) map[string]bool {
	out := map[string]bool{}
	for _, p := range cs {
		out[strings.ToLower(p.Path)] = true
	}
	return out
}

// cardPath normalises a page the model named: trimmed, with .md.
func cardPath(p string) string {
	p = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), "[["), "]]"))
	if p == "" {
		return ""
	}
	if !strings.HasSuffix(strings.ToLower(p), ".md") {
		p += ".md"
	}
	return p
}

// linkDay writes the two-way links between the day's digest and the cards
// it touches — the cards holding a fact with the day's evidence, and the
// cards the model named — only where both files exist. A card is
// written by its exact path from the vault, never by the model's spelling.
func (n *run) linkDay(d longterm.Day, answers []dayAnswer, cs []*wiki.Page) error {
	digest := longterm.DigestPage(d.Date)
	if _, err := os.Stat(n.s.Path(digest)); err != nil {
		return nil
	}
	byLower := map[string]string{}
	for _, p := range cs {
		byLower[strings.ToLower(p.Path)] = p.Path
	}
	touched := map[string]bool{}
	evidence := "[[daily/" + d.Date + "]]"
	for _, p := range cs {
		data, err := safefs.ReadFile(n.s.Path(p.Path), maxFileBytes)
		if err != nil {
			continue
		}
		for _, f := range longterm.Facts(data) {
			if strings.Contains(f.Evidence, evidence) {
				touched[p.Path] = true
			}
		}
	}
	for _, a := range answers {
		for _, c := range a.Cards {
			if p, ok := byLower[strings.ToLower(cardPath(c))]; ok {
				touched[p] = true
			}
		}
	}
	pages := make([]string, 0, len(touched))
	for p := range touched {
		pages = append(pages, p)
	}
	sort.Strings(pages)
	if len(pages) > 0 {
		n.rep.ranOnce(StepLinks)
	}
	for _, p := range pages {
		r1, err := n.s.AddLink(digest, p, longterm.CardsHeading, n.o.Now)
		if err != nil {
			return err
		}
		r2, err := n.s.AddLink(p, digest, longterm.DigestsHeading, n.o.Now)
		if err != nil {
			return err
		}
		if r1.Added {
			n.rep.wrote("memory_long/" + digest)
		}
		if r2.Added {
			n.rep.Links++
			n.rep.wrote("memory_long/" + p)
		}
	}
	return nil
}
