// Package shortterm owns cerebro's short-term memory from hook to daily
// file: capture, the flush thresholds, the trivial rule, recovery of
// flushes that were cancelled or killed, the background flush of the claude
// distiller, redaction, the distiller's daily budget and the SessionStart
// inject. internal/cli only dispatches a hook, through the frame of
// internal/hook (decode, deadline, log, print), to the one method of
// [Memory] for the event; memhook-hot (internal/shortterm/hotpath) runs the capture
// of the per-turn hooks itself and hands memhook the rest.
//
// Use it as:
//
//	m := &shortterm.Memory{Sessions: paths.Sessions(), Budget: shortterm.BudgetDir(paths.State),
//		Config: loadConfig, Now: time.Now, Log: log, Spawn: startDetached, Environ: os.Environ()}
//	err := m.Stop(ctx, shortterm.Hook{Root: root, SessionID: id, Transcript: tr, Text: lastMessage})
//	in, err := m.SessionStart(ctx, shortterm.Hook{Root: root, SessionID: id, Transcript: tr, Source: "resume"}) // in.Text, in.Notice
//	reports, err := m.Flush(ctx, shortterm.FlushRequest{Pending: true})
//
// Underneath, per-session state lives in the plugin's state dir: a small
// state file (cursors and counters) and an append-only journal of the hook
// inputs (prompts and final assistant messages) for every Claude Code
// session, plus a pending marker per session that has dialogue not yet
// flushed to the daily file.
//
// The hot path ([capture.Session.Capture], in package capture so that
// memhook-hot links it alone) appends one journal line and rewrites the
// small state file; it reads the transcript only from where the last Stop
// stopped. [FlushSession] turns the unflushed segment (transcript from the
// saved offset, combined with the journal, see combine.go) into one daily
// section and advances the cursors only after the section is durable.
// [capture.Store.Pending] lists the sessions a recovery must flush.
//
// Layout under the sessions dir: <project-id>/<session>.json (state),
// <project-id>/<session>.cursor.json (its durable copy),
// <project-id>/<session>.jsonl (journal), <project-id>/<session>.given (the
// other sessions' sections already injected into it),
// <project-id>/pending/<session>.
package shortterm
