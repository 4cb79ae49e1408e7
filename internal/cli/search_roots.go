package cli

import (
	"github.com/cerebro-mem/cerebro/internal/search"
)

// checkScopeFlag checks --scope (unused with --root) before any index is
// opened.
func checkScopeFlag(cmdName, root, scope string) error {
	if root != "" {
		return nil
	}
	scopes := []string{string(search.ScopeProject), string(search.ScopeOrg), string(search.ScopeAll)}
	if cmdName == "search" {
		// Only a search reaches the desk's other projects; their indexes
		// are theirs to bring up to date.
		scopes = append(scopes, string(search.ScopeProjects), string(search.ScopeEverything))
	}
	return checkChoice(cmdName, "scope", scope, scopes)
}
