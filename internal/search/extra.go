package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// KindExtra is a folder the person added to memory (search.extra_paths):
// a docs folder, an Obsidian vault kept beside the project. It is only
// read: nothing cerebro writes goes there. Its files age as long-term
// pages do (by a date in the name, else never).
const KindExtra Kind = "extra"

// ExtraRoots resolves search.extra_paths into roots: "~" and "~/…" from
// homeDir, relative paths from projectRoot. A path reached through a
// symbolic link in any of its components, itself included, is not
// followed (a repository can plant docs as a link to the person's home,
// and the folder a link points at may be anywhere: see
// [safefs.NoLinkIn]); a file or a missing folder is no root; each such
// path gets a note saying why it was left out. A folder already among
// have is not added twice.
func ExtraRoots(projectRoot, homeDir string, paths []string, have []Root) (roots []Root, notes []string) {
	seen := map[string]bool{}
	for _, r := range have {
		seen[filepath.Clean(r.Dir)] = true
	}
	for _, p := range paths {
		abs, err := expandPath(p, projectRoot, homeDir)
		if err != nil {
			notes = append(notes, fmt.Sprintf("search.extra_paths %q: %v", p, err))
			continue
		}
		if err := safefs.NoLinkIn(abs); err != nil {
			notes = append(notes, fmt.Sprintf("search.extra_paths %q: %s %v, not followed", p, abs, err))
			continue
		}
		fi, err := os.Lstat(abs)
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("search.extra_paths %q: %s does not exist", p, abs))
			continue
		case !fi.IsDir():
			notes = append(notes, fmt.Sprintf("search.extra_paths %q: %s is not a folder (name the folder that holds it)", p, abs))
			continue
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		roots = append(roots, Root{Dir: abs, Kind: KindExtra})
	}
	return roots, notes
}

func expandPath(p, projectRoot, homeDir string) (string, error) {
	switch {
	case p == "":
		return "", fmt.Errorf("empty path")
	case p == "~" || strings.HasPrefix(p, "~/"):
		if homeDir == "" {
			return "", fmt.Errorf("no home folder to expand ~ from")
		}
		return filepath.Join(homeDir, strings.TrimPrefix(p, "~")), nil
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	case projectRoot == "":
		return "", fmt.Errorf("a relative path needs a project")
	}
	return filepath.Join(projectRoot, p), nil
}
