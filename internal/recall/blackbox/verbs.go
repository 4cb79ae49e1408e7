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
	var failed func(string)
	if ans != nil {
		failed = func(e string) { ans.Error = e }
	}
	return partly(record(ans), err, failed)
}

// Relearn runs the relearn cycle; the page it writes is indexed at once
// when level 2 goes through the indexes.
func Relearn(ctx context.Context, b *Box, req RelearnRequest, now time.Time, record func(any) any) (any, error) {
	idx, _ := b.Text.(Indexer)
	res, err := b.Relearn(ctx, req, idx, now)
	var failed func(string)
	if res != nil {
		failed = func(e string) { res.Error = e }
	}
	return partly(record(res), err, failed)
}

// partly is what a verb returns: the recorded answer out, or with err the
// answer saying in its error field (failed) what part of memory failed,
// or nothing when there is no answer.
func partly(out any, err error, failed func(string)) (any, error) {
	switch {
	case err == nil:
		return out, nil
	case failed != nil:
		failed(err.Error())
		return out, err
	}
	return nil, err
}
