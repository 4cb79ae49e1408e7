package projectbox

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
// a repository cannot raise what its recalls may spend. Naming a table
// takes from the same count, so naming and research never spend more
// together than the user allowed.

// The refusals, each with the limit.
const (
	researchSpent = "the day's %d model calls for extreme recall are spent (recall.extreme_daily_calls)"
	namingSpent   = "the day's %d model calls of memory (recall.extreme_daily_calls, shared by extreme recall and table naming) are spent"
)

// dailyCalls is the day's count of extreme recall's and table naming's
// model calls, its limit recall.extreme_daily_calls from the user's
// settings (getenv's, no project file).
func dailyCalls(stateDir string, getenv func(string) string) claude.Budget {
	user := config.Load(getenv, "")
	return claude.DailyBudget(stateDir, claude.UseResearch, user.Recall.ExtremeDailyCalls)
}

// budgeted wraps a researcher so that each call takes one from the day's
// budget; when the budget is spent already there is no researcher, and
// the reason says so.
func (p Project) budgeted(r blackbox.Researcher, spent string) (blackbox.Researcher, string) {
	b := dailyCalls(p.StateDir, p.Getenv)
	used, err := b.Used(p.Now())
	if err == nil && used >= b.Limit {
		return nil, fmt.Sprintf(spent, b.Limit)
	}
	return budgetedResearch{r: r, now: p.Now, b: b, spent: spent}, ""
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
