package search

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// MemorySetup says which of a project's memory a caller searches and
// with which settings; [OpenMemory] makes the [Memory] of it. `memhook
// index`, `search` and `get`, recall's text levels, the web app and the
// MCP tools all open memory this one way, so they search alike:
//
//	m, notes, err := search.OpenMemory(search.MemorySetup{Project: root, Scope: "all", Config: eff, ...})
type MemorySetup struct {
	Project string // the project root
	// Root, when set, is the one folder of Markdown files searched (the
	// commands' --root); Scope is then unused.
	Root     string
	Scope    string
	Config   *config.Effective // the project's settings
	IndexDir string            // the state dir's index folder
	Desk     string            // the desk's folder ($CEREBRO_HOME), the org's memory
	Registry string            // the desk's registry, for scopes projects and everything
	// Getenv reads HOME (Claude Code's auto-memory), the embedding
	// provider's API key and the desk's other projects' settings.
	Getenv func(string) string
}

// SetupError is a setup the user can put right; Hint says how.
type SetupError struct {
	Err  error
	hint string
}

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Hint says what the user can do.
func (e *SetupError) Hint() string { return e.hint }

// OpenMemory resolves the roots in scope (with the project's
// search.extra_paths, except for the org's scope), the embedder and the
// ranking settings, and for a scope across projects the desk read from
// the registry. The notes name the extra paths left out, and why.
func OpenMemory(s MemorySetup) (*Memory, []string, error) {
	cfg := s.Config
	var roots []Root
	var notes []string
	if s.Root != "" {
		abs, err := filepath.Abs(s.Root)
		if err != nil {
			return nil, nil, fmt.Errorf("resolve --root %s: %w", s.Root, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, nil, &SetupError{fmt.Errorf("memory root %s is not a directory", s.Root), "pass --root with an existing folder of Markdown files"}
		}
		roots = []Root{{Dir: abs, Kind: KindDir}}
	} else {
		sc, err := ParseScope(s.Scope)
		if err != nil {
			return nil, nil, &SetupError{err, "use --scope project, org, all, projects or everything"}
		}
		roots = Roots(s.Project, s.Desk, s.Getenv("HOME"), sc)
		if sc != ScopeOrg {
			var extra []Root
			extra, notes = ExtraRoots(s.Project, s.Getenv("HOME"), cfg.Search.ExtraPaths, roots)
			roots = append(roots, extra...)
		}
	}
	params, err := s.params(cfg)
	if err != nil {
		return nil, nil, &SetupError{fmt.Errorf("configure embeddings: %w", err), "set embedding.provider to ollama, openai or nothing"}
	}
	m := &Memory{Base: s.Project, Roots: roots, IndexDir: s.IndexDir, Params: params,
		Options: RankOptions(cfg, s.Project, params.Embedder), UpdateBudget: time.Duration(cfg.Search.UpdateBudgetMS) * time.Millisecond}
	if sc, _ := ParseScope(s.Scope); s.Root == "" && sc.Across() {
		if m.Desk, err = s.desk(); err != nil {
			return nil, nil, err
		}
	}
	return m, notes, nil
}

// params are a project's index parameters: any other would rebuild its
// indexes.
func (s MemorySetup) params(cfg *config.Effective) (Params, error) {
	e := cfg.Embedding
	key := ""
	if e.APIKeyEnv != "" {
		key = s.Getenv(e.APIKeyEnv)
	}
	emb, err := NewEmbedder(EmbedConfig{
		Provider: e.Provider, URL: e.URL, Model: e.Model, APIKey: key,
		Timeout: time.Duration(e.TimeoutSeconds) * time.Second,
	})
	if err != nil {
		return Params{}, err
	}
	return Params{ChunkTokens: cfg.Search.ChunkTokens, OverlapTokens: cfg.Search.OverlapTokens, Embedder: emb, NoteBytes: cfg.Limits.NoteBytes}, nil
}

// RankOptions maps the search.* settings onto the options of a search
// (Limit and Now are the caller's).
func RankOptions(cfg *config.Effective, base string, emb Embedder) Options {
	c := cfg.Search
	return Options{
		CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor, SnippetChars: c.SnippetChars,
		MMR: c.MMR, MMRLambda: c.MMRLambda, VectorWeight: c.VectorWeight, TextWeight: c.TextWeight,
		DateBoost: c.DateBoost, Embedder: emb, Base: base, Citations: c.Citations,
	}
}
