package search

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/private"
)

// AutoRecallPrompt is the UserPromptSubmit hook's auto-recall over the
// project's and the org's memory (with the project's extra paths): the
// block [AutoRecall] makes for the prompt, within search.auto_recall_budget
// of its own. Only indexes that already exist are read; the prompt's
// <private> spans are never a query. s.Scope and s.Registry are unused.
func AutoRecallPrompt(ctx context.Context, s MemorySetup, prompt string, now time.Time) (string, error) {
	c := s.Config.Search
	prompt = strings.TrimSpace(private.Strip(prompt))
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.AutoRecallBudget)*time.Millisecond)
	defer cancel()
	roots := Roots(s.Project, s.Desk, s.Getenv("HOME"), ScopeAll)
	extra, _ := ExtraRoots(s.Project, s.Getenv("HOME"), c.ExtraPaths, roots) // the hook stays quiet; index and search say what was left out
	roots = append(roots, extra...)
	o := Options{
		Limit: c.AutoRecallLimit, CandidatePool: c.CandidatePool, HalfLifeDays: c.HalfLifeDays, RecencyFloor: c.RecencyFloor, SnippetChars: c.SnippetChars,
		MMR: c.MMR, MMRLambda: c.MMRLambda, DateBoost: c.DateBoost, Now: now, Base: s.Project, Citations: c.Citations,
	}
	block, err := AutoRecall(ctx, s.IndexDir, roots, prompt, o, c.AutoRecallScore)
	if err != nil {
		return "", fmt.Errorf("auto-recall: %w", err)
	}
	return block, nil
}
