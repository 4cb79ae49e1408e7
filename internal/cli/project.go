package cli

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// projectRoot maps a directory given on the command line to its project.
func projectRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	root, err := project.Root(dir)
	if err != nil {
		return "", withHint(fmt.Errorf("find project: %w", err), "pass --project with an existing directory")
	}
	return root, nil
}
