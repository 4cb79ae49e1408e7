// Package hint is the one error that says what the person can do about
// it. A package that fails in a way the person can put right wraps the
// error where it knows the remedy:
//
//	return hint.Wrap(fmt.Errorf("find project: %w", err), "pass --project with an existing directory")
//
// and every front end prints [Of] beside the error (the CLI as
// "memhook: hint: ...", the MCP server as the result's "hint"). The
// message, errors.Is and errors.As see through the wrap unchanged.
//
// An error type of its own is for data a caller inspects (the findings of
// a refused ingest, the days a compile misses); such a type may still
// carry a Hint() string method, and Of finds it.
package hint

import "errors"

// Error is err with what the person can do about it.
type Error struct {
	Err  error
	Text string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Hint says what the person can do.
func (e *Error) Hint() string { return e.Text }

// Wrap attaches the hint h to err; nil stays nil.
func Wrap(err error, h string) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err, Text: h}
}

// Of is the first hint in err's chain, or "".
func Of(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}

// On pairs a sentinel error with the hint for it.
type On struct {
	Err  error
	Hint string
}

// Match attaches the hint of the first case whose sentinel err wraps, and
// returns err as is when none does.
func Match(err error, cases ...On) error {
	for _, c := range cases {
		if errors.Is(err, c.Err) {
			return Wrap(err, c.Hint)
		}
	}
	return err
}
