package serve

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// candidateView is one candidate of a skill: the decision `memhook evolve`
// would take now with its figures, and the shadow pairs behind them.
type candidateView struct {
	ID       string
	File     string
	Since    time.Time
	Decision evolve.Decision
	Pairs    []pairView
}

// pairView is one shadow pair: the same request answered by the active
// version and by the candidate.
type pairView struct {
	ID              string
	Time            time.Time
	Request         string
	Active, Candidt *runrec.Run
}

// candidates weighs each candidate of the skill with evolve.Decide, the
// rule `memhook evolve` applies, so the page never disagrees with it.
func (s *Server) candidates(root string, ref skill.Ref) ([]candidateView, error) {
	if s.opts.Runs == nil {
		return nil, nil
	}
	cs, err := evolve.Candidates(ref)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	runs, err := s.opts.Runs(root)
	if err != nil {
		return nil, fmt.Errorf("read the run records: %w", err)
	}
	now := s.opts.Now()
	var out []candidateView
	for _, c := range cs {
		v := candidateView{ID: c.ID, File: c.File, Since: c.Since, Decision: evolve.Decide(runs, c, s.opts.Rules(root), now)}
		pairs := map[string]*pairView{}
		for i := range runs {
			x := &runs[i]
			if x.Kind != runrec.KindShadow || x.Pair == "" || len(x.Skills) == 0 || x.Skills[0].Name != ref.Name {
				continue
			}
			p := pairs[x.Pair]
			if p == nil {
				p = &pairView{ID: x.Pair, Time: x.Time, Request: x.Request}
				pairs[x.Pair] = p
			}
			switch {
			case x.Arm == runrec.ArmCandidate && x.Skills[0].Candidate == c.ID:
				p.Candidt = x
			case x.Arm == runrec.ArmActive:
				p.Active = x
			}
		}
		for _, p := range pairs {
			if p.Active != nil && p.Candidt != nil {
				v.Pairs = append(v.Pairs, *p)
			}
		}
		sort.Slice(v.Pairs, func(i, j int) bool { return v.Pairs[i].Time.After(v.Pairs[j].Time) })
		out = append(out, v)
	}
	return out, nil
}

// verdictPost records a person's verdict on one arm of a candidate's
// shadow pair, through the same function as `memhook verdict`.
func (s *Server) verdictPost(w http.ResponseWriter, r *http.Request, q *req) {
	ref, err := s.findSkill(r, q)
	if err != nil {
		s.fail(w, r, q, http.StatusNotFound, err)
		return
	}
	if s.opts.Verdict == nil {
		s.fail(w, r, q, http.StatusNotFound, errors.New(q.lang.T("verdicts are not recorded by this server")))
		return
	}
	id, verdict := r.PostForm.Get("run"), r.PostForm.Get("verdict")
	if _, err := runrec.ParseVerdict(verdict); err != nil {
		s.fail(w, r, q, http.StatusBadRequest, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, err := s.candidates(q.p.Root, ref.Ref)
	if err != nil {
		s.fail(w, r, q, http.StatusInternalServerError, err)
		return
	}
	// Only the arms this page shows can be judged from it.
	found := false
	for _, c := range cs {
		for _, p := range c.Pairs {
			found = found || p.Active.ID == id || p.Candidt.ID == id
		}
	}
	if !found {
		s.fail(w, r, q, http.StatusBadRequest, fmt.Errorf("verdict: run %q is not a shadow run of skill %s's candidates", id, ref.Name))
		return
	}
	if err := s.opts.Verdict(q.p.Root, id, verdict); err != nil {
		s.fail(w, r, q, http.StatusInternalServerError, fmt.Errorf("record the verdict: %w", err))
		return
	}
	v, err := s.skillPage(q, ref)
	if err != nil {
		s.fail(w, r, q, http.StatusInternalServerError, err)
		return
	}
	s.render(w, r, q, "skill", "skills", q.lang.T("Skill")+" "+ref.Name, http.StatusOK,
		page{Data: v, Message: q.lang.F("Verdict %s recorded for run %s.", verdict, id)})
}
