package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// The SDK's own stdio transport ends the connection on the first line it
// cannot decode or that is over its bound, which would end the session's
// memory with it; and it reads every request as it comes, holding each in
// memory until it is answered, with a handler per call racing for the
// backend. lineConn is the connection the SDK gets instead:
//
//   - one message a line; what it cannot take is answered with a JSON-RPC
//     error under the request's id whenever one can be read, then the next
//     line is read;
//   - bounded: it reads no further while the requests read and not yet
//     answered hold [Options.MaxInFlightBytes], so a client that sends
//     faster than it reads answers stops being read instead of growing the
//     server;
//   - tool calls in arrival order: the SDK gets the next tools/call only
//     when the one before it is answered, so a remember behind a burst of
//     recalls waits its turn and its deadline starts when its turn comes;
//   - an output that is not read does not keep the server alive: once the
//     input has ended, a write that waits longer than [Options.OutputGrace]
//     gives the output up, and the server ends (see watchOutput);
//   - a cancelled tool call still waiting for its turn is never run.

// JSON-RPC error codes lineConn answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeNotRun         = -32000 // a server error: the call was never run
)

// methodToolsCall is the request lineConn keeps in arrival order.
const methodToolsCall = "tools/call"

// minHeldBytes is what a request counts for at least while it waits for
// its answer: the answer of a small request (the tool list) is bigger than
// the request.
const minHeldBytes = 4 << 10

// lineTransport hands the SDK a lineConn.
type lineTransport struct{ conn *lineConn }

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) { return t.conn, nil }

type lineConn struct {
	max, budget int
	grace       time.Duration
	log         func(Note)

	out     io.Writer
	writes  chan *lineWrite
	writing atomic.Int64  // start of the write under way (unix ns), 0 when idle
	gone    chan struct{} // closed when the output is given up
	goneOne sync.Once

	mu      sync.Mutex
	ready   []readyMsg         // for the SDK now, in arrival order
	calls   []*jsonrpc.Request // tool calls waiting for their turn
	callOut bool               // a tool call is with the SDK, unanswered
	callID  jsonrpc.ID
	held    map[jsonrpc.ID]int // bytes of each request read and not answered
	loose   int                // bytes of messages in ready that hold no id
	pending int                // errors being written for lines not taken
	inBytes int                // the bytes of held, loose and pending
	peak    int                // the most inBytes ever was (tests)
	readErr error
	wake    chan struct{} // Read has something new to see
	room    chan struct{} // readLoop may read on

	chunks  [][]byte // read by pump, not yet by readLoop
	qBytes  int
	qErr    error // how the input ended, once pump saw it
	qCond   *sync.Cond
	stalled bool // an answer has waited the grace to be written

	closed    chan struct{}
	closeOnce sync.Once
}

// readyMsg is a message for the SDK; loose are the bytes it gives back
// when handed over (a message no answer follows).
type readyMsg struct {
	msg   jsonrpc.Message
	loose int
}

func newLineConn(in io.Reader, out io.Writer, o Options) *lineConn {
	c := &lineConn{max: o.MaxRequestBytes, budget: o.MaxInFlightBytes, grace: o.OutputGrace, log: o.Log, out: out,
		writes: make(chan *lineWrite), gone: make(chan struct{}), held: map[jsonrpc.ID]int{},
		wake: make(chan struct{}, 1), room: make(chan struct{}, 1), closed: make(chan struct{})}
	go c.writeLoop()
	c.qCond = sync.NewCond(&c.mu)
	go c.pump(in)
	go c.readLoop(bufio.NewReaderSize(queue{c}, 64<<10))
	go c.watchOutput()
	return c
}

// take files a decoded message: a request with an id is held until its
// answer is written; a tool call waits for its turn.
func (c *lineConn) take(msg jsonrpc.Message, size int) {
	req, isReq := msg.(*jsonrpc.Request)
	if isReq && req.IsCall() {
		c.mu.Lock()
		if _, dup := c.held[req.ID]; dup {
			c.mu.Unlock()
			c.log(Note{Level: "warn", Message: fmt.Sprintf("refused a request whose id %v is already in use", req.ID.Raw())})
			c.reject(req.ID.Raw(), codeInvalidRequest, fmt.Sprintf("request id %v is already in use by a request not yet answered", req.ID.Raw()))
			return
		}
		n := max(size, minHeldBytes)
		c.held[req.ID] = n
		c.addBytes(n)
		if req.Method == methodToolsCall {
			c.calls = append(c.calls, req)
		} else {
			c.ready = append(c.ready, readyMsg{msg: req})
		}
		c.mu.Unlock()
		c.signal(c.wake)
		return
	}
	if isReq && req.Method == methodToolsCall {
		// Without an id there is no one to answer: a call whose answer
		// nobody waits for is not run.
		c.log(Note{Level: "warn", Message: "dropped a tools/call without an id"})
		return
	}
	c.mu.Lock()
	if isReq && req.Method == "notifications/cancelled" {
		c.dropQueued(req)
	}
	c.ready = append(c.ready, readyMsg{msg: msg, loose: size})
	c.loose += size
	c.addBytes(size)
	c.mu.Unlock()
	c.signal(c.wake)
}

// dropQueued takes a cancelled tool call out of the queue before it ran:
// a cancelled request gets no answer (MCP's cancellation rule). Called
// with mu held.
func (c *lineConn) dropQueued(cancel *jsonrpc.Request) {
	id := gjson.GetBytes(cancel.Params, "requestId")
	for i, q := range c.calls {
		if raw := q.ID.Raw(); id.Exists() && fmt.Sprint(raw) == id.String() {
			c.calls = append(c.calls[:i:i], c.calls[i+1:]...)
			c.addBytes(-c.held[q.ID])
			delete(c.held, q.ID)
			c.signal(c.room)
			return
		}
	}
}

// addBytes changes the bytes in flight. Called with mu held.
func (c *lineConn) addBytes(n int) {
	c.inBytes += n
	c.peak = max(c.peak, c.inBytes)
}

func (c *lineConn) signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// inputEnded records why reading stopped. The server ends with its
// input, as Claude Code expects when it closes a session: a tool call
// still waiting for its turn is answered that it did not run, the one
// under way is cancelled (and answered), and Read ends once every
// request read is answered.
func (c *lineConn) inputEnded(err error) {
	c.mu.Lock()
	c.readErr = err
	queued := c.calls
	c.calls = nil
	for _, q := range queued {
		c.addBytes(-c.held[q.ID])
		delete(c.held, q.ID)
	}
	if c.callOut {
		// The SDK writes nothing once it has read the end, so the call
		// under way is cancelled first, the client's way, and its answer
		// written before Read ends.
		params, _ := json.Marshal(map[string]any{"requestId": c.callID.Raw(), "reason": "the client closed its input"})
		c.ready = append(c.ready, readyMsg{msg: &jsonrpc.Request{Method: "notifications/cancelled", Params: params}})
	}
	c.mu.Unlock()
	for _, q := range queued {
		c.reject(q.ID.Raw(), codeNotRun, "not run: the client closed its input before this call's turn")
	}
	c.signal(c.wake)
}

// Read implements sdk.Connection: the next message in arrival order,
// except that a tool call waits until the one before it is answered.
// Once the input has ended, Read ends when everything read is handed
// over or answered (inputEnded).
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if len(c.ready) > 0 {
			r := c.ready[0]
			c.ready = c.ready[1:]
			c.loose -= r.loose
			c.addBytes(-r.loose)
			c.mu.Unlock()
			c.signal(c.room)
			return r.msg, nil
		}
		if !c.callOut && len(c.calls) > 0 {
			req := c.calls[0]
			c.calls = c.calls[1:]
			c.callOut, c.callID = true, req.ID
			c.mu.Unlock()
			return req, nil
		}
		ended, err, drained := c.readErr != nil, c.readErr, len(c.held) == 0 && c.pending == 0
		c.mu.Unlock()
		select {
		case <-c.gone:
			return nil, io.EOF
		default:
		}
		if ended && drained {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("read a request: %w", err)
		}
		select {
		case <-c.wake:
		case <-c.gone:
			return nil, io.EOF
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write implements sdk.Connection. An answer gives back its request's
// bytes once written (or once writing failed), and opens the next tool
// call's turn.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		err = fmt.Errorf("encode a message: %w", err)
	} else {
		err = c.writeLine(b)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.answered(resp.ID)
	}
	return err
}

// answered gives back what the request id held.
func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	if n, ok := c.held[id]; ok {
		delete(c.held, id)
		c.addBytes(-n)
	}
	if c.callOut && c.callID == id {
		c.callOut = false
	}
	c.mu.Unlock()
	c.signal(c.room)
	c.signal(c.wake)
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.mu.Lock()
		c.qCond.Broadcast()
		c.mu.Unlock()
	})
	return nil
}

// SessionID implements sdk.Connection.
func (c *lineConn) SessionID() string { return "" }
