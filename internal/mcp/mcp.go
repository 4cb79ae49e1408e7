// Package mcp is memory as native tools: the MCP server `memhook mcp`
// that Claude Code starts from the plugin's .mcp.json and talks to over
// stdio, offering memory_search, memory_get, recall and remember to the
// model. Each tool is a thin door: search and reads go through
// [search.Memory], recall and remember through the black box's request
// object (docs/blackbox.md), exactly as `memhook search`, `memhook get`
// and `memhook recall --request -` answer. The server lives as long as
// the session that started it and keeps nothing between sessions.
//
// The protocol, schema validation and lifecycle are the official Go SDK's;
// this package adds the bounds a session's helper needs: one line per
// request, a request over [Options.MaxRequestBytes] or one that does not
// parse answered with a JSON-RPC error under its id (the server goes on),
// no more read while the requests not yet answered hold
// [Options.MaxInFlightBytes], an answer over [Options.MaxAnswerBytes]
// refused, tool calls run one at a time in arrival order, a deadline per
// call from its turn, a panic turned into the call's error, and an end
// once the input has closed even when nobody reads the output. Every
// answer is made inert as the inject makes a note. Stdout carries
// protocol messages only; everything else goes to [Options.Log].
//
//	srv := mcp.New(mcp.Options{Backend: b, Version: v, Log: logf})
//	err := srv.Serve(ctx, os.Stdin, os.Stdout) // until stdin closes
package mcp

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Backend is the project's memory behind the tools, built by the
// composition root (internal/factory) from the same parts as the commands.
// Its methods are called one at a time.
type Backend interface {
	// Memory is the searchable memory of scope, with the current settings.
	Memory(scope search.Scope) (*search.Memory, error)
	// Recall answers a black-box recall request as `memhook recall
	// --request -` prints it.
	Recall(ctx context.Context, req blackbox.Raw) (any, error)
	// Remember makes a remember request as `memhook remember --request -`
	// does. A non-nil answer with an error is a partial write: the answer
	// says what was stored and what failed.
	Remember(ctx context.Context, req blackbox.Raw) (any, error)
	// Now is the clock: search ranks by it and reads dates from it.
	Now() time.Time
}

// Deadlines bound each call; past its deadline a call answers with an
// error (its work is cancelled through the context).
type Deadlines struct {
	Read     time.Duration // memory_search, memory_get
	Recall   time.Duration // recall at standard or deep depth
	Extreme  time.Duration // recall at extreme depth (its research budget and some)
	Remember time.Duration
}

// DefaultDeadlines are used for the zero fields of [Options.Deadlines].
var DefaultDeadlines = Deadlines{Read: 20 * time.Second, Recall: 60 * time.Second, Extreme: 240 * time.Second, Remember: 30 * time.Second}

// DefaultMaxRequestBytes bounds one request line: a remember of a long
// text fits, a runaway client does not.
const DefaultMaxRequestBytes = 1 << 20

// DefaultMaxInFlightBytes bounds the requests read and not yet answered:
// a few requests of the largest size; a client that sends faster than it
// reads the answers is read no further until it reads.
const DefaultMaxInFlightBytes = 8 << 20

// DefaultMaxAnswerBytes bounds one tool's answer: far more than a model's
// context takes from one call (Claude Code cuts an MCP answer at about
// 25,000 tokens), far less than a memory file may be.
const DefaultMaxAnswerBytes = 1 << 20

// DefaultOutputGrace is how long an answer may wait to be read once the
// input has closed before the server gives its output up and ends.
const DefaultOutputGrace = 10 * time.Second

// Options configure a server.
type Options struct {
	Backend   Backend
	Version   string
	Deadlines Deadlines
	// MaxRequestBytes bounds one request; 0 means [DefaultMaxRequestBytes].
	MaxRequestBytes int
	// MaxInFlightBytes bounds the requests read and not yet answered; 0
	// means [DefaultMaxInFlightBytes].
	MaxInFlightBytes int
	// MaxAnswerBytes bounds one tool's answer; 0 means
	// [DefaultMaxAnswerBytes].
	MaxAnswerBytes int
	// OutputGrace is how long a write may wait once the input has ended;
	// 0 means [DefaultOutputGrace].
	OutputGrace time.Duration
	// Log receives what the server has to say; nil drops it. It is never
	// stdout.
	Log func(Note)
}

// Note is one thing the server says: a call's end (Tool, its wall time,
// the error if any) or an event of the connection.
type Note struct {
	Level   string // info, warn or error
	Tool    string // "" for the connection's own events
	MS      float64
	Message string
}

// Server is one MCP server over the project's memory.
type Server struct {
	opts Options
	srv  *sdk.Server
	// turn lets one call at a time into the backend: the composition
	// behind it serves one command per process. Calls reach the server
	// one at a time already (lineConn); the turn keeps the next call off
	// the backend while one stopped at its deadline is still finishing.
	turn chan struct{}
}

// New makes a server with its tools.
func New(o Options) *Server {
	d := &o.Deadlines
	for _, f := range []struct{ got, def *time.Duration }{
		{&d.Read, &DefaultDeadlines.Read}, {&d.Recall, &DefaultDeadlines.Recall},
		{&d.Extreme, &DefaultDeadlines.Extreme}, {&d.Remember, &DefaultDeadlines.Remember},
	} {
		if *f.got <= 0 {
			*f.got = *f.def
		}
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.MaxInFlightBytes <= 0 {
		o.MaxInFlightBytes = DefaultMaxInFlightBytes
	}
	if o.MaxAnswerBytes <= 0 {
		o.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if o.OutputGrace <= 0 {
		o.OutputGrace = DefaultOutputGrace
	}
	if o.Log == nil {
		o.Log = func(Note) {}
	}
	s := &Server{opts: o, turn: make(chan struct{}, 1)}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "cerebro", Version: o.Version}, nil)
	s.addTools()
	return s
}

// Serve answers requests read from in, one JSON-RPC message a line, on out
// until in ends (and the requests read before its end are answered) or
// ctx is done.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.serve(ctx, newLineConn(in, out, s.opts))
}

func (s *Server) serve(ctx context.Context, conn *lineConn) error {
	stop := context.AfterFunc(ctx, conn.giveUpOutput) // no answer waits on a reader past the end
	defer stop()
	err := s.Run(ctx, &lineTransport{conn: conn})
	if conn.outputGone() {
		return nil // the client went away: the session's end, said in the log
	}
	return err
}

// Run serves one connection over t (the in-memory transports of the
// tests, or Serve's stdio).
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.srv.Run(ctx, t)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

// call runs one tool call within its deadline and its turn, turning a
// panic into the call's error so that one bad call never ends the server.
func (s *Server) call(ctx context.Context, tool string, deadline time.Duration, run func(context.Context) (any, error)) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: memory was busy with another call for the whole %s deadline; try again", tool, deadline)
	}
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		// The turn is given back when the work ends, not at the deadline:
		// the next call never runs beside a call still finishing.
		defer func() { <-s.turn }()
		defer func() {
			if p := recover(); p != nil {
				s.opts.Log(Note{Level: "error", Tool: tool, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())})
				done <- result{err: fmt.Errorf("%s: internal error (%v); the server goes on, see the memhook log", tool, p)}
			}
		}()
		v, err := run(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		n := Note{Level: "info", Tool: tool, MS: float64(time.Since(start).Microseconds()) / 1000}
		if r.err != nil {
			n.Level, n.Message = "warn", r.err.Error()
		}
		s.opts.Log(n)
		return r.v, r.err
	case <-ctx.Done():
		s.opts.Log(Note{Level: "warn", Tool: tool, MS: float64(time.Since(start).Microseconds()) / 1000, Message: fmt.Sprintf("stopped at its %s deadline", deadline)})
		return nil, fmt.Errorf("%s: stopped at its deadline of %s", tool, deadline)
	}
}
