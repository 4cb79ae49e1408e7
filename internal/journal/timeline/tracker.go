package timeline

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

// Item is an open item carried forward: raised in a section's Open list
// and not closed by any later section.
type Item struct {
	Text    string
	Date    string // the day it was last raised
	Since   string // the day it was first raised
	Session string // the session that last raised it ("" for a hand-written section)
	Key     string // the section that last raised it
	id      ident
	intent  string // the action it names (ItemIntent), "" for none
	raised  []ref  // every section and text that raised it
}

// Ref names the item across injects: the section that last raised it and
// its text.
func (it Item) Ref() string {
	sum := sha256.Sum256([]byte(it.Key + "\x00" + it.Text))
	return "open:" + hex.EncodeToString(sum[:10])
}

type ref struct{ key, text string }

// Tracker follows open items and failures through sections read in time
// order.
type Tracker struct {
	open     []*Item
	closed   map[ref]string // → the key of the section that closed it
	failures []failure      // Not done items no later section closed
}

// failure is a Not done item of a section.
type failure struct {
	ref    ref
	intent string
}

// Add reads the next section: what it did closes the open items and the
// failures of earlier sections it matches (its Done items by the rules of
// same.go; what it did by intent, closure.go; the done lines of its final
// message), then each of its Open items replaces the same item raised
// earlier (one item, in its newest words) or is added, and its Not done
// items are followed as failures. Items of one section never close each
// other: the distiller already left out what the segment itself resolved.
func (t *Tracker) Add(s Section) {
	if t.closed == nil {
		t.closed = map[ref]string{}
	}
	done := append(s.Entry.Items(daily.HeadDone), finalDone(s.Entry)...)
	var succ []string
	if len(t.open) > 0 || len(t.failures) > 0 {
		succ = succeeded(s.Entry) // what there is nothing to close with is not read
	}
	if (len(done) > 0 || len(succ) > 0 || s.Entry.Marked) && len(t.open) > 0 {
		ids := make([]ident, len(done))
		for i, d := range done {
			ids[i] = identify(d)
		}
		kept := t.open[:0]
		for _, it := range t.open {
			closed := closesIntent(it.intent, succ) || answers(s, it)
			for i, d := range done {
				if closed {
					break
				}
				closed = it.id.closedBy(d, ids[i])
			}
			if closed {
				for _, r := range it.raised {
					t.closed[r] = s.Key
				}
				continue
			}
			kept = append(kept, it)
		}
		t.open = kept
	}
	if len(succ) > 0 && len(t.failures) > 0 {
		kept := t.failures[:0]
		for _, f := range t.failures {
			if closesIntent(f.intent, succ) {
				t.closed[f.ref] = s.Key
				continue
			}
			kept = append(kept, f)
		}
		t.failures = kept
	}
	for _, text := range s.Entry.Items(daily.HeadNotDone) {
		if in := ItemIntent(text); in != "" {
			t.failures = append(t.failures, failure{ref: ref{s.Key, text}, intent: in})
		}
	}
	for _, text := range s.Entry.Items(daily.HeadOpen) {
		it := &Item{Text: text, Date: s.Date, Since: s.Date, Session: s.Entry.SessionID, Key: s.Key, id: identify(text), intent: ItemIntent(text), raised: []ref{{s.Key, text}}}
		if !s.Entry.Marked {
			it.Session = ""
		}
		replaced := false
		for i, old := range t.open {
			if old.Key != s.Key && old.id.same(it.id) {
				it.Since, it.raised = old.Since, append(old.raised, it.raised...)
				t.open[i] = it
				replaced = true
				break
			}
		}
		if !replaced {
			t.open = append(t.open, it)
		}
	}
}

// Open returns the items still open, in the order first raised.
func (t *Tracker) Open() []Item {
	out := make([]Item, len(t.open))
	for i, it := range t.open {
		out[i] = *it
		out[i].raised = nil
	}
	return out
}

// Closed reports whether the open item or the failure text of the
// section key was closed by a later section (itself, or the same item
// raised again), and by which.
func (t *Tracker) Closed(key, text string) (by string, ok bool) {
	by, ok = t.closed[ref{key, text}]
	return by, ok
}

// StillOpen counts the open items last raised by the sections keys.
func (t *Tracker) StillOpen(keys []string) int {
	n := 0
	for _, it := range t.open {
		for _, k := range keys {
			if it.Key == k {
				n++
				break
			}
		}
	}
	return n
}

// finalDone are the lines of a section's final message that say
// something was done ("✅ Tests pass", "Fixed the parser"): the session's
// word that an open item named there is closed.
func finalDone(e daily.Entry) []string {
	var out []string
	for _, l := range e.Items(daily.HeadFinal) {
		for _, p := range doneOpeners {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

var doneOpeners = []string{"✅", "✓", "☑", "Done", "Fixed", "Added", "Implemented", "Completed", "Created", "Updated", "Removed",
	"Committed", "Pushed", "Resolved", "Готово", "Исправил", "Добавил", "Сделал"}

// answers reports whether section s answers the request open item it
// left unanswered: s is a later section of the same session that opens
// on replies to a request an earlier section holds (the flush fell
// between the request and its answer), or holds only replies.
func answers(s Section, it *Item) bool {
	if !s.Entry.Marked || it.Session == "" || it.Session != s.Entry.SessionID || it.Key == s.Key {
		return false
	}
	if !strings.HasPrefix(it.Text, "unanswered: ") && !strings.HasPrefix(it.Text, "interrupted, not resolved: ") {
		return false
	}
	asked := s.Entry.Items(daily.HeadAsked)
	return len(asked) > 0 && asked[0] == AskedBefore || len(asked) == 0 && len(s.Entry.Items(daily.HeadFinal)) > 0
}
