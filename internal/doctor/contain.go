package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"sort"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// checkContainment names what the safe file layer refuses in the project,
// the desk and the state dir: a memory folder that is a link leaving its
// root (cerebro writes nothing there, so that memory stays empty), and a
// .git in memory_long/ or the desk that is not their own repository
// (cerebro commits nothing). A cloned repository can plant either; the
// hooks skip them silently, so doctor is where a person learns of them.
func checkContainment(rep *Report, env *Env) {
	refused := 0
	check := func(root string, dirs []string) {
		for _, d := range dirs {
			fi, err := os.Lstat(d)
			if err != nil {
				continue // missing: created inside the root on first use
			}
			dd, err := safefs.OpenDir(root, d, false)
			if err == nil {
				dd.Close()
				continue
			}
			if !safefs.Refused(err) {
				continue
			}
			if st, serr := os.Stat(d); errors.Is(err, safefs.ErrNotDir) && fi.Mode()&os.ModeSymlink != 0 && serr == nil && !st.IsDir() {
				continue // a link to a file: not a folder writes go to
			}
			refused++
			what := "is not a folder"
			if fi.Mode()&os.ModeSymlink != 0 {
				target, _ := os.Readlink(d)
				what = "is a link to " + target + ", outside " + root
			}
			rep.Add("warn", "remove it (a repository may have planted it), then run `memhook doctor` again",
				"refused: %s %s; cerebro reads and writes nothing there", d, what)
		}
	}
	repo := func(dir, whose string) {
		if err := gitrepo.CheckOwn(dir); errors.Is(err, gitrepo.ErrForeign) {
			refused++
			rep.Add("warn", "remove "+filepath.Join(dir, ".git")+" (a repository may have planted it); cerebro then starts a history of its own",
				"refused: %v; cerebro commits nothing into %s", err, whose)
		}
	}
	if env.root != "" {
		l := project.Layout{Root: env.root}
		check(env.root, append([]string{filepath.Join(env.root, ".claude"), l.ShortDir(), l.DailyDir(), l.ArchiveDir(), l.LongDir()},
			subfolders(l.LongDir())...))
		repo(l.LongDir(), "long-term memory's history")
	}
	if home := env.Paths.Home; home != "" {
		check(home, append([]string{filepath.Join(home, ".claude"), env.Paths.DeskShortDir()}, subfolders(home)...))
		repo(home, "the org vault's history")
	}
	if st := env.Paths.State; st != "" {
		check(st, subfolders(st))
	}
	if refused == 0 {
		rep.Add("ok", "", "containment: every memory folder resolves inside its root (project, desk, state dir)")
	}
	if env.root != "" {
		// The notes search prints when it leaves an extra path out; the
		// hooks' auto-recall stays quiet, so doctor says it too.
		_, notes := search.ExtraRoots(env.root, env.Getenv("HOME"), env.Config(env.root).Search.ExtraPaths, nil)
		for _, n := range notes {
			rep.Add("warn", "name the folder where it really is, in your own settings (a link in its path is never followed)", "left out of search: %s", n)
		}
	}
}

// subfolders lists the entries of dir that are folders or links (sorted),
// the places a planted link would send writes.
func subfolders(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}
