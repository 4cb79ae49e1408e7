package inject

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/timeline"
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
	whatLong // CORE or the plan-fact status, a block of its own
)

// piece is a unit of the inject the budget takes whole or not at all.
type piece struct {
	out   int // its block
	text  string
	keys  []string // what it hands, for [Given]
	needs []int    // pieces that must come with it (its heading, its line)
	full  int      // a line's section whole (-1: none)
	line  int      // a section's line (-1: none)
	items []int    // a line's open items
	file  string   // where it comes from, for the note
	what  what
	name  string // a whole block's name in the note (CORE.md, the roll-up)
	taken bool
	cut   bool // the newest section, cut to fit
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
	return fmt.Sprintf("<memory kind=%q source=%q%s>\n", ob.b.kind, ob.b.source, ob.b.label) + ob.preface
}

const blockClose = "</memory>\n\n"

// plan is the inject's pieces and the order the budget goes to them.
type plan struct {
	blocks   []outBlock
	pieces   []piece
	long     []int // CORE and plan-fact: first
	newest   int   // the newest section whole: next (-1: none)
	order    []int // then these, each if it fits
	upgrades []int // then these lines become their sections whole
	late     []int // then these
	byDesign []string
	shortDir string
	max      int
	weekHead int // the roll-up's heading (-1: none)
	week     *weekInfo
}

func (p *plan) init() { p.newest, p.weekHead = -1, -1 }

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

// addPiece adds x; a line and its section are paired after both exist.
func (p *plan) addPiece(x piece) int {
	x.full, x.line = -1, -1
	p.pieces = append(p.pieces, x)
	return len(p.pieces) - 1
}

// addLine adds a session's line and, under it, its open items that no
// later section closed (those the session was handed before left out).
func (p *plan) addLine(out int, rel string, ses timeline.Session, tr *timeline.Tracker, had func(string) bool) int {
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
		i := p.addPiece(piece{out: out, text: text + "\n", keys: []string{it.Ref()}, needs: []int{l}, file: rel, what: whatItem})
		p.pieces[l].items = append(p.pieces[l].items, i)
	}
	return l
}

// itemRunes bounds an open item in a line.
const itemRunes = 300

// withItems is a line followed by its items, in budget order.
func (p *plan) withItems(l int) []int { return append([]int{l}, p.pieces[l].items...) }

// first makes piece f the newest section, whole or cut.
func (p *plan) first(f int) { p.newest = f }

// cost is what taking i adds: its text, what it needs that is not taken,
// and its block's frame when the block has nothing yet.
func (p *plan) cost(i int, used map[int]bool) int {
	return p.costSeen(i, used, map[int]bool{})
}

func (p *plan) costSeen(i int, used, seen map[int]bool) int {
	if p.pieces[i].taken || seen[i] {
		return 0
	}
	seen[i] = true
	c := runes(p.pieces[i].text)
	if out := p.pieces[i].out; !used[out] && !seen[-1-out] {
		seen[-1-out] = true
		c += p.blocks[out].overhead()
	}
	for _, n := range p.pieces[i].needs {
		c += p.costSeen(n, used, seen)
	}
	return c
}

func (p *plan) take(i int, used map[int]bool) {
	if p.pieces[i].taken {
		return
	}
	p.pieces[i].taken = true
	used[p.pieces[i].out] = true
	for _, n := range p.pieces[i].needs {
		p.take(n, used)
	}
}

// allocate spends left on the pieces in their order.
func (p *plan) allocate(left int) {
	for i := range p.pieces {
		p.pieces[i].taken = false
	}
	used := map[int]bool{}
	try := func(i int) {
		if c := p.cost(i, used); c <= left {
			p.take(i, used)
			left -= c
		}
	}
	for _, i := range p.long {
		try(i)
	}
	if f := p.newest; f >= 0 {
		if c := p.cost(f, used); c <= left {
			p.take(f, used)
			left -= c
		} else if room := left - p.blocks[p.pieces[f].out].overhead() - runes(cutMark); room > 0 {
			// The newest section alone overflows: keep its head, cut at
			// a line boundary.
			x := &p.pieces[f]
			if !x.cut {
				x.text, x.cut = strings.TrimRight(cutRunes(x.text, room), "\n")+cutMark, true
			} else if runes(x.text) > room+runes(cutMark) {
				x.text = strings.TrimRight(cutRunes(strings.TrimSuffix(x.text, cutMark), room), "\n") + cutMark
			}
			left -= p.cost(f, used)
			p.take(f, used)
		}
	}
	for _, i := range p.order {
		if x := p.pieces[i]; x.what == whatItem && !p.pieces[x.needs[0]].taken {
			continue
		}
		try(i)
	}
	for _, l := range p.upgrades {
		x := p.pieces[l]
		f := x.full
		if f < 0 {
			continue
		}
		if !x.taken {
			try(f)
			continue
		}
		gain := runes(x.text)
		for _, it := range x.items {
			if p.pieces[it].taken {
				gain += runes(p.pieces[it].text)
			}
		}
		if runes(p.pieces[f].text)-gain <= left {
			left += gain - runes(p.pieces[f].text)
			p.pieces[l].taken = false
			for _, it := range x.items {
				p.pieces[it].taken = false
			}
			p.pieces[f].taken = true
		}
	}
	for _, i := range p.late {
		try(i)
	}
}

const cutMark = "\n…(cut)\n\n"

// fit takes what the budget holds and says what it left out, within max
// in all, and returns the text and the keys handed.
func (p *plan) fit(max int) (string, []string) {
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
	any := false
	for _, bi := range order {
		ob := p.blocks[bi]
		var body strings.Builder
		for i, x := range p.pieces {
			if x.out != bi || !x.taken {
				continue
			}
			body.WriteString(x.text)
			gave = append(gave, p.pieces[i].keys...)
		}
		if body.Len() == 0 {
			continue
		}
		any = true
		if ob.raw {
			s.WriteString(body.String())
			continue
		}
		s.WriteString(ob.open())
		s.WriteString(strings.TrimRight(body.String(), "\n") + "\n")
		s.WriteString(blockClose)
	}
	if !any && note == "" {
		return "", nil
	}
	s.WriteString(note)
	return strings.TrimRight(s.String(), "\n") + "\n", gave
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
	add := func(file, what string) {
		c := at[file]
		if c == nil {
			c = &count{file: file, n: map[string]int{}}
			at[file] = c
			files = append(files, c)
		}
		c.n[what]++
	}
	for _, x := range p.pieces {
		if x.taken && !x.cut {
			continue
		}
		switch x.what {
		case whatSection:
			switch {
			case x.cut:
				add(x.file, "the rest of the newest section")
			case x.line >= 0 && p.pieces[x.line].taken:
				add(x.file, "section shown as one line")
			case x.line < 0:
				add(x.file, "section")
			}
		case whatLine:
			if x.full < 0 || !p.pieces[x.full].taken {
				add(x.file, "session")
			}
		case whatItem:
			if line := p.pieces[x.needs[0]]; line.full < 0 || !p.pieces[line.full].taken {
				add(x.file, "open item")
			}
		case whatWeek, whatLong:
			add(x.file, x.name)
		case whatWeekOpen, whatWeekDecision, whatWeekSession:
			// Counted one by one only beside the roll-up's heading;
			// without it the whole roll-up is named.
			if p.weekHead >= 0 && p.pieces[p.weekHead].taken {
				add(x.file, map[what]string{whatWeekOpen: "open item of the roll-up", whatWeekDecision: "decision of the roll-up",
					whatWeekSession: "session of the roll-up"}[x.what])
			}
		}
	}
	if len(files) == 0 && len(p.byDesign) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<memory kind=\"omitted\" source=%q>\n", p.shortDir)
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
var whatOrder = []string{"the rest of the newest section", "section shown as one line", "section", "session", "open item",
	"open item of the roll-up", "decision of the roll-up", "session of the roll-up"}

func plural(n int, w string) string {
	if w == "the rest of the newest section" {
		return w
	}
	if n == 1 {
		return "1 " + w
	}
	if strings.HasPrefix(w, "section shown") {
		return fmt.Sprintf("%d sections shown as one line each", n)
	}
	head, tail, ok := strings.Cut(w, " of ")
	if ok {
		return fmt.Sprintf("%d %ss of %s", n, head, tail)
	}
	return fmt.Sprintf("%d %ss", n, w)
}
