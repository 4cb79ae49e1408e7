package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// memorySetup is what index, search and get share: the project, its
// settings, the memory roots in scope and the index parameters, and the
// searchable memory they make.
type memorySetup struct {
	project string
	cfg     *config.Effective
	roots   []search.Root
	params  search.Params
	memory  *search.Memory
	notes   []string // extra paths left out, and why
}

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

// memoryRoots resolves the roots for --project/--root/--scope. With
// --root only that directory is used.
func (f *Factory) memoryRoots(projectDir, rootDir, scope string) (*memorySetup, error) {
	proj, err := f.projectRoot(projectDir)
	if err != nil {
		return nil, err
	}
	cfg := f.Config(proj)
	s := &memorySetup{project: proj, cfg: cfg}
	if rootDir != "" {
		abs, err := filepath.Abs(rootDir)
		if err != nil {
			return nil, fmt.Errorf("resolve --root %s: %w", rootDir, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, withHint(fmt.Errorf("memory root %s is not a directory", rootDir), "pass --root with an existing folder of Markdown files")
		}
		s.roots = []search.Root{{Dir: abs, Kind: search.KindDir}}
	} else {
		sc, err := search.ParseScope(scope)
		if err != nil {
			return nil, withHint(err, "use --scope project, org, all, projects or everything")
		}
		s.roots = search.Roots(proj, f.Paths.Home, f.Getenv("HOME"), sc)
		if sc != search.ScopeOrg {
			extra, notes := search.ExtraRoots(proj, f.Getenv("HOME"), cfg.Search.ExtraPaths, s.roots)
			s.roots, s.notes = append(s.roots, extra...), notes
		}
	}
	e := cfg.Embedding
	emb, err := search.NewEmbedder(search.EmbedConfig{
		Provider: e.Provider, URL: e.URL, Model: e.Model,
		APIKey:  f.apiKey(e.APIKeyEnv),
		Timeout: time.Duration(e.TimeoutSeconds) * time.Second,
	})
	if err != nil {
		return nil, withHint(fmt.Errorf("configure embeddings: %w", err), "set embedding.provider to ollama, openai or nothing")
	}
	s.params = search.Params{ChunkTokens: cfg.Search.ChunkTokens, OverlapTokens: cfg.Search.OverlapTokens, Embedder: emb, NoteBytes: cfg.Limits.NoteBytes}
	s.memory = &search.Memory{Base: proj, Roots: s.roots, IndexDir: f.Paths.Indexes(), Params: s.params,
		Options: s.searchOptions(0, time.Time{}), UpdateBudget: time.Duration(cfg.Search.UpdateBudgetMS) * time.Millisecond}
	if sc, _ := search.ParseScope(scope); rootDir == "" && sc.Across() {
		if s.memory.Desk, err = f.desk(proj, cfg); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (f *Factory) apiKey(envName string) string {
	if envName == "" {
		return ""
	}
	return f.Getenv(envName)
}

// existing keeps the roots that exist on disk: only those have an index.
func (s *memorySetup) existing() []search.Root { return s.memory.Existing() }

// searchOptions maps the settings onto one search.
func (s *memorySetup) searchOptions(limit int, now time.Time) search.Options {
	c := s.cfg.Search
	return search.Options{
		Limit: limit, CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor, SnippetChars: c.SnippetChars,
		MMR: c.MMR, MMRLambda: c.MMRLambda, VectorWeight: c.VectorWeight, TextWeight: c.TextWeight,
		DateBoost: c.DateBoost, Now: now, Embedder: s.params.Embedder, Base: s.project, Citations: c.Citations,
	}
}
