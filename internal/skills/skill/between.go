package skill

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// DiffBetween shows how the skill changed from commit from to commit to
// (any two of its log, in either order).
func DiffBetween(ref Ref, from, to string) (string, error) {
	r, err := gitrepo.Open(ref.Dir())
	if err != nil {
		return "", fmt.Errorf("skill %s diff: %w", ref.Name, err)
	}
	d, err := r.Diff(ref.Dir(), from, to)
	if err != nil {
		return "", fmt.Errorf("skill %s diff %.12s..%.12s: %w", ref.Name, from, to, err)
	}
	return d, nil
}
