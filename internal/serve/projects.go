package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
)

// projects are the projects this server shows: the one it was started for
// first, then the desk's registered ones by name. A registry entry must
// name an absolute folder; the same folder is listed once.
func (s *Server) projects() []Project {
	out := []Project{s.opts.Start}
	if s.opts.Projects == nil {
		return out
	}
	seen := map[string]bool{s.opts.Start.ID: true, filepath.Clean(s.opts.Start.Root): true}
	var rest []Project
	for _, p := range s.opts.Projects() {
		if p.ID == "" || !filepath.IsAbs(p.Root) || seen[p.ID] || seen[filepath.Clean(p.Root)] {
			continue
		}
		seen[p.ID], seen[filepath.Clean(p.Root)] = true, true
		if p.Name == "" {
			p.Name = filepath.Base(p.Root)
		}
		rest = append(rest, p)
	}
	sort.Slice(rest, func(i, j int) bool {
		if rest[i].Name != rest[j].Name {
			return rest[i].Name < rest[j].Name
		}
		return rest[i].ID < rest[j].ID
	})
	return append(out, rest...)
}

// project is the project a request names by id ("" or the start project's
// id: the start project). Only the listed projects are reachable; a
// request never names a folder.
func (s *Server) project(id string) (Project, error) {
	if id == "" || id == s.opts.Start.ID {
		return s.opts.Start, nil
	}
	for _, p := range s.projects() {
		if p.ID == id {
			return p, nil
		}
	}
	return s.opts.Start, fmt.Errorf("no project %q on this server: it shows %s, the project it was started for, and the org desk's registered projects", id, s.opts.Start.Name)
}

// projectInfo is one project as /api/v1/projects lists it.
type projectInfo struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Root  string `json:"root"`
	Start bool   `json:"start,omitempty"`
}

// projectsAPI lists the reachable projects as JSON: `memhook serve
// --background` asks it whether a running server can show a project.
func (s *Server) projectsAPI(w http.ResponseWriter, r *http.Request) {
	var out struct {
		Projects []projectInfo `json:"projects"`
	}
	for _, p := range s.projects() {
		out.Projects = append(out.Projects, projectInfo{ID: p.ID, Name: p.Name, Root: p.Root, Start: p.ID == s.opts.Start.ID})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
