package serve

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

type skillsView struct {
	Skills []skillLink
	Dirs   []string
}

type skillLink struct {
	Name, Dir string
}

// skillRefs lists the skills of the configured folders, the first folder
// winning for a name.
func (s *Server) skillRefs() map[string]skill.Ref {
	out := map[string]skill.Ref{}
	for _, d := range s.opts.SkillsDirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, seen := out[e.Name()]; seen {
				continue
			}
			if ref, err := skill.Named(d, e.Name()); err == nil {
				out[e.Name()] = ref
			}
		}
	}
	return out
}

func (s *Server) skills(w http.ResponseWriter, r *http.Request) {
	v := skillsView{Dirs: s.opts.SkillsDirs}
	for name, ref := range s.skillRefs() {
		v.Skills = append(v.Skills, skillLink{Name: name, Dir: ref.Dir()})
	}
	sort.Slice(v.Skills, func(i, j int) bool { return v.Skills[i].Name < v.Skills[j].Name })
	s.render(w, r, "skills", "skills", "Skills", http.StatusOK, page{Data: v})
}

type skillView struct {
	Name     string
	Dir      string
	Log      []gitrepo.Commit
	From, To string
	Diff     string
	Confirm  bool // the revert's confirmation step
	Previous *gitrepo.Commit
	// Candidates are the skill's rival versions under trial, with their
	// figures; CanJudge shows the verdict buttons.
	Candidates []candidateView
	CanJudge   bool
}

// skillPage is the skill's log and candidates, without a diff: the page
// after a verdict. The caller holds s.mu.
func (s *Server) skillPage(ref skill.Ref, r *http.Request) (skillView, error) {
	v := skillView{Name: ref.Name, Dir: ref.Dir(), CanJudge: s.opts.Verdict != nil}
	var err error
	if v.Log, err = skill.Log(ref, 50); err != nil {
		return v, err
	}
	v.Candidates, err = s.candidates(ref)
	return v, err
}

func (s *Server) findSkill(r *http.Request) (skill.Ref, error) {
	name := r.PathValue("name")
	ref, ok := s.skillRefs()[name]
	if !ok {
		return ref, fmt.Errorf("no skill %q in %s", name, strings.Join(s.opts.SkillsDirs, ", "))
	}
	return ref, nil
}

// skill shows a skill's log, the diff between two of its commits (from
// and to; by default the latest against its parent), and with
// ?confirm=revert the revert's confirmation.
func (s *Server) skill(w http.ResponseWriter, r *http.Request) {
	ref, err := s.findSkill(r)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, err)
		return
	}
	s.mu.Lock()
	v, err := s.skillPage(ref, r)
	s.mu.Unlock()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	q := r.URL.Query()
	v.From, v.To = q.Get("from"), q.Get("to")
	inLog := func(h string) bool {
		for _, c := range v.Log {
			if c.Hash == h {
				return true
			}
		}
		return false
	}
	switch {
	case v.From != "" && v.To != "" && (!inLog(v.From) || !inLog(v.To)):
		err = fmt.Errorf("compare two commits of the skill's log, not %.12s and %.12s", v.From, v.To)
	case v.From != "" && v.To != "":
		v.Diff, err = skill.DiffBetween(ref, v.From, v.To)
	case len(v.Log) > 0:
		v.To = v.Log[0].Hash
		if len(v.Log) > 1 {
			v.From = v.Log[1].Hash
			v.Diff, err = skill.DiffBetween(ref, v.From, v.To)
		}
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	if q.Get("confirm") == "revert" && len(v.Log) > 1 {
		v.Confirm, v.Previous = true, &v.Log[1]
	}
	s.render(w, r, "skill", "skills", "Skill "+ref.Name, http.StatusOK, page{Data: v})
}

func (s *Server) revertPost(w http.ResponseWriter, r *http.Request) {
	ref, err := s.findSkill(r)
	if err != nil {
		s.fail(w, r, http.StatusNotFound, err)
		return
	}
	if r.PostForm.Get("confirm") != "yes" {
		http.Redirect(w, r, "/"+r.PathValue("lang")+"/skills/"+url.PathEscape(ref.Name)+"?confirm=revert", http.StatusSeeOther)
		return
	}
	s.mu.Lock()
	res, err := skill.Revert(ref, s.opts.Now())
	s.mu.Unlock()
	if errors.Is(err, skill.ErrNoPrevious) {
		s.fail(w, r, http.StatusConflict, err)
		return
	}
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	v := skillView{Name: ref.Name, Dir: ref.Dir()}
	v.Log, _ = skill.Log(ref, 50)
	s.render(w, r, "skill", "skills", "Skill "+ref.Name, http.StatusOK,
		page{Data: v, Message: fmt.Sprintf("Reverted %s to the previous version as a new commit %.12s in %s; history is kept.", ref.Name, res.Commit, filepath.Base(res.Repo))})
}

func urlQuery(s string) string { return url.QueryEscape(s) }
