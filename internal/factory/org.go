package factory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// OpenOrg opens the desk's vault for a command that only changes what is
// in it (org rm): a vault that is not there is an error with the hint to
// create it.
func (f *Factory) OpenOrg() (*orgvault.Vault, error) {
	return f.WithLimits(orgvault.Open(f.Paths.Home))
}

// OpenOrCreateOrg opens the desk's vault, creating it on first use
// (orgvault.Ensure). The creation is announced on stderr, so a --json
// stdout stays one object.
func (f *Factory) OpenOrCreateOrg() (*orgvault.Vault, error) {
	return f.WithLimits(orgvault.OpenOrCreate(f.Paths.Home, f.Now(), f.Err))
}

// CaseProject resolves the project an org case is drafted from: a
// directory (its project root, no name) or a registry id (its path and
// name).
func (f *Factory) CaseProject(arg string) (root, name string, err error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		root, err := f.ProjectRoot(arg)
		return root, "", err
	}
	reg, err := registry.Read(f.Paths.Registry())
	if err != nil {
		return "", "", fmt.Errorf("org ingest: read the registry: %w", err)
	}
	if p := reg.Find(arg); p != nil {
		return p.Path, p.Name, nil
	}
	return "", "", hint.Wrap(fmt.Errorf("org ingest: %s is neither a directory nor a registered project", arg), "pass the project's path, or an id from the registry (`memhook` registers projects with long-term memory on)")
}

// PermissionsRecords is the file where `memhook permissions` keeps the
// rules it added to Claude Code's settings, beside the user's settings.
func (f *Factory) PermissionsRecords() string {
	return filepath.Join(filepath.Dir(config.UserFile(f.Getenv)), "claude-permissions.json")
}

// OrgQuery answers question from the vault v: a search of the vault's
// root through internal/search (the index and ranking `search --scope
// org` uses), the found pages named by the vault and, with links, the
// pages they link to after them (orgvault.Vault.AnswerFrom).
func (f *Factory) OrgQuery(v *orgvault.Vault, question string, limit int, links bool) (*orgvault.Answer, error) {
	m, notes, err := f.OpenMemory(v.Root, "", string(search.ScopeOrg))
	if err != nil {
		return nil, err
	}
	// More passages than pages asked for: a page's second passage, the
	// structural files and the templates are dropped from them.
	resp, err := m.Query(context.Background(), question, 3*limit+5, f.Now(), nil)
	if err != nil {
		return nil, fmt.Errorf("search the vault: %w", err)
	}
	found := make([]orgvault.Passage, 0, len(resp.Results))
	for _, r := range resp.Results {
		found = append(found, orgvault.Passage{Path: r.Path, Start: r.StartLine, End: r.EndLine, Score: r.Score, Snippet: r.Snippet})
	}
	ans, err := v.AnswerFrom(question, found, limit, links)
	if err != nil {
		return nil, err
	}
	ans.Notes = append(notes, resp.Notes...)
	return ans, nil
}
