package skill

import (
	"fmt"
	"os"
	"path/filepath"
)

// Find is the skill name in the first of dirs that holds it (the evolving
// copy's folder first); the error of a folder that holds it broken is
// kept when no later one holds it whole.
func Find(dirs []string, name string) (Ref, error) {
	var firstErr error
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			continue
		}
		ref, err := Named(d, name)
		if err == nil {
			return ref, nil
		}
		firstErr = err
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("skill %q not found in %v", name, dirs)
	}
	return Ref{}, firstErr
}
