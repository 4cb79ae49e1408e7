package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/project"
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
	SetText     string   // the listing as the closed block shows it
	AnySet      bool     // something is set
	Open        bool     // the block is open: a scope card was added or is at fault
	Empty       bool     // the project has no memory yet: the page says how it fills
	LongOff     bool     // long-term memory is not switched on
	DoorsClosed string   // the closed doors, named in the closed block
	Scope       []scopeCard
	ScopeParams []blackbox.Param
	Doors       []blackbox.Door
	Contract    []blackbox.Param // every control and what it reaches
	FormError   string
	Sent        string // the request object sent, as JSON
	Answer      *blackbox.RecallAnswer
	Shown       *shownAnswer      // the answer as a person reads it
	ItemHTML    []template.HTML   // each item's text, Markdown rendered
	CiteHrefs   map[string]string // item id → the memory browser at the cited lines
	Raw         string            // the answer object, as JSON
	Relearned   string
}

func (s *Server) settings(w http.ResponseWriter, r *http.Request, q *req) {
	if sec := r.URL.Query().Get("section"); sec != "memory-test" {
		s.fail(w, r, q, http.StatusNotFound, fmt.Errorf(q.lang.T("no settings section %q (the playground is section=memory-test)"), sec))
		return
	}
	v := s.newPlayground(q)
	v.Text = r.URL.Query().Get("q")
	s.showPlayground(w, r, q, http.StatusOK, page{Data: v})
}

// showPlayground renders the playground with its closed block's listing.
func (s *Server) showPlayground(w http.ResponseWriter, r *http.Request, q *req, status int, p page) {
	v := p.Data.(*playgroundView)
	v.listSet(q.lang)
	s.render(w, r, q, "playground", "playground", q.lang.T("Memory playground"), status, p)
}

// listSet is what the closed "Advanced parameters" block lists: every
// parameter set and every scope record filled, so that a closed block
// never acts silently.
func (v *playgroundView) listSet(l *language) {
	set := append([]string(nil), v.AdvancedSet...)
	for _, c := range v.Scope {
		var parts []string
		if c.Calendar != "" {
			parts = append(parts, l.T(v.ScopeParams[0].Label)+" "+c.Calendar)
		}
		if c.Geo != "" {
			parts = append(parts, l.T(v.ScopeParams[1].Label)+" "+c.Geo)
		}
		if len(parts) > 0 {
			set = append(set, fmt.Sprintf("%s %d: %s", l.T("scope record"), c.N, strings.Join(parts, ", ")))
		}
	}
	v.SetText, v.AnySet = l.T("— none set"), len(set) > 0
	if len(set) > 0 {
		v.SetText = l.T("— set:") + " " + strings.Join(set, " · ")
	}
	var doors []string
	for _, d := range v.Doors {
		doors = append(doors, strings.ToLower(l.T(d.Label)))
	}
	v.DoorsClosed = strings.Join(doors, ", ")
}

func (s *Server) newPlayground(q *req) *playgroundView {
	v := &playgroundView{Doors: blackbox.Doors(), Contract: blackbox.Params(blackbox.VerbRecall), Empty: memoryEmpty(q.p.Root),
		LongOff: !project.Layout{Root: q.p.Root}.LongActive()}
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
func (s *Server) settingsPost(w http.ResponseWriter, r *http.Request, q *req) {
	v := s.newPlayground(q)
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
				shown = q.lang.T("yes")
			}
			v.AdvancedSet = append(v.AdvancedSet, q.lang.T(c.Label)+": "+shown)
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
		v.Open = true
		s.showPlayground(w, r, q, http.StatusOK, page{Data: v})
		return
	}
	raw, err := v.request(q.lang, depth)
	if err != nil {
		v.FormError = err.Error()
		v.Open = true
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity, page{Data: v})
		return
	}
	sent, _ := json.MarshalIndent(raw, "", "  ")
	v.Sent = string(sent)
	ans, err := s.recall(r.Context(), q.p, raw)
	if err != nil {
		v.FormError = err.Error()
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity, page{Data: v})
		return
	}
	v.Answer = ans
	v.CiteHrefs = s.citeHrefs(q, ans.Items)
	vt, _ := vault(q.p.Root)
	md := s.markdown(q, vt, "")
	v.Shown = showAnswer(md, ans.Answer)
	for _, it := range ans.Items {
		v.ItemHTML = append(v.ItemHTML, md.render(it.Text))
	}
	out, _ := json.MarshalIndent(ans, "", "  ")
	v.Raw = string(out)
	s.showPlayground(w, r, q, http.StatusOK, page{Data: v})
}

// request builds the request object from the form: the text, the depth,
// each advanced parameter that is set, and the scope cards that are not
// empty. A card at fault is named by its number.
func (v *playgroundView) request(l *language, depth string) (blackbox.Raw, error) {
	raw := blackbox.Raw{}
	set := func(k string, val any) {
		b, _ := json.Marshal(val)
		raw[k] = b
	}
	if strings.TrimSpace(v.Text) == "" {
		return nil, errors.New(l.T("write a phrase to ask memory"))
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
			reason = l.Note(reason)
			c.Error = reason
			return nil, fmt.Errorf("%s %d: %s", l.T("scope record"), c.N, reason)
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
func (s *Server) citeHrefs(q *req, items []blackbox.Item) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		path, from, to, ok := cite.Parse(it.Cite)
		if !ok {
			continue
		}
		if _, err := resolve(q.p.Root, path); err != nil {
			continue
		}
		out[it.ID] = s.lines(q, path, from, to)
	}
	return out
}

// recall asks memory, the way `memhook recall` does.
func (s *Server) recall(ctx context.Context, p Project, raw blackbox.Raw) (*blackbox.RecallAnswer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	box, done, err := s.opts.OpenBox(p.Root)
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
		s.offer.add(it, p.ID, req.Query)
	}
	return ans, nil
}

func (s *Server) denyPost(w http.ResponseWriter, r *http.Request, q *req) {
	id, reason := strings.TrimSpace(r.PostForm.Get("id")), strings.TrimSpace(r.PostForm.Get("reason"))
	v := s.newPlayground(q)
	if o, ok := s.offer.get(id, q.p.ID); ok {
		v.Text = o.query
	}
	if id == "" || reason == "" {
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity,
			page{Data: v, Error: q.lang.T("a denial needs the item and a reason: say why the conclusion is wrong")})
		return
	}
	s.mu.Lock()
	box, done, err := s.opts.OpenBox(q.p.Root)
	var d any
	if err == nil {
		d, err = box.Deny(id, reason, s.opts.Now())
		done()
	}
	s.mu.Unlock()
	if err != nil {
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity, page{Data: v, Error: "deny " + id + ": " + err.Error()})
		return
	}
	out, _ := json.MarshalIndent(d, "", "  ")
	v.Raw = string(out)
	s.showPlayground(w, r, q, http.StatusOK,
		page{Data: v, Message: q.lang.F("Denied %s: it is stored with your reason and not offered again for this question; the fact itself stays.", id)})
}

func (s *Server) relearnPost(w http.ResponseWriter, r *http.Request, q *req) {
	id := strings.TrimSpace(r.PostForm.Get("id"))
	summary, about := strings.TrimSpace(r.PostForm.Get("summary")), strings.TrimSpace(r.PostForm.Get("about"))
	v := s.newPlayground(q)
	o, known := s.offer.get(id, q.p.ID)
	if known {
		v.Text = o.query
	}
	switch {
	case !known:
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity,
			page{Data: v, Error: q.lang.F("relearn %s: this server did not offer that item in this project; ask the question again", id)})
		return
	case summary == "" || about == "":
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity,
			page{Data: v, Error: q.lang.T("relearn needs a summary (what came out) and the entity it is about")})
		return
	}
	artifact := fmt.Sprintf("# %s\n\nQuestion: %s\n\nAnswer (level %d, %s, %s):\n\n%s\n", about, o.query, o.item.Level, o.item.Store, o.item.Cite, o.item.Text)
	if o.item.Data != nil {
		data, _ := json.MarshalIndent(o.item.Data, "", "  ")
		artifact += "\n```json\n" + string(data) + "\n```\n"
	}
	s.mu.Lock()
	box, done, err := s.opts.OpenBox(q.p.Root)
	var res *blackbox.RelearnResult
	if err == nil {
		idx, _ := box.Text.(blackbox.Indexer)
		res, err = box.Relearn(r.Context(), blackbox.RelearnRequest{Artifact: []byte(artifact), ArtifactName: id + ".md", Summary: summary, About: about}, idx, s.opts.Now())
		done()
	}
	s.mu.Unlock()
	if err != nil {
		s.showPlayground(w, r, q, http.StatusUnprocessableEntity, page{Data: v, Error: "relearn " + id + ": " + err.Error()})
		return
	}
	out, _ := json.MarshalIndent(res, "", "  ")
	v.Raw = string(out)
	s.showPlayground(w, r, q, http.StatusOK,
		page{Data: v, Message: q.lang.F("Relearned %s as %s: the summary is a wiki page now, so the same question is cheap next time.", id, res.Object)})
}

// offers remembers the items this server showed, so that deny and relearn
// act on what the person saw.
type offers struct {
	mu    sync.Mutex
	byID  map[string]offer
	order []string
}

type offer struct {
	query   string
	project string // the project whose memory offered it
	item    blackbox.Item
}

const maxOffers = 500

func (o *offers) add(it blackbox.Item, project, query string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byID == nil {
		o.byID = map[string]offer{}
	}
	if _, seen := o.byID[it.ID]; !seen {
		o.order = append(o.order, it.ID)
	}
	o.byID[it.ID] = offer{query: query, project: project, item: it}
	for len(o.order) > maxOffers {
		delete(o.byID, o.order[0])
		o.order = o.order[1:]
	}
}

// get is an item offered in the project: deny and relearn act on the
// project that offered it, never on another.
func (o *offers) get(id, project string) (offer, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x, ok := o.byID[id]
	return x, ok && x.project == project
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
