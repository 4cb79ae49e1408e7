package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Git's ignore rules come from three places: the .gitignore files of the
// work tree, .git/info/exclude, and the user's global excludes file
// (core.excludesfile, by default $XDG_CONFIG_HOME/git/ignore). go-git
// reads the .gitignore files itself; its reader of info/exclude goes
// through the work tree's file system, which refuses ".git" paths, so it
// never sees that file. Both others are read here — the global one from
// the folders the caller names (nothing here reads the environment) — and
// count in status ([Repo.Dirty]), [Repo.PathState] and [Repo.Ignored]
// alike.

// UserDirs are where the user's git configuration lives.
type UserDirs struct {
	Home       string // $HOME
	ConfigHome string // $XDG_CONFIG_HOME; Home/.config when empty
}

// UserDirsOf reads the user's folders from the environment getenv reads
// (HOME, else USERPROFILE; XDG_CONFIG_HOME).
func UserDirsOf(getenv func(string) string) UserDirs {
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	return UserDirs{Home: home, ConfigHome: getenv("XDG_CONFIG_HOME")}
}

// maxIgnoreBytes bounds the read of one config or ignore file.
const maxIgnoreBytes = 1 << 20

// UseUserExcludes makes the repository honour the user's global excludes
// file, as git does: a new file it covers is not a change to commit.
func (r *Repo) UseUserExcludes(u UserDirs) error {
	ps, err := userExcludes(u)
	if err != nil {
		return err
	}
	r.user = ps
	return nil
}

func userExcludes(u UserDirs) ([]gitignore.Pattern, error) {
	if u.Home == "" && u.ConfigHome == "" {
		return nil, nil
	}
	xdg := u.ConfigHome
	if xdg == "" {
		xdg = filepath.Join(u.Home, ".config")
	}
	file := filepath.Join(xdg, "git", "ignore")
	// Later files win, as in git: the XDG config, then ~/.gitconfig.
	cfgs := []string{filepath.Join(xdg, "git", "config")}
	if u.Home != "" {
		cfgs = append(cfgs, filepath.Join(u.Home, ".gitconfig"))
	}
	for _, cfg := range cfgs {
		data, err := safefs.ReadFile(cfg, maxIgnoreBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", cfg, err)
		}
		raw := config.New()
		if err := config.NewDecoder(bytes.NewReader(data)).Decode(raw); err != nil {
			return nil, fmt.Errorf("read %s: %w", cfg, err)
		}
		if v := raw.Section("core").Options.Get("excludesfile"); v != "" {
			file = expandHome(v, u.Home)
		}
	}
	data, err := safefs.ReadFile(file, maxIgnoreBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the global excludes %s: %w", file, err)
	}
	return parsePatterns(data), nil
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// excludes are the rules go-git does not read by itself: the repository's
// info/exclude, then the user's global excludes.
func (r *Repo) excludes() []gitignore.Pattern {
	var ps []gitignore.Pattern
	if st, ok := r.repo.Storer.(interface{ Filesystem() billy.Filesystem }); ok {
		if f, err := st.Filesystem().Open("info/exclude"); err == nil {
			data, _ := io.ReadAll(io.LimitReader(f, maxIgnoreBytes))
			f.Close()
			ps = parsePatterns(data)
		}
	}
	return append(ps, r.user...)
}

func parsePatterns(data []byte) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	return ps
}

// matcher is every ignore rule of the repository: info/exclude and the
// .gitignore files (go-git's reader), then the user's global excludes.
func (r *Repo) matcher() (gitignore.Matcher, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("open work tree: %w", err)
	}
	ps, err := gitignore.ReadPatterns(wt.Filesystem, nil)
	if err != nil {
		return nil, fmt.Errorf("read .gitignore: %w", err)
	}
	// The order status uses (these rules last), so this says exactly what
	// [Repo.Dirty] leaves out of a commit.
	return gitignore.NewMatcher(append(ps, r.excludes()...)), nil
}

// Ignored returns the paths (slash paths relative to the work tree) that
// the index does not track and an ignore rule covers: files git leaves out
// of every commit. A tracked file stays committed even when a rule covers
// it later, as in git, so it is never listed.
func (r *Repo) Ignored(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	tracked := map[string]bool{}
	for _, e := range idx.Entries {
		tracked[e.Name] = true
	}
	m, err := r.matcher()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		p = strings.Trim(filepath.ToSlash(p), "/")
		if p == "" || tracked[p] {
			continue
		}
		if ignoredBy(m, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

func ignoredBy(m interface{ Match([]string, bool) bool }, p string) bool {
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		if m.Match(parts[:i], i < len(parts)) {
			return true
		}
	}
	return false
}
