package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/handover"
	"github.com/cerebro-mem/cerebro/internal/text/private"
)

// autoRecall adds the best few memory snippets to a prompt when
// search.auto_recall is on. It only reads indexes that already exist
// (never indexes, never calls an embedding provider) and has its own
// budget inside the hook's deadline; slash commands are left alone.
func (r *hookRun) autoRecall(ctx context.Context, sc *hookScope) ([]byte, error) {
	c := sc.cfg.Search
	if handover.Prompt(sc.cfg, r.In.Prompt) == "" {
		return nil, nil
	}
	prompt := strings.TrimSpace(private.Strip(r.In.Prompt)) // never a query either
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.AutoRecallBudget)*time.Millisecond)
	defer cancel()
	roots := search.Roots(sc.layout.Root, r.Paths.Home, r.Getenv("HOME"), search.ScopeAll)
	extra, _ := search.ExtraRoots(sc.layout.Root, r.Getenv("HOME"), c.ExtraPaths, roots) // the hook stays quiet; index and search say what was left out
	roots = append(roots, extra...)
	o := search.Options{
		Limit: c.AutoRecallLimit, CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor, SnippetChars: c.SnippetChars,
		MMR: c.MMR, MMRLambda: c.MMRLambda, DateBoost: c.DateBoost, Now: r.Now(), Base: sc.layout.Root, Citations: c.Citations,
	}
	block, err := search.AutoRecall(ctx, r.Paths.Indexes(), roots, prompt, o, c.AutoRecallScore)
	if err != nil {
		return nil, fmt.Errorf("auto-recall: %w", err)
	}
	return hook.PromptContext(block), nil
}
