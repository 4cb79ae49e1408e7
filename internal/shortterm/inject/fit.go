package inject

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/timeline"
	"github.com/cerebro-mem/cerebro/internal/text/inert"
)

// what a piece is, for the note on what the cap left out.
type what int

const (
	whatSection  what = iota // a daily section whole
	whatLine                 // a session (or a section) as one line
	whatItem                 // an open item under its line
	whatDayHead              // a timeline day's heading
	whatWeek                 // the roll-up's heading
	whatWeekOpen             // a roll-up's open item
	whatWeekDecision
	whatWeekSession
	whatWeekLabel
	whatLong   // CORE or the plan-fact status, a block of its own
	whatDetail // a timeline line's decisions, lessons and final message, with room to spare
)

// piece is a unit of the inject the budget takes whole or not at all.
type piece struct {
	out   int // its block
	text  string
	keys  []string // what it hands, for [Given]
	needs []int    // pieces that must come with it (its heading, its line)
	fulls []int    // a line's sections whole
	line  int      // a section's line (-1: none)
	// anchor and sub order a block's pieces: by the piece they are shown
	// at, then the line, its items, its detail, the section.
	anchor, sub int
	items       []int              // a line's open items
	detail      int                // a line's detail (0: none)
	base        string             // a detail's text before the room left widened it
	secs        []timeline.Section // a line's sections, for its detail
	file        string             // where it comes from, for the note
	what        what
	name        string // a whole block's name in the note (CORE.md, the roll-up)
	taken       bool
}

// outBlock is one <memory> block of the output.
type outBlock struct {
	b       block
	preface string // the block's first line, shown with its first piece
	raw     bool   // its pieces are whole rendered blocks (CORE, plan-fact)
	rank    int    // output order
}

func (ob outBlock) overhead() int {
	if ob.raw {
		return 0
	}
	return runes(ob.open()) + runes(blockClose)
}

func (ob outBlock) open() string {
	return fmt.Sprintf("<memory kind=%q source=%s%s>\n", ob.b.kind, inert.Attr(ob.b.source), ob.b.label) + ob.preface
}

const blockClose = "</memory>\n\n"

// plan is the inject's pieces and the order the budget goes to them.
type plan struct {
	blocks   []outBlock
	pieces   []piece
	long     []int  // CORE and plan-fact: first
	steps    []step // then these, in order
	byDesign []string
	shortDir string
	max      int
	weekHead int // the roll-up's heading (-1: none)
	week     *weekInfo
	lines    []int // every line, newest first, for the details' shares
	// closed reports an open item or a failure of a section that a later
	// section closed.
	closed func(key, item string) bool
}

func (p *plan) init() { p.weekHead = -1 }

// step is what the budget goes to next: a piece if it fits (a line's
// items and detail only with their line), or a line made its sessions's
// sections whole.
type step struct {
	piece   int
	upgrade bool
	widen   bool // the line's detail made the widest that fits
	share   bool // every shown line's detail, each within its share of the room left
}

// plan sets the budget's order: breadth before depth. lines is every
// session's line, newest first (today's, the previous day's, the
// timeline's); sections is today's and the previous day's sections, newest
// first. First every line with its open items (the latest session's
// outcome first, today's open items with it), then the roll-up's heading
// and open items, then each line's detail (the room left shared equally
// among them), then the sections whole, newest
// first (a line goes once its session's sections are all given whole),
// then the roll-up's decisions and sessions. A session's sections come
// whole without a gap: once one does not fit, the older ones stay in its
// line's detail, which then speaks of them alone.
func (p *plan) plan(lines, sections []int) {
	take := func(is ...int) {
		for _, i := range is {
			p.steps = append(p.steps, step{piece: i})
		}
	}
	for _, l := range lines {
		take(l)
		take(p.pieces[l].items...)
	}
	take(p.weekOrder(false)...)
	p.lines = lines
	p.steps = append(p.steps, step{share: true})
	for _, f := range sections {
		p.steps = append(p.steps, step{piece: f, upgrade: true})
	}
	// What the sections whole left, to the details of the lines still
	// shown, newest first.
	for _, l := range lines {
		if p.pieces[l].detail > 0 {
			p.steps = append(p.steps, step{piece: l, widen: true})
		}
	}
	take(p.weekOrder(true)...)
}

func (p *plan) addBlock(b block, preface string) int {
	p.blocks = append(p.blocks, outBlock{b: b, preface: preface, rank: len(p.blocks)})
	return len(p.blocks) - 1
}

// longAfterDaily moves CORE and plan-fact after every block added so far:
// they are shown after the daily memory though their budget comes first.
func (p *plan) longAfterDaily() {
	for _, i := range p.long {
		p.blocks[p.pieces[i].out].rank += 1000
	}
}

// Where a piece is shown beside the piece it is anchored at.
const (
	subItem    = 1
	subDetail  = 500
	subSection = 1000
)

// anchor shows line l, its items and its detail at piece at.
func (p *plan) anchor(l, at int) {
	for _, i := range p.lineParts(l) {
		p.pieces[i].anchor = at
	}
}

// addPiece adds x; a line and its sections are paired after both exist.
func (p *plan) addPiece(x piece) int {
	if x.what != whatLong { // CORE and plan-fact come rendered, escaped by block.render
		// A note never closes its block; escaped here, so the budget
		// counts what is shown.
		x.text, x.base = inert.Text(x.text), inert.Text(x.base)
	}
	x.line, x.anchor = -1, len(p.pieces)
	p.pieces = append(p.pieces, x)
	return len(p.pieces) - 1
}

// addLine adds a session's line and, under it, its open items that no
// later section closed (those the session was handed before left out).
func (p *plan) addLine(out int, rel string, ses timeline.Session, secs []timeline.Section, tr *timeline.Tracker, had func(string) bool) int {
	keys := make([]string, len(ses.Keys))
	for i, k := range ses.Keys {
		keys[i] = lineKey(k)
	}
	l := p.addPiece(piece{out: out, text: "- " + ses.Line(tr.StillOpen(ses.Keys)) + "\n", keys: keys, file: rel, what: whatLine})
	in := map[string]bool{}
	for _, k := range ses.Keys {
		in[k] = true
	}
	for _, it := range tr.Open() {
		if !in[it.Key] || had(it.Ref()) {
			continue
		}
		text := "  - open: " + timeline.Clip(it.Text, itemRunes)
		if it.Since != it.Date {
			text += " (since " + it.Since + ")"
		}
		i := p.addPiece(piece{out: out, text: text + "\n", keys: []string{it.Ref()}, needs: []int{l}, file: rel, what: whatItem, sub: subItem + len(p.pieces[l].items)})
		p.pieces[l].items = append(p.pieces[l].items, i)
	}
	if d := ses.Detail(detailRunes); len(d) > 0 {
		t := renderDetail(d)
		p.pieces[l].detail = p.addPiece(piece{out: out, text: t, base: t, needs: []int{l}, file: rel, what: whatDetail, sub: subDetail})
		p.pieces[l].secs = secs
	}
	return l
}

// renderDetail renders a line's detail under it: a label and its item on
// one line, or a label and its items each on a line of their own.
func renderDetail(d []string) string {
	var b strings.Builder
	for _, l := range d {
		if it, ok := strings.CutPrefix(l, timeline.DetailItem); ok {
			b.WriteString("    - " + it + "\n")
			continue
		}
		b.WriteString("  - " + l + "\n")
	}
	return b.String()
}

// anyWhole reports whether a section of line l is given whole.
func (p *plan) anyWhole(l int) bool {
	for _, f := range p.pieces[l].fulls {
		if p.pieces[f].taken {
			return true
		}
	}
	return false
}

// rest is line l's session over its sections not given whole, for its
// detail: what a section given whole says is not said again.
func (p *plan) rest(l int) (timeline.Session, bool) {
	var rest []timeline.Section
	for i, s := range p.pieces[l].secs {
		if f := p.pieces[l].fulls; i < len(f) && p.pieces[f[i]].taken {
			continue
		}
		rest = append(rest, s)
	}
	ses := timeline.Sessions(rest)
	if len(ses) != 1 {
		return timeline.Session{}, false
	}
	if p.closed != nil {
		ses[0].DropClosed(p.closed)
	}
	ses[0].RequestsFirst = len(p.pieces[l].fulls) == 0
	ses[0].OlderOnly = len(rest) < len(p.pieces[l].secs)
	return ses[0], true
}

// widestDetail bounds the detail a line may widen to with the room the
// sections whole left.
const widestDetail = 5600

// detailRunes bounds a line's detail, the same for every day: on
// bench/week a larger one for today and the previous day kept fewer of
// the week's facts (0.22 against 0.27 on one assignment, the other
// unchanged).
const detailRunes = 700

// itemRunes bounds an open item in a line.
const itemRunes = 300

// Recalled is what an inject handed, counted for the line the person is
// shown: the days and the sessions of the daily memory (a session counts
// once, as its line or as any of its sections whole), and the kinds of the
// other blocks (core, plan-fact, weekly-rollup), in the order shown.
type Recalled struct {
	Days, Sessions int
	Blocks         []string
}

// fit takes what the budget holds and says what it left out, within max
// in all, and returns the text, the keys handed and their counts.
func (p *plan) fit(max int) (string, []string, Recalled) {
	p.max = max
	reserve := 0
	var note string
	for round := 0; ; round++ {
		p.allocate(max - runes(intro) - reserve)
		note = p.omitted(false)
		if runes(note) <= reserve {
			break
		}
		if round == 3 {
			// The note grew with each round: name the folders alone,
			// which always fits the reserve of the last round.
			note = p.omitted(true)
			p.allocate(max - runes(intro) - runes(note))
			break
		}
		reserve = runes(note)
	}
	var order []int
	for i := range p.blocks {
		order = append(order, i)
	}
	sort.SliceStable(order, func(a, b int) bool { return p.blocks[order[a]].rank < p.blocks[order[b]].rank })
	var s strings.Builder
	s.WriteString(intro)
	var gave []string
	var counted Recalled
	days, sessions := map[string]bool{}, map[int]bool{}
	any := false
	for _, bi := range order {
		ob := p.blocks[bi]
		var body strings.Builder
		var in []int
		for i, x := range p.pieces {
			if x.out == bi && x.taken {
				in = append(in, i)
			}
		}
		sort.SliceStable(in, func(a, b int) bool {
			x, y := p.pieces[in[a]], p.pieces[in[b]]
			if x.anchor != y.anchor {
				return x.anchor < y.anchor
			}
			return x.sub < y.sub
		})
		for _, i := range in {
			x := p.pieces[i]
			body.WriteString(x.text)
			gave = append(gave, x.keys...)
			switch {
			case x.what == whatLine:
				days[x.file], sessions[i] = true, true
			case x.what == whatSection && x.line >= 0:
				days[x.file], sessions[x.line] = true, true
			}
		}
		if body.Len() == 0 {
			continue
		}
		any = true
		if k := ob.b.kind; k != "short-term" && k != "timeline" && !slices.Contains(counted.Blocks, k) {
			counted.Blocks = append(counted.Blocks, k)
		}
		if ob.raw {
			s.WriteString(body.String())
			continue
		}
		s.WriteString(ob.open())
		s.WriteString(strings.TrimRight(body.String(), "\n") + "\n")
		s.WriteString(blockClose)
	}
	if !any && note == "" {
		return "", nil, Recalled{}
	}
	s.WriteString(note)
	counted.Days, counted.Sessions = len(days), len(sessions)
	return strings.TrimRight(s.String(), "\n") + "\n", gave, counted
}

// omitted is the note on what the inject leaves out: what the cap left
// out, file by file, and what is out by design. brief names the folders
// only.
func (p *plan) omitted(brief bool) string {
	type count struct {
		file string
		n    map[string]int
	}
	var files []*count
	at := map[string]*count{}
	addN := func(file, what string, n int) {
		c := at[file]
		if c == nil {
			c = &count{file: file, n: map[string]int{}}
			at[file] = c
			files = append(files, c)
		}
		c.n[what] += n
	}
	add := func(file, what string) { addN(file, what, 1) }
	for _, x := range p.pieces {
		if x.taken {
			continue
		}
		switch x.what {
		case whatSection:
			if x.line >= 0 && p.pieces[x.line].taken {
				add(x.file, "section shown only in its session's line")
			} else {
				add(x.file, "section")
			}
		case whatLine:
			if len(x.fulls) == 0 {
				add(x.file, "session")
			}
		case whatItem:
			if line := p.pieces[x.needs[0]]; !line.taken && len(line.fulls) == 0 {
				add(x.file, "open item")
			}
		case whatWeek, whatLong:
			add(x.file, x.name)
		case whatWeekOpen, whatWeekDecision, whatWeekSession:
			// Counted one by one only beside the roll-up's heading;
			// without it the whole roll-up is named.
			if x.name != "" && p.weekHead >= 0 && p.pieces[p.weekHead].taken {
				add(x.file, x.name)
			} else if p.weekHead >= 0 && p.pieces[p.weekHead].taken {
				add(x.file, map[what]string{whatWeekOpen: "open item of the roll-up", whatWeekDecision: "decision of the roll-up",
					whatWeekSession: "session of the roll-up"}[x.what])
			}
		}
	}
	if len(files) == 0 && len(p.byDesign) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<memory kind=\"omitted\" source=%s>\n", inert.Attr(p.shortDir))
	if len(files) > 0 {
		if brief {
			fmt.Fprintf(&b, "Parts of this project's memory were left out to fit the %d-character cap: read the daily files and roll-ups in .claude/memory_short/ when needed.\n", p.max)
		} else {
			fmt.Fprintf(&b, "Left out to fit the %d-character cap; read them when needed:\n", p.max)
			for _, c := range files {
				var parts, names []string
				for _, w := range whatOrder {
					if n := c.n[w]; n > 0 {
						parts = append(parts, plural(n, w))
					}
				}
				for w := range c.n {
					if !slices.Contains(whatOrder, w) {
						names = append(names, w)
					}
				}
				sort.Strings(names)
				parts = append(names, parts...)
				fmt.Fprintf(&b, "- %s: %s\n", c.file, strings.Join(parts, ", "))
			}
		}
	}
	for _, d := range p.byDesign {
		b.WriteString("Not in this inject: " + d + "\n")
	}
	b.WriteString(blockClose)
	return b.String()
}

// whatOrder is the order of the note's counts.
var whatOrder = []string{"section shown only in its session's line", "section", "session", "open item",
	"open item of the roll-up", "decision of the roll-up", "session of the roll-up"}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	if strings.HasPrefix(w, "section shown") {
		return fmt.Sprintf("%d sections shown only in their session's line", n)
	}
	head, tail, ok := strings.Cut(w, " of ")
	if ok {
		return fmt.Sprintf("%d %ss of %s", n, head, tail)
	}
	return fmt.Sprintf("%d %ss", n, w)
}
