package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
)

// control is one contract parameter drawn on the playground.
type control struct {
	blackbox.Param
	Value   string
	Checked bool
}

// depthOption is one depth word with its hint.
type depthOption struct {
	blackbox.Choice
	Checked bool
}

// scopeCard is one scope record as the person numbers it.
type scopeCard struct {
	N        int
	Calendar string
	Geo      string
	Error    string
}

// playgroundView is the playground's form and, after a run, the answer.
type playgroundView struct {
	Text        string
	Depth       []depthOption
	Advanced    []control
	AdvancedSet []string // what the collapsed block lists
	Scope       []scopeCard
	ScopeParams []blackbox.Param
	Doors       []blackbox.Door
	Contract    []blackbox.Param // every control and what it reaches
	FormError   string
	Sent        string // the request object sent, as JSON
	Answer      *blackbox.RecallAnswer
	CiteHrefs   map[string]string // item id → the memory browser at the cited lines
	Raw         string            // the answer object, as JSON
	Relearned   string
}

func (s *Server) settings(w http.ResponseWriter, r *http.Request) {
	if sec := r.URL.Query().Get("section"); sec != "memory-test" {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no settings section %q (the playground is section=memory-test)", sec))
		return
	}
	v := newPlayground()
	v.Text = r.URL.Query().Get("q")
	s.render(w, r, "playground", "playground", "Memory playground", http.StatusOK, page{Data: v})
}

func newPlayground() *playgroundView {
	v := &playgroundView{Doors: blackbox.Doors(), Contract: blackbox.Params(blackbox.VerbRecall)}
	for _, p := range blackbox.Params(blackbox.VerbRecall) {
		switch {
		case p.Name == "depth":
			for _, c := range p.Choices {
				v.Depth = append(v.Depth, depthOption{Choice: c, Checked: c.Value == p.Default})
			}
		case p.Group == blackbox.GroupAdvanced:
			v.Advanced = append(v.Advanced, control{Param: p})
		case p.Group == blackbox.GroupScope && p.Kind != blackbox.KindScope:
			v.ScopeParams = append(v.ScopeParams, p)
		}
	}
	v.Scope = []scopeCard{{N: 1}}
	return v
}

// settingsPost runs the playground's form: "add" adds a scope card, "run"
// asks memory.
func (s *Server) settingsPost(w http.ResponseWriter, r *http.Request) {
	v := newPlayground()
	f := r.PostForm
	v.Text = f.Get("text")
	depth := f.Get("depth")
	for i := range v.Depth {
		v.Depth[i].Checked = v.Depth[i].Value == depth
	}
	for i := range v.Advanced {
		c := &v.Advanced[i]
		c.Value = strings.TrimSpace(f.Get("p." + c.Name))
		if c.Kind == blackbox.KindBool {
			c.Checked = c.Value != ""
		}
		if c.Value != "" {
			shown := c.Value
			if c.Kind == blackbox.KindBool {
				shown = "yes"
			}
			v.AdvancedSet = append(v.AdvancedSet, c.Label+": "+shown)
		}
	}
	cals, geos := f["scope.calendar"], f["scope.geo"]
	v.Scope = nil
	for i := 0; i < max(len(cals), len(geos)); i++ {
		c := scopeCard{N: i + 1}
		if i < len(cals) {
			c.Calendar = strings.TrimSpace(cals[i])
		}
		if i < len(geos) {
			c.Geo = strings.TrimSpace(geos[i])
		}
		v.Scope = append(v.Scope, c)
	}
	if len(v.Scope) == 0 {
		v.Scope = []scopeCard{{N: 1}}
	}
	if f.Get("action") == "add" {
		v.Scope = append(v.Scope, scopeCard{N: len(v.Scope) + 1})
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusOK, page{Data: v})
		return
	}
	raw, err := v.request(depth)
	if err != nil {
		v.FormError = err.Error()
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity, page{Data: v})
		return
	}
	sent, _ := json.MarshalIndent(raw, "", "  ")
	v.Sent = string(sent)
	ans, err := s.recall(r.Context(), raw)
	if err != nil {
		v.FormError = err.Error()
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity, page{Data: v})
		return
	}
	v.Answer = ans
	v.CiteHrefs = s.citeHrefs(r.PathValue("lang"), ans.Items)
	out, _ := json.MarshalIndent(ans, "", "  ")
	v.Raw = string(out)
	s.render(w, r, "playground", "playground", "Memory playground", http.StatusOK, page{Data: v})
}

// request builds the request object from the form: the text, the depth,
// each advanced parameter that is set, and the scope cards that are not
// empty. A card at fault is named by its number.
func (v *playgroundView) request(depth string) (blackbox.Raw, error) {
	raw := blackbox.Raw{}
	set := func(k string, val any) {
		b, _ := json.Marshal(val)
		raw[k] = b
	}
	if strings.TrimSpace(v.Text) == "" {
		return nil, fmt.Errorf("write a phrase to ask memory")
	}
	set("text", v.Text)
	if depth != "" {
		set("depth", depth)
	}
	for _, c := range v.Advanced {
		if c.Value == "" {
			continue
		}
		switch c.Kind {
		case blackbox.KindBool:
			set(c.Name, true)
		case blackbox.KindInt:
			if n, err := strconv.Atoi(c.Value); err == nil {
				set(c.Name, n)
			} else {
				set(c.Name, c.Value) // memory answers bad_form and says why
			}
		default:
			set(c.Name, c.Value)
		}
	}
	var recs []map[string]string
	for i := range v.Scope {
		c := &v.Scope[i]
		if c.Calendar == "" && c.Geo == "" {
			continue // an empty card is not a scope
		}
		rec := map[string]string{}
		if c.Calendar != "" {
			rec["calendar"] = c.Calendar
		}
		if c.Geo != "" {
			rec["geo"] = c.Geo
		}
		b, _ := json.Marshal([]map[string]string{rec})
		if _, err := blackbox.ParseScopes(b); err != nil {
			reason := err.Error()
			if e, ok := err.(*blackbox.ScopeRecordError); ok {
				reason = e.Reason
			}
			c.Error = reason
			return nil, fmt.Errorf("scope record %d: %s", c.N, reason)
		}
		recs = append(recs, rec)
	}
	if len(recs) > 0 {
		set("scope", recs)
	}
	return raw, nil
}

// citeHrefs links each item cited as "path#Lstart-Lend" to the memory
// browser at those lines, when the path is a memory file it can show.
func (s *Server) citeHrefs(lang string, items []blackbox.Item) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		path, from, to, ok := cite.Parse(it.Cite)
		if !ok {
			continue
		}
		if _, err := s.resolve(path); err != nil {
			continue
		}
		out[it.ID] = fmt.Sprintf("/%s/memory/file?path=%s&from=%d&to=%d#L%d", lang, urlQuery(path), from, to, from)
	}
	return out
}

// recall asks memory, the way `memhook recall` does.
func (s *Server) recall(ctx context.Context, raw blackbox.Raw) (*blackbox.RecallAnswer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	box, done, err := s.opts.OpenBox()
	if err != nil {
		return nil, err
	}
	defer done()
	req, fates, err := blackbox.ParseRecall(raw, box.Caps())
	if err != nil {
		return nil, err
	}
	ans, err := box.Recall(ctx, req, fates, s.opts.Now())
	if err != nil {
		return nil, err
	}
	for _, it := range ans.Items {
		s.offer.add(it, req.Query)
	}
	return ans, nil
}

func (s *Server) denyPost(w http.ResponseWriter, r *http.Request) {
	id, reason := strings.TrimSpace(r.PostForm.Get("id")), strings.TrimSpace(r.PostForm.Get("reason"))
	v := newPlayground()
	if o, ok := s.offer.get(id); ok {
		v.Text = o.query
	}
	if id == "" || reason == "" {
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity,
			page{Data: v, Error: "a denial needs the item and a reason: say why the conclusion is wrong"})
		return
	}
	s.mu.Lock()
	box, done, err := s.opts.OpenBox()
	var d any
	if err == nil {
		d, err = box.Deny(id, reason, s.opts.Now())
		done()
	}
	s.mu.Unlock()
	if err != nil {
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity, page{Data: v, Error: "deny " + id + ": " + err.Error()})
		return
	}
	out, _ := json.MarshalIndent(d, "", "  ")
	v.Raw = string(out)
	s.render(w, r, "playground", "playground", "Memory playground", http.StatusOK,
		page{Data: v, Message: "Denied " + id + ": it is stored with your reason and not offered again for this question; the fact itself stays."})
}

func (s *Server) relearnPost(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSpace(r.PostForm.Get("id"))
	summary, about := strings.TrimSpace(r.PostForm.Get("summary")), strings.TrimSpace(r.PostForm.Get("about"))
	v := newPlayground()
	o, known := s.offer.get(id)
	if known {
		v.Text = o.query
	}
	switch {
	case !known:
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity,
			page{Data: v, Error: "relearn " + id + ": this server did not offer that item; ask the question again"})
		return
	case summary == "" || about == "":
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity,
			page{Data: v, Error: "relearn needs a summary (what came out) and the entity it is about"})
		return
	}
	artifact := fmt.Sprintf("# %s\n\nQuestion: %s\n\nAnswer (level %d, %s, %s):\n\n%s\n", about, o.query, o.item.Level, o.item.Store, o.item.Cite, o.item.Text)
	if o.item.Data != nil {
		data, _ := json.MarshalIndent(o.item.Data, "", "  ")
		artifact += "\n```json\n" + string(data) + "\n```\n"
	}
	s.mu.Lock()
	box, done, err := s.opts.OpenBox()
	var res *blackbox.RelearnResult
	if err == nil {
		idx, _ := box.Text.(blackbox.Indexer)
		res, err = box.Relearn(r.Context(), blackbox.RelearnRequest{Artifact: []byte(artifact), ArtifactName: id + ".md", Summary: summary, About: about}, idx, s.opts.Now())
		done()
	}
	s.mu.Unlock()
	if err != nil {
		s.render(w, r, "playground", "playground", "Memory playground", http.StatusUnprocessableEntity, page{Data: v, Error: "relearn " + id + ": " + err.Error()})
		return
	}
	out, _ := json.MarshalIndent(res, "", "  ")
	v.Raw = string(out)
	s.render(w, r, "playground", "playground", "Memory playground", http.StatusOK,
		page{Data: v, Message: "Relearned " + id + " as " + res.Object + ": the summary is a wiki page now, so the same question is cheap next time."})
}

// offers remembers the items this server showed, so that deny and relearn
// act on what the person saw.
type offers struct {
	mu    sync.Mutex
	byID  map[string]offer
	order []string
}

type offer struct {
	query string
	item  blackbox.Item
}

const maxOffers = 500

func (o *offers) add(it blackbox.Item, query string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byID == nil {
		o.byID = map[string]offer{}
	}
	if _, seen := o.byID[it.ID]; !seen {
		o.order = append(o.order, it.ID)
	}
	o.byID[it.ID] = offer{query: query, item: it}
	for len(o.order) > maxOffers {
		delete(o.byID, o.order[0])
		o.order = o.order[1:]
	}
}

func (o *offers) get(id string) (offer, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x, ok := o.byID[id]
	return x, ok
}

// fateRow is one parameter's fate, sorted by name for the page.
type fateRow struct {
	Name string
	blackbox.Fate
}

func fateRows(m map[string]blackbox.Fate) []fateRow {
	var out []fateRow
	for k, f := range m {
		out = append(out, fateRow{k, f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
