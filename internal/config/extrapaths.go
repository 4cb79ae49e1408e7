package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// stringList reads a TOML array of strings.
func stringList(raw any) ([]string, error) {
	items, ok := raw.([]any)
	if !ok {
		if ss, ok := raw.([]string); ok {
			return ss, nil
		}
		return nil, fmt.Errorf("want a list of strings, got %#v", raw)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, got %#v", it)
		}
		out = append(out, s)
	}
	return out, nil
}

// projectPathsInside keeps, of the search.extra_paths a project file set,
// only the folders inside the project. A repository is hostile input:
// letting its config add ~/notes or / as a memory root would widen what a
// search in that checkout reads (and hands to the model) to a person's
// other folders at the repository's request. Folders outside the project
// are for the user's own file or the environment. The key is therefore
// project-internal-only in a project file.
func (e *Effective) projectPathsInside(projectRoot string) {
	if !strings.HasPrefix(e.Source("search.extra_paths"), SourceProject) {
		return
	}
	root := filepath.Clean(projectRoot)
	kept := e.Search.ExtraPaths[:0:0]
	for _, p := range e.Search.ExtraPaths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		abs = filepath.Clean(abs)
		if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || strings.HasPrefix(p, "~") {
			e.warn("%s: search.extra_paths %q lies outside the project and is ignored; a project file may add only folders inside the project (set others in %s)", e.ProjectFile, p, e.UserFile)
			continue
		}
		kept = append(kept, p)
	}
	e.Search.ExtraPaths = kept
}
