package blackbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// DenialsFile holds every rejected inference, relative to the long-term root.
const DenialsFile = DenialsDir + "/denials.md"

// MaxOffers bounds the cache of recently offered inferences deny reads.
const MaxOffers = 500

// offer is an inference recall offered, kept so a later deny can store
// what exactly was rejected.
type offer struct {
	ID    string    `json:"id"`
	Fact  string    `json:"fact"`
	Query string    `json:"query"`
	Text  string    `json:"text"`
	Cite  string    `json:"cite,omitempty"`
	Claim *Claim    `json:"claim,omitempty"`
	At    time.Time `json:"at"`
}

var denialMarker = lazyregexp.New(`<!-- cerebro:denial ([^>]*)-->`)

// deniedSet is every rejected inference: by id (its wording and fact) and
// by claim (its entities, whatever the wording).
type deniedSet struct {
	ids    map[string]bool
	claims []Claim
}

// withholds reports whether an item is a denied inference: its id, its
// question's claim, or — for a conclusion memory drew (a relearned
// summary, a research answer) — a denied conclusion it carries, whatever
// question it was drawn for.
func (d deniedSet) withholds(it Item) bool {
	if d.ids[it.ID] {
		return true
	}
	if d.claimDenied(it.Claim) != nil {
		return true
	}
	return it.concludes() && d.carried(it.whole+"\n"+it.Text) != nil
}

// carried returns the denied claim a text carries (it names every entity
// of the claim), or nil.
func (d deniedSet) carried(text string) *Claim {
	if len(d.claims) == 0 {
		return nil
	}
	keys := entityKeys(text)
	for i := range d.claims {
		if namesAll(keys, d.claims[i].Entities) {
			return &d.claims[i]
		}
	}
	return nil
}

// claimDenied returns the denied claim covering c, or nil.
func (d deniedSet) claimDenied(c *Claim) *Claim {
	for i := range d.claims {
		if d.claims[i].covers(c) {
			return &d.claims[i]
		}
	}
	return nil
}

// denied reads the rejected inferences.
func denied(longDir string) (deniedSet, error) {
	out := deniedSet{ids: map[string]bool{}}
	f, err := safefs.Open(filepath.Join(longDir, filepath.FromSlash(DenialsFile)))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("read denials: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if m := denialMarker.FindStringSubmatch(sc.Text()); m != nil {
			a := parseAttrs(m[1])
			out.ids[a["id"]] = true
			if a["entities"] != "" {
				c := Claim{Subject: a["subject"], Relation: a["relation"], Object: a["object"], Entities: strings.Split(a["entities"], ",")}
				if c.Usable() {
					out.claims = append(out.claims, c)
				}
			}
		}
	}
	return out, sc.Err()
}

// rememberOffers adds offered inferences to the cache (state, not truth:
// losing it only makes a later denial record less of what it denies).
func rememberOffers(path string, items []Item, query string, now time.Time) error {
	if path == "" || len(items) == 0 {
		return nil
	}
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return atomicfile.WithLock(path, func() error {
		old, _ := readOffers(path)
		for _, it := range items {
			text := it.Text
			if text == "" && it.Data != nil {
				b, _ := json.Marshal(it.Data)
				text = string(b)
			}
			old = append(old, offer{ID: it.ID, Fact: it.Fact, Query: query, Text: clip(text, 600), Cite: it.Cite, Claim: it.Claim, At: now})
		}
		if len(old) > MaxOffers {
			old = old[len(old)-MaxOffers:]
		}
		var b strings.Builder
		for _, o := range old {
			line, _ := json.Marshal(o)
			b.Write(line)
			b.WriteByte('\n')
		}
		return atomicfile.Write(path, []byte(b.String()), 0o644)
	})
}

// readOffers reads cerebro's own cache (MaxOffers lines, not a
// repository's note): the default bound holds it.
func readOffers(path string) ([]offer, error) {
	data, err := safefs.ReadNote(path, safefs.DefaultNoteBytes)
	if err != nil {
		return nil, err
	}
	var out []offer
	for _, l := range strings.Split(string(data), "\n") {
		var o offer
		if json.Unmarshal([]byte(l), &o) == nil && o.ID != "" {
			out = append(out, o)
		}
	}
	return out, nil
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Denial is what deny stored.
type Denial struct {
	ID     string `json:"id"`
	Fact   string `json:"fact,omitempty"`
	Query  string `json:"query,omitempty"`
	Known  bool   `json:"known"` // the inference was found among recent offers
	Path   string `json:"path"`
	Stored bool   `json:"stored"` // false when it was already denied
	// Claim is what the denial holds against: every later inference
	// naming the same entities is withheld, whatever its words. Nil when
	// the question named fewer than two entities (then the wording and
	// fact are what is denied).
	Claim *Claim `json:"claim,omitempty"`
	// With are the facts offered in the same answer (a research answer's
	// passages): kept, and named in the denial.
	With []string `json:"with,omitempty"`
	// Summary is the relearn summary the denied inference rested on, now
	// carrying the denial, so whoever reads it later sees it was rejected.
	Summary string `json:"summary,omitempty"`
	// Carrying are the other relearn summaries that drew the same
	// conclusion (for a paraphrase of the question): they carry the
	// denial too, and recall withholds them.
	Carrying []string `json:"carrying,omitempty"`
}

// ErrBadID means the id is not an inference id.
var ErrBadID = errors.New("not an inference id (recall's items carry ids starting with inf-)")

// Deny stores a rejected inference. Nothing is deleted: neither the facts
// it rested on nor the record of the denial.
func (b *Box) Deny(id, reason string, now time.Time) (Denial, error) {
	id = strings.TrimSpace(id)
	if !infID.MatchString(id) {
		return Denial{}, fmt.Errorf("deny %q: %w", id, ErrBadID)
	}
	if strings.TrimSpace(reason) == "" {
		return Denial{}, errors.New("deny: a reason is required (what is wrong with the conclusion)")
	}
	d := Denial{ID: id, Path: DenialsFile}
	already, err := denied(b.LongDir)
	if err != nil {
		return d, err
	}
	if already.ids[id] {
		return d, nil
	}
	var o offer
	var with []offer // the other items of the same answer: what it rested on with it
	if offers, err := readOffers(b.OffersPath); err == nil {
		for i := len(offers) - 1; i >= 0; i-- {
			if offers[i].ID == id {
				o, d.Known = offers[i], true
				break
			}
		}
		for _, x := range offers {
			if d.Known && x.ID != id && x.Query == o.Query && x.At.Equal(o.At) {
				with = append(with, x)
			}
		}
	}
	d.Fact, d.Query = o.Fact, o.Query
	var claimAttrs []string
	claim, fromAnswer := o.Claim, false
	if !claim.Usable() && d.Known {
		// The question named one entity ("кто из моих друзей мог знать
		// Ельцина"): what is denied is what the answer concluded of it.
		claim, fromAnswer = conclusionOf(o.Query, o.Text), true
	}
	if claim.Usable() {
		d.Claim = claim
		claimAttrs = []string{"subject", claim.Subject, "relation", claim.Relation, "object", claim.Object, "entities", strings.Join(claim.Entities, ",")}
	}
	head := "---\ntype: denials\n---\n\n# Denied inferences\n\nConclusions a caller rejected. The facts they rested on stay; recall does not offer these inferences again.\n"
	section := fmt.Sprintf("\n## %s · %s\n<!-- cerebro:denial%s -->\n", id, now.UTC().Format(time.RFC3339), markerAttrs(append([]string{"id", id, "fact", o.Fact}, claimAttrs...)...))
	if d.Known {
		section += fmt.Sprintf("- question: %s\n- answer offered: %s\n- rested on: %s (%s), kept\n", clip(o.Query, 300), o.Text, o.Fact, orUnknown(o.Cite))
		for _, x := range with {
			section += fmt.Sprintf("- offered with it: %s (%s): %s, kept\n", x.Fact, orUnknown(x.Cite), clip(x.Text, 200))
			d.With = append(d.With, x.Fact)
		}
		if c := d.Claim; c != nil {
			from := "the question's"
			if fromAnswer {
				from = "the answer's conclusion"
			}
			section += fmt.Sprintf("- claim denied (%s): %s · %s · %s (any inference naming %s, and any relearned summary or research answer carrying it, is withheld, whatever its words)\n", from, c.Subject, orUnknown(c.Relation), c.Object, strings.Join(c.Entities, " + "))
		}
	} else {
		section += "- the inference was not among the recent offers; only its id is recorded\n"
	}
	section += "- reason: " + clip(reason, 1000) + "\n"
	if err := appendSection(filepath.Join(b.LongDir, filepath.FromSlash(DenialsFile)), head, section); err != nil {
		return d, fmt.Errorf("store denial: %w", err)
	}
	d.Stored = true
	d.Summary, d.Carrying = b.annotateSummaries(o.Fact, d.Claim, id, reason, now)
	b.chronicle(now, "deny", fmt.Sprintf("%s (fact %s) in %s", id, orUnknown(o.Fact), DenialsFile))
	return d, nil
}

// annotateSummaries appends the denial to the relearn summary pages it
// concerns: the one whose record id is fact, and every other one that
// carries the denied claim (a paraphrase's research may have drawn the
// same conclusion). A page is extended, never rewritten. It returns the
// page of fact ("" when none) and the others.
func (b *Box) annotateSummaries(fact string, claim *Claim, id, reason string, now time.Time) (string, []string) {
	dir := filepath.Join(b.LongDir, filepath.FromSlash(RelearnDir))
	pages, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	var den deniedSet
	if claim != nil {
		den.claims = []Claim{*claim}
	}
	own, others := "", []string(nil)
	for _, p := range pages {
		data, err := safefs.ReadNote(p, b.NoteBytes)
		if err != nil {
			continue
		}
		mine := strings.HasPrefix(fact, "s-") && strings.Contains(string(data), "id="+fact+" ")
		if !mine && den.carried(string(data)) == nil {
			continue
		}
		note := fmt.Sprintf("\nDenied %s (%s): %s — the conclusion drawn from this summary was rejected; the summary's facts stand.\n",
			now.UTC().Format(time.DateOnly), id, clip(reason, 500))
		if err := atomicfile.WithLock(p, func() error { return atomicfile.AppendUnlocked(p, []byte(note), 0o644) }); err != nil {
			continue
		}
		rel, _ := filepath.Rel(b.LongDir, p)
		if rel = ".claude/memory_long/" + filepath.ToSlash(rel); mine {
			own = rel
		} else {
			others = append(others, rel)
		}
	}
	return own, others
}

// infID is the shape of an answer item's id.
var infID = lazyregexp.New(`^inf-[0-9a-f]{12}$`)

// withoutDenied is the graph context without the relearned summaries that
// carry a denied conclusion (as a neighbour, a backlink or a step of a
// path), and how many refs it dropped; nil when nothing is left that
// links anything.
func (b *Box) withoutDenied(c *kgraph.Context, den deniedSet) (*kgraph.Context, int) {
	if len(den.claims) == 0 {
		return c, 0
	}
	carries := map[string]bool{}
	denies := func(name, page string) bool {
		if page == "" {
			page = RelearnDir + "/" + name + ".md"
		}
		if !strings.HasPrefix(page, RelearnDir+"/") {
			return false
		}
		if v, ok := carries[page]; ok {
			return v
		}
		data, err := safefs.ReadNote(filepath.Join(b.LongDir, filepath.FromSlash(page)), b.NoteBytes)
		v := err == nil && den.carried(string(data)) != nil
		carries[page] = v
		return v
	}
	out := &kgraph.Context{Entities: []kgraph.Entity{}, Paths: []kgraph.Path{}}
	dropped, links := 0, 0
	keep := func(refs []kgraph.Ref) []kgraph.Ref {
		kept := []kgraph.Ref{}
		for _, r := range refs {
			if denies(r.Name, r.Page) {
				dropped++
				continue
			}
			kept = append(kept, r)
		}
		links += len(kept)
		return kept
	}
	for _, e := range c.Entities {
		e.Neighbours, e.Backlinks = keep(e.Neighbours), keep(e.Backlinks)
		out.Entities = append(out.Entities, e)
	}
paths:
	for _, p := range c.Paths {
		for _, st := range p.Steps {
			if denies(st.From, "") || denies(st.To, "") {
				dropped++
				continue paths
			}
		}
		out.Paths = append(out.Paths, p)
	}
	if dropped == 0 {
		return c, 0
	}
	if links == 0 && len(out.Paths) == 0 {
		return nil, dropped
	}
	return out, dropped
}
