package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// projectRoot maps a directory given on the command line or by a hook to
// its project. Anything under the desk ($CEREBRO_HOME) is the desk itself,
// even when the desk sits inside another repository.
func (f *Factory) projectRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	root, err := project.RootFor(dir, f.Paths.Home)
	if err != nil {
		return "", withHint(fmt.Errorf("find project: %w", err), "pass --project with an existing directory")
	}
	return root, nil
}
