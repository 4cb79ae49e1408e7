package projectbox

import (
	"context"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// The verbs as every door answers them: the request parsed against the
// box's capabilities, answered, and the answer handed to record (the
// caller's run record, which returns what is printed: the answer with its
// run id). When part of memory took a remember or relearn and another part
// failed, the answer (its error field saying what failed) comes back with
// the error.

// Recall answers one recall request. Inside cerebro's own model call the
// answer passes the secret guard (see [Project.guard]).
func Recall(ctx context.Context, p Project, raw blackbox.Raw, record func(any) any) (any, error) {
	box, done, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer done()
	req, fates, err := blackbox.ParseRecall(raw, box.Caps())
	if err != nil {
		return nil, err
	}
	ans, err := box.Recall(ctx, req, fates, p.Now())
	if ans == nil {
		return nil, err
	}
	out := record(ans)
	if guard := p.guard(); guard != nil {
		guarded, gerr := secrets.GuardValue(out, guard)
		if gerr != nil {
			return nil, gerr // an answer that cannot be guarded is not printed
		}
		return guarded, err
	}
	return out, err
}

// Remember makes one remember request.
func Remember(ctx context.Context, p Project, raw blackbox.Raw, record func(any) any) (any, error) {
	box, done, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer done()
	req, fates, err := blackbox.ParseRemember(raw)
	if err != nil {
		return nil, err
	}
	ans, err := box.Remember(ctx, req, fates, p.Now())
	out := record(ans)
	if err != nil && ans != nil {
		ans.Error = err.Error()
		return out, err
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Relearn runs the relearn cycle; the page it writes is indexed at once
// when level 2 goes through the indexes.
func Relearn(ctx context.Context, p Project, req blackbox.RelearnRequest, record func(any) any) (any, error) {
	box, done, err := Open(p)
	if err != nil {
		return nil, err
	}
	defer done()
	idx, _ := box.Text.(blackbox.Indexer)
	res, err := box.Relearn(ctx, req, idx, p.Now())
	out := record(res)
	if err != nil && res != nil {
		res.Error = err.Error()
		return out, err
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// guard is the secret guard a recall's answer passes when the reader is
// cerebro's own model call (the research walk's answering call runs
// `memhook recall` as its only way to read memory): what it prints goes
// to the model as a tool result, past the guard its prompt passed.
// Outside a nested call it is nil: the person's own session reads what
// its own tools may read anyway.
func (p Project) guard() func(string) string {
	if p.Getenv(claude.NestedEnv) == "" && !claude.Nested(p.Environ()) {
		return nil
	}
	return shortterm.PromptGuard(p.Config)
}
