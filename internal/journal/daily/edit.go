package daily

import (
	"sort"
	"strings"
)

// TextWithout is [Entry.Text] without the "- " items for which drop
// reports true (given the subsection's heading as the section writes it
// and the item), and without a subsection's heading once none of its
// items is left. Readers use it to show a section without what a later
// one made untrue (an open item closed since, a failure fixed since); the
// file is never changed.
func (e Entry) TextWithout(drop func(head, item string) bool) string {
	text := e.Text()
	var cut []span
	var f fence
	in, heading, kept, head := false, span{}, 0, ""
	closeSub := func() {
		if in && kept == 0 {
			cut = append(cut, heading)
		}
		in = false
	}
	for off := 0; off < len(text); {
		l, next := line(text, off)
		from := off
		off = next
		if f.step(l) {
			if in {
				kept++ // fenced text under the heading keeps it
			}
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "### "):
			closeSub()
			in, heading, kept, head = true, span{from, next}, 0, strings.TrimSpace(t[4:])
		case headingLevel(t) > 0:
			closeSub()
		case in && strings.HasPrefix(t, "- "):
			if item := strings.TrimSpace(t[2:]); item != "" && drop(head, item) {
				cut = append(cut, span{from, next})
			} else {
				kept++
			}
		case in && t != "":
			kept++
		}
	}
	closeSub()
	if len(cut) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	// A subsection's heading is cut after its items were seen.
	sort.Slice(cut, func(i, j int) bool { return cut[i].from < cut[j].from })
	for _, c := range cut {
		b.WriteString(text[at:c.from])
		at = c.to
	}
	b.WriteString(text[at:])
	return b.String()
}

// span is a byte range of a section's text.
type span struct{ from, to int }
