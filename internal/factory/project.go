package factory

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// RepairHint is what the person does about a registry that cannot be read.
const RepairHint = "run `memhook registry repair`: it moves the broken file aside to registry.json.corrupt-<time> and starts a new one"

// projectRootFunc maps a directory given on the command line or by a
// hook to its project, walking the folders once per directory and desk:
// a recall resolves its project for the guard, the box and the run
// record. Anything under the desk ($CEREBRO_HOME) is the desk itself,
// even when the desk sits inside another repository. A directory that
// cannot be resolved is tried again on the next call.
func projectRootFunc(f *Factory) func(string) (string, error) {
	var mu sync.Mutex
	found := map[[2]string]string{}
	return func(dir string) (string, error) {
		if dir == "" {
			dir = "."
		}
		key := [2]string{f.Paths.Home, dir}
		if abs, err := filepath.Abs(dir); err == nil {
			key[1] = abs
		}
		mu.Lock()
		defer mu.Unlock()
		if root, ok := found[key]; ok {
			return root, nil
		}
		root, err := project.RootFor(dir, f.Paths.Home)
		if err != nil {
			return "", hint.Wrap(fmt.Errorf("find project: %w", err), "pass --project with an existing directory")
		}
		found[key] = root
		return root, nil
	}
}

// ProjectRoots is the one project a command runs for, or with all every
// project the desk's registry lists.
func (f *Factory) ProjectRoots(cmdName string, all bool, dir string) ([]string, error) {
	if !all {
		root, err := f.ProjectRoot(dir)
		if err != nil {
			return nil, err
		}
		return []string{root}, nil
	}
	reg, err := registry.Read(f.Paths.Registry())
	if err != nil {
		return nil, hint.Wrap(fmt.Errorf("%s: %w", cmdName, err), "see `memhook registry` to repair the registry")
	}
	return reg.Roots(), nil
}

// UseHome makes home, when given, the desk of this run. A desk named on
// the command line must exist: a mistyped --home would otherwise get a
// fresh, empty desk tree. what names the command for the error.
func (f *Factory) UseHome(home, what string) error {
	if home == "" {
		return nil
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return fmt.Errorf("%s: resolve --home: %w", what, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return hint.Wrap(fmt.Errorf("%s: desk %s is not a folder", what, abs), "pass --home with the desk folder ($CEREBRO_HOME, default ~/cerebro)")
	}
	f.Paths.Home = abs
	return nil
}

// WithLimits gives an opened org vault the desk's limits. A project's
// reads take the limits.* of that project's settings (Config(root).Limits,
// "" for the desk's): each project of a night --all or flush --pending
// keeps its own, as no limit lives in a package variable.
func (f *Factory) WithLimits(v *orgvault.Vault, err error) (*orgvault.Vault, error) {
	if v != nil {
		l := f.Config("").Limits
		v.NoteBytes = l.NoteBytes
		v.Repo().BoundFiles(l.IngestBytes)
	}
	return v, err
}

// UseStateDir makes dir the state dir of this run, why saying where it
// came from (doctor shows it); every write stays inside the desk and it.
func (f *Factory) UseStateDir(dir, why string) {
	f.Paths.State = filepath.Clean(dir)
	f.Paths.StateWhy = why
	safefs.SetRoots(f.Paths.Home, f.Paths.State)
}
