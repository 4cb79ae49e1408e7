package inject

// How the cap's room is shared: what taking a piece costs, the order
// pieces are taken in, the details' shares, and what is dropped first.

import "github.com/cerebro-mem/cerebro/internal/text/inert"

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
		if p.pieces[i].what == whatDetail {
			p.pieces[i].text = p.pieces[i].base
		}
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
	// A session's sections come whole newest first and without a gap:
	// once one does not fit, its older ones stay in the line's detail.
	stopped := map[int]bool{}
	for _, st := range p.steps {
		if st.share {
			p.shareDetails(&left, used)
			continue
		}
		x := p.pieces[st.piece]
		switch {
		case st.widen:
			d := x.detail
			if !x.taken || !p.pieces[d].taken {
				continue
			}
			// The room left, up to the widest detail; a detail's
			// rendering adds a little to its bound, so the bound is
			// lowered until the text fits.
			if left <= 0 && !p.anyWhole(st.piece) {
				continue // nothing to widen into, nothing said twice
			}
			ses, ok := p.rest(st.piece)
			if !ok {
				continue
			}
			cur := runes(p.pieces[d].text)
			for n := min(widestDetail, cur+left); n > 0; n -= max(n/10, 20) {
				t := inert.Text(renderDetail(ses.Detail(n)))
				if extra := runes(t) - cur; extra <= left {
					p.pieces[d].text = t
					left -= extra
					break
				}
			}
		case st.upgrade:
			c := p.cost(st.piece, used)
			// The last section of a line to come whole takes the line's
			// place: what it frees counts.
			l := x.line
			if l >= 0 && stopped[l] {
				continue
			}
			last := l >= 0 && p.pieces[l].taken && p.othersWhole(l, st.piece)
			freed := 0
			if last {
				freed = p.lineSize(l)
			}
			if c-freed <= left {
				p.take(st.piece, used)
				left -= c
				if last {
					left += p.drop(l)
				}
			} else if l >= 0 {
				stopped[l] = true
			}
		default:
			if (x.what == whatItem || x.what == whatDetail) && !p.pieces[x.needs[0]].taken {
				continue
			}
			try(st.piece)
		}
	}
}

// shareDetails gives each shown line's detail an equal share of the
// room left, up to detailRunes, newest first; what a detail leaves of its
// share goes to the details after it. Breadth before depth: every
// session says a little more before one says much.
func (p *plan) shareDetails(left *int, used map[int]bool) {
	var ls []int
	for _, l := range p.lines {
		if p.pieces[l].taken && p.pieces[l].detail > 0 {
			ls = append(ls, l)
		}
	}
	for k, l := range ls {
		p.fitDetail(l, min(detailRunes, *left/(len(ls)-k)), left, used)
	}
}

// fitDetail takes line l's detail within share runes, if it fits.
func (p *plan) fitDetail(l, share int, left *int, used map[int]bool) {
	d := p.pieces[l].detail
	if runes(p.pieces[d].text) > share {
		ses, ok := p.rest(l)
		if !ok {
			return
		}
		// A detail's rendering adds a little to its bound: the bound is
		// lowered until the text fits the share.
		t := ""
		for n := share; n > 0; n -= max(n/10, 20) {
			if t = inert.Text(renderDetail(ses.Detail(n))); runes(t) <= share {
				break
			}
			t = ""
		}
		if t == "" {
			return
		}
		p.pieces[d].text = t
	}
	if c := p.cost(d, used); c <= *left {
		p.take(d, used)
		*left -= c
	}
}

// othersWhole reports whether every section of line l but f is given
// whole.
func (p *plan) othersWhole(l, f int) bool {
	for _, g := range p.pieces[l].fulls {
		if g != f && !p.pieces[g].taken {
			return false
		}
	}
	return true
}

// lineSize is what line l takes with its items and detail.
func (p *plan) lineSize(l int) int {
	n := 0
	for _, i := range p.lineParts(l) {
		if p.pieces[i].taken {
			n += runes(p.pieces[i].text)
		}
	}
	return n
}

func (p *plan) lineParts(l int) []int {
	parts := append([]int{l}, p.pieces[l].items...)
	if d := p.pieces[l].detail; d > 0 {
		parts = append(parts, d)
	}
	return parts
}

// drop leaves out line l with its items and detail, whose sections are
// all whole, and returns the room it frees.
func (p *plan) drop(l int) int {
	freed := 0
	for _, i := range p.lineParts(l) {
		if p.pieces[i].taken {
			p.pieces[i].taken = false
			freed += runes(p.pieces[i].text)
		}
	}
	return freed
}
