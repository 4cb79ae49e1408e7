package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
)

// The day's model calls of extreme recall: every level-5 call, from the
// command line or the MCP server's recall tool, is counted against
// recall.extreme_daily_calls in the state dir, so no door spends what
// another would refuse. The limit is read from the user's settings only:
// a repository cannot raise what its recalls may spend.

// researchCalls is the day's count of extreme recall's calls, its limit
// recall.extreme_daily_calls from the user's settings.
func (f *Factory) researchCalls() claude.Budget {
	user := config.Load(f.Getenv, "")
	return claude.DailyBudget(f.Paths.State, claude.UseResearch, user.Recall.ExtremeDailyCalls)
}

// researchBudget wraps a researcher so that each call takes one from the
// day's budget; when the budget is spent already there is no researcher,
// and the reason says so.
func (f *Factory) researchBudget(r blackbox.Researcher) (blackbox.Researcher, string) {
	b := f.researchCalls()
	used, err := b.Used(f.Now())
	if err == nil && used >= b.Limit {
		return nil, fmt.Sprintf("the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)", b.Limit)
	}
	return budgetedResearch{r: r, now: f.Now, b: b, spent: "the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)"}, ""
}

// namingBudget is researchBudget for the call that names a table: the
// same day's count, so naming and research never spend more together
// than the user allowed.
func (f *Factory) namingBudget(r blackbox.Researcher) (blackbox.Researcher, string) {
	b := f.researchCalls()
	spent := "the day's %d model calls of memory (recall.extreme_daily_calls, shared by extreme recall and table naming) are spent"
	used, err := b.Used(f.Now())
	if err == nil && used >= b.Limit {
		return nil, fmt.Sprintf(spent, b.Limit)
	}
	return budgetedResearch{r: r, now: f.Now, b: b, spent: spent}, ""
}

type budgetedResearch struct {
	r     blackbox.Researcher
	now   func() time.Time
	b     claude.Budget
	spent string // the refusal, with the limit
}

// Call implements blackbox.Researcher.
func (b budgetedResearch) Call(ctx context.Context, prompt string, read bool) (string, error) {
	ok, err := b.b.Take(b.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf(b.spent, b.b.Limit)
	}
	return b.r.Call(ctx, prompt, read)
}
