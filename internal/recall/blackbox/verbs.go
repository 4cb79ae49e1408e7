package blackbox

import (
	"context"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// The verbs as every door answers them (`memhook recall`, `remember`,
// `relearn`, the MCP tools): the request parsed against the box's
// capabilities, answered, and the answer handed to record (the caller's
// run record, which returns what is printed: the answer with its run
// id). When part of memory took a remember or relearn and another part
// failed, the answer (its error field saying what failed) comes back with
// the error.

// Recall answers one recall request. Inside cerebro's own model call the
// answer passes the box's Guard.
func Recall(ctx context.Context, b *Box, raw Raw, now time.Time, record func(any) any) (any, error) {
	req, fates, err := ParseRecall(raw, b.Caps())
	if err != nil {
		return nil, err
	}
	ans, err := b.Recall(ctx, req, fates, now)
	if ans == nil {
		return nil, err
	}
	out := record(ans)
	if b.Guard != nil {
		guarded, gerr := secrets.GuardValue(out, b.Guard)
		if gerr != nil {
			return nil, gerr // an answer that cannot be guarded is not printed
		}
		return guarded, err
	}
	return out, err
}

// Remember makes one remember request.
func Remember(ctx context.Context, b *Box, raw Raw, now time.Time, record func(any) any) (any, error) {
	req, fates, err := ParseRemember(raw)
	if err != nil {
		return nil, err
	}
	ans, err := b.Remember(ctx, req, fates, now)
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
func Relearn(ctx context.Context, b *Box, req RelearnRequest, now time.Time, record func(any) any) (any, error) {
	idx, _ := b.Text.(Indexer)
	res, err := b.Relearn(ctx, req, idx, now)
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
