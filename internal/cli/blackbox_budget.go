package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
)

// The day's model calls of extreme recall: every level-5 call, from the
// command line or the MCP server's recall tool, is counted against
// recall.extreme_daily_calls in the state dir, so no door spends what
// another would refuse. The limit is read from the user's settings only:
// a repository cannot raise what its recalls may spend.

// researchBudgetDir holds the per-day count of extreme recall's calls.
func (f *Factory) researchBudgetDir() string { return filepath.Join(f.Paths.State, "recall") }

// researchDailyLimit is recall.extreme_daily_calls from the user's settings.
func (f *Factory) researchDailyLimit() int {
	user := config.Load(f.Getenv, "")
	return user.Recall.ExtremeDailyCalls
}

// researchBudget wraps a researcher so that each call takes one from the
// day's budget; when the budget is spent already there is no researcher,
// and the reason says so.
func (f *Factory) researchBudget(r blackbox.Researcher) (blackbox.Researcher, string) {
	limit := f.researchDailyLimit()
	used, err := shortterm.BudgetUsed(f.researchBudgetDir(), f.Now())
	if err == nil && used >= limit {
		return nil, fmt.Sprintf("the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)", limit)
	}
	return budgetedResearch{r: r, f: f, limit: limit, spent: "the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)"}, ""
}

// namingBudget is researchBudget for the call that names a table: the
// same day's count, so naming and research never spend more together
// than the user allowed.
func (f *Factory) namingBudget(r blackbox.Researcher) (blackbox.Researcher, string) {
	limit := f.researchDailyLimit()
	spent := "the day's %d model calls of memory (recall.extreme_daily_calls, shared by extreme recall and table naming) are spent"
	used, err := shortterm.BudgetUsed(f.researchBudgetDir(), f.Now())
	if err == nil && used >= limit {
		return nil, fmt.Sprintf(spent, limit)
	}
	return budgetedResearch{r: r, f: f, limit: limit, spent: spent}, ""
}

type budgetedResearch struct {
	r     blackbox.Researcher
	f     *Factory
	limit int
	spent string // the refusal, with the limit
}

// Call implements blackbox.Researcher.
func (b budgetedResearch) Call(ctx context.Context, prompt string, read bool) (string, error) {
	ok, err := shortterm.TakeBudget(b.f.researchBudgetDir(), b.f.Now(), b.limit)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf(b.spent, b.limit)
	}
	return b.r.Call(ctx, prompt, read)
}
