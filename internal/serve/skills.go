package serve

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

type skillsView struct {
	Groups []skillGroup
}

// skillGroup is one folder of skills: the project's evolving copies, the
// plugin's own, or a folder given with --skills-dir.
type skillGroup struct {
	SkillsDir
	Skills []skillLink
}

type skillLink struct {
	Name, Dir string
	// Description is the frontmatter's, in the page's language when the
	// translation holds it (the plugin's own skills); OwnWords says it is
	// the skill's own text, shown as written on a page in another language.
	Description string
	OwnWords    bool
	Shadowed    bool // a folder before this one has a skill of the same name, which is the one used
}

// SkillsDir is a folder of skills and whose it is: "project", "plugin" or
// "folder".
type SkillsDir struct {
	Dir, Source string
}

// SourcePlugin marks the plugin's own skills: shown read-only, never
// versioned or reverted from the page (their history is the plugin's
// development, and their folder the plugin's checkout).
const SourcePlugin = "plugin"

// namedSkill is a skill the pages can open, and whose it is.
type namedSkill struct {
	skill.Ref
	Source string
}

// Plugin says the skill is the plugin's own, read-only here.
func (n namedSkill) Plugin() bool { return n.Source == SourcePlugin }

// skillRefs lists the skills of the project's folders, the first folder
// winning for a name (the project's copy evolves; the plugin's is the
// seed it started from).
func (s *Server) skillRefs(root string) map[string]namedSkill {
	out := map[string]namedSkill{}
	for _, g := range s.skillGroups(root, en) {
		for _, sk := range g.Skills {
			if !sk.Shadowed {
				if ref, err := skill.Named(g.Dir, sk.Name); err == nil {
					out[sk.Name] = namedSkill{ref, g.Source}
				}
			}
		}
	}
	return out
}

// skillGroups reads each folder's skills: a skill is a folder holding
// SKILL.md; its description comes from the file's frontmatter.
func (s *Server) skillGroups(root string, l *language) []skillGroup {
	var out []skillGroup
	seen := map[string]bool{}
	for _, d := range s.opts.SkillsDirs(root) {
		g := skillGroup{SkillsDir: d}
		ents, err := safefs.ReadDir(d.Dir)
		if err == nil {
			for _, e := range ents {
				if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
					continue
				}
				ref, err := skill.Named(d.Dir, e.Name())
				if err != nil {
					continue
				}
				data, err := safefs.ReadFile(ref.File, maxFileBytes)
				if err != nil {
					continue
				}
				pg := wiki.ParsePage("SKILL.md", data)
				desc, _ := pg.Meta["description"].(string)
				link := skillLink{Name: e.Name(), Description: desc, Dir: ref.Dir(), Shadowed: seen[e.Name()]}
				if d.Source == SourcePlugin {
					link.Description = l.T(desc)
				}
				link.OwnWords = l != en && link.Description == desc && desc != ""
				g.Skills = append(g.Skills, link)
				seen[e.Name()] = true
			}
		}
		sort.Slice(g.Skills, func(i, j int) bool { return g.Skills[i].Name < g.Skills[j].Name })
		out = append(out, g)
	}
	return out
}

func (s *Server) skills(w http.ResponseWriter, r *http.Request, q *req) {
	v := skillsView{Groups: s.skillGroups(q.p.Root, q.lang)}
	s.render(w, r, q, "skills", "skills", q.lang.T("Skills"), http.StatusOK, page{Data: v})
}

type skillView struct {
	Name     string
	Dir      string
	Plugin   bool          // the plugin's own skill: its text only, read-only
	Text     template.HTML // SKILL.md rendered, frontmatter aside
	Meta     []metaField
	NoLog    string // why there is no history (a plugin copy outside git)
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

// skillPage is the skill's text, log and candidates, without a diff: the
// page after a verdict. A plugin skill is its text alone: the history of
// the folder it lives in is the plugin's development, not the person's
// versions, and nothing on the page may change the plugin's checkout.
// The caller holds s.mu.
func (s *Server) skillPage(q *req, sk namedSkill) (skillView, error) {
	ref := sk.Ref
	v := skillView{Name: ref.Name, Dir: ref.Dir(), Plugin: sk.Plugin(), CanJudge: s.opts.Verdict != nil && !sk.Plugin()}
	if data, err := safefs.ReadFile(ref.File, maxFileBytes); err == nil {
		pg := wiki.ParsePage("SKILL.md", data)
		v.Meta = metaFields(pg.Meta)
		v.Text = s.markdown(q, nil, "").render(pg.Body)
	}
	if v.Plugin {
		return v, nil
	}
	var err error
	if v.Log, err = skill.Log(ref, 50); errors.Is(err, gitrepo.ErrNoRepo) {
		// A plugin installed into Claude Code's cache is no repository;
		// its first edit makes one (skill.Commit).
		v.NoLog = q.lang.T("not versioned yet: the first edit of this skill starts its history")
		return v, nil
	} else if err != nil {
		return v, err
	}
	v.Candidates, err = s.candidates(q.p.Root, ref)
	return v, err
}

func (s *Server) findSkill(r *http.Request, q *req) (namedSkill, error) {
	name := r.PathValue("name")
	ref, ok := s.skillRefs(q.p.Root)[name]
	if !ok {
		var dirs []string
		for _, d := range s.opts.SkillsDirs(q.p.Root) {
			dirs = append(dirs, d.Dir)
		}
		return ref, fmt.Errorf(q.lang.T("no skill %q in %s"), name, strings.Join(dirs, ", "))
	}
	return ref, nil
}

// skill shows a skill's log, the diff between two of its commits (from
// and to; by default the latest against its parent), and with
// ?confirm=revert the revert's confirmation.
func (s *Server) skill(w http.ResponseWriter, r *http.Request, q *req) {
	sk, err := s.findSkill(r, q)
	if err != nil {
		s.fail(w, r, q, http.StatusNotFound, err)
		return
	}
	ref := sk.Ref
	s.mu.Lock()
	v, err := s.skillPage(q, sk)
	s.mu.Unlock()
	if err != nil {
		s.fail(w, r, q, http.StatusInternalServerError, err)
		return
	}
	qs := r.URL.Query()
	v.From, v.To = qs.Get("from"), qs.Get("to")
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
		err = fmt.Errorf(q.lang.T("compare two commits of the skill's log, not %.12s and %.12s"), v.From, v.To)
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
		s.fail(w, r, q, http.StatusBadRequest, err)
		return
	}
	if qs.Get("confirm") == "revert" && len(v.Log) > 1 {
		v.Confirm, v.Previous = true, &v.Log[1]
	}
	s.render(w, r, q, "skill", "skills", q.lang.T("Skill")+" "+ref.Name, http.StatusOK, page{Data: v})
}

func (s *Server) revertPost(w http.ResponseWriter, r *http.Request, q *req) {
	sk, err := s.findSkill(r, q)
	if err != nil {
		s.fail(w, r, q, http.StatusNotFound, err)
		return
	}
	ref := sk.Ref
	if sk.Plugin() {
		// Refused here, not only hidden on the page: a revert would commit
		// into the plugin's checkout.
		s.fail(w, r, q, http.StatusForbidden, fmt.Errorf(q.lang.T("%s is the plugin's own skill: it is shown read-only, and reverting it would change the plugin's checkout"), ref.Name))
		return
	}
	if r.PostForm.Get("confirm") != "yes" {
		p := page{Lang: q.lang.code, Project: q.p}
		if q.p.ID != s.opts.Start.ID {
			p.query = "project=" + q.p.ID
		}
		http.Redirect(w, r, p.U("/skills/"+url.PathEscape(ref.Name), "confirm", "revert"), http.StatusSeeOther)
		return
	}
	s.mu.Lock()
	res, err := skill.Revert(ref, s.opts.Now())
	s.mu.Unlock()
	if errors.Is(err, skill.ErrNoPrevious) {
		s.fail(w, r, q, http.StatusConflict, err)
		return
	}
	if err != nil {
		s.fail(w, r, q, http.StatusInternalServerError, err)
		return
	}
	s.mu.Lock()
	v, _ := s.skillPage(q, sk)
	s.mu.Unlock()
	s.render(w, r, q, "skill", "skills", q.lang.T("Skill")+" "+ref.Name, http.StatusOK,
		page{Data: v, Message: q.lang.F("Reverted %s to the previous version as a new commit %.12s in %s; history is kept.", ref.Name, res.Commit, filepath.Base(res.Repo))})
}
