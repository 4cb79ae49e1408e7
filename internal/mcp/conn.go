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

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
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

// errOutputGone is every write's error once the output was given up.
var errOutputGone = errors.New("write an answer: the client stopped reading; output given up")

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

type lineWrite struct {
	b    []byte
	done chan error
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

// pump reads the input into the queue readLoop takes its lines from, at
// most about a request ahead: while the budget is full the bytes wait
// here. When the output has stalled it reads a little further, to see
// whether the client has closed the input behind what it sent: then
// nobody will read the answers and the output is given up.
func (c *lineConn) pump(in io.Reader) {
	for {
		c.mu.Lock()
		for c.qBytes >= c.aheadLimit() && !c.ended() {
			c.qCond.Wait()
		}
		stop := c.ended()
		c.mu.Unlock()
		if stop {
			return
		}
		buf := make([]byte, 32<<10)
		n, err := in.Read(buf)
		c.mu.Lock()
		if n > 0 {
			c.chunks = append(c.chunks, buf[:n])
			c.qBytes += n
		}
		if err != nil {
			c.qErr = err
		}
		c.qCond.Broadcast()
		c.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// aheadLimit is how far pump may read ahead. Called with mu held.
func (c *lineConn) aheadLimit() int {
	if c.stalled {
		return c.max + 64<<10 + stalledAhead
	}
	return c.max + 64<<10
}

// stalledAhead is how much further pump reads once the output stalls:
// more than a pipe holds (64 KiB by default, 1 MiB at most on Linux).
const stalledAhead = 2 << 20

// ended reports whether the connection is over. Called with mu held.
func (c *lineConn) ended() bool {
	select {
	case <-c.closed:
		return true
	case <-c.gone:
		return true
	default:
		return false
	}
}

// queue is the reader readLoop reads: the bytes pump read.
type queue struct{ c *lineConn }

func (q queue) Read(p []byte) (int, error) {
	c := q.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.chunks) == 0 && c.qErr == nil && !c.ended() {
		c.qCond.Wait()
	}
	if len(c.chunks) == 0 {
		if c.qErr != nil {
			return 0, c.qErr
		}
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	if n == len(c.chunks[0]) {
		c.chunks = c.chunks[1:]
	} else {
		c.chunks[0] = c.chunks[0][n:]
	}
	c.qBytes -= n
	c.qCond.Broadcast()
	return n, nil
}

// readLoop reads lines until the input ends, pausing while the requests
// read and not answered hold the budget.
func (c *lineConn) readLoop(r *bufio.Reader) {
	for {
		if !c.waitRoom() {
			return
		}
		line, size, err := readLine(r, c.max)
		if err != nil && size == 0 {
			c.inputEnded(err)
			return
		}
		if len(bytesTrim(line)) > 0 || size > c.max {
			if msg, ok := c.decode(line, size); ok {
				c.take(msg, size)
			}
		}
		if err != nil {
			c.inputEnded(err)
			return
		}
	}
}

// waitRoom waits until the bytes in flight are under the budget; false
// when the connection ended meanwhile.
func (c *lineConn) waitRoom() bool {
	for {
		c.mu.Lock()
		full := c.inBytes >= c.budget
		c.mu.Unlock()
		if !full {
			return true
		}
		select {
		case <-c.room:
		case <-c.closed:
			return false
		case <-c.gone:
			return false
		}
	}
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

// watchOutput gives the output up when an answer has waited the whole
// grace to be written and the client has closed the input: no answer can
// reach it and nothing else would end the server. While the input is
// open, a stalled output first lets pump read further, to see its end
// behind what the client sent; a client that goes on sending and reads
// nothing for three graces is let go (Claude Code sends a request at a
// time and never fills the read-ahead).
func (c *lineConn) watchOutput() {
	tick := time.NewTicker(max(c.grace/4, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-c.gone:
			return
		case <-c.closed:
			return
		case <-tick.C:
		}
		since := c.writing.Load()
		stalled := since != 0 && time.Since(time.Unix(0, since)) >= c.grace
		c.mu.Lock()
		inputEnded := c.qErr != nil
		if c.stalled != stalled {
			c.stalled = stalled
			c.qCond.Broadcast()
		}
		flooded := stalled && c.qBytes >= c.aheadLimit() && time.Since(time.Unix(0, since)) >= 3*c.grace
		c.mu.Unlock()
		switch {
		case stalled && inputEnded:
			c.log(Note{Level: "warn", Message: fmt.Sprintf("input ended and an answer waited %s to be read: output given up", c.grace)})
			c.giveUpOutput()
			return
		case flooded:
			c.log(Note{Level: "warn", Message: fmt.Sprintf("the client sent on and read no answer for %s: output given up", 3*c.grace)})
			c.giveUpOutput()
			return
		}
	}
}

// giveUpOutput fails every write from now on and lets Read end: the
// queued calls are dropped (no one can receive their answers).
func (c *lineConn) giveUpOutput() {
	c.goneOne.Do(func() {
		close(c.gone)
		c.mu.Lock()
		c.qCond.Broadcast()
		c.calls, c.ready = nil, nil
		c.addBytes(-c.loose)
		c.loose = 0
		c.mu.Unlock()
		c.signal(c.wake)
	})
}

func (c *lineConn) outputGone() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

// decode turns one line into a message, or answers it with an error.
func (c *lineConn) decode(line []byte, size int) (jsonrpc.Message, bool) {
	if size > c.max {
		c.log(Note{Level: "warn", Message: fmt.Sprintf("refused a request of %d bytes (the bound is %d)", size, c.max)})
		c.reject(requestID(line), codeInvalidRequest, fmt.Sprintf("request of %d bytes refused: memhook mcp takes at most %d bytes a request", size, c.max))
		return nil, false
	}
	if !json.Valid(line) {
		// Not JSON to the decoder: broken, or nested deeper than it
		// goes. The client still waits on the id it wrote.
		c.log(Note{Level: "warn", Message: "refused a request that is not JSON (or nested too deep)"})
		c.reject(requestID(line), codeParseError, "request is not one JSON object on one line, or is nested deeper than the decoder allows")
		return nil, false
	}
	if v := gjson.ParseBytes(line); v.IsObject() && !v.Get("method").Exists() && !v.Get("result").Exists() && !v.Get("error").Exists() {
		// An id and nothing else would pass for an answer to a call the
		// server never made and be dropped; its sender waits on the id.
		c.log(Note{Level: "warn", Message: "refused a message with neither a method nor a result"})
		c.reject(requestID(line), codeInvalidRequest, "a request needs a method")
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.log(Note{Level: "warn", Message: "refused a request that is not JSON-RPC: " + err.Error()})
		c.reject(requestID(line), codeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
		return nil, false
	}
	return msg, true
}

// readLine reads one line of at most max bytes (without its newline); a
// longer one is read to its end and dropped, keeping its head and tail
// for the request's id. size is the line's whole length.
func readLine(r *bufio.Reader, max int) (line []byte, size int, err error) {
	var tail []byte
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		switch {
		case size <= max+1: // +1: the newline
			line = append(line, chunk...)
		case len(line) < headBytes:
			line = append(line, chunk[:min(len(chunk), headBytes-len(line))]...)
			tail = appendTail(tail, chunk)
		default:
			tail = appendTail(tail, chunk)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			size--
			if size <= max {
				line = line[:len(line)-1]
			}
		}
		if size > max {
			line = append(line, tail...) // head and tail: where an id can be
		}
		return line, size, err
	}
}

const headBytes, tailBytes = 4 << 10, 256

func appendTail(tail, chunk []byte) []byte {
	tail = append(tail, chunk...)
	if len(tail) > tailBytes {
		tail = append(tail[:0:0], tail[len(tail)-tailBytes:]...)
	}
	return tail
}

func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// trailingID is a request's id as its last member, the way JSON-RPC
// clients write it after the params.
var trailingID = lazyregexp.New(`"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9]+)\s*}\s*$`)

// requestID reads the id of a request that could not be taken whole: a
// top-level "id" before the params, or as the last member; nil (the id
// null) when neither is there.
func requestID(b []byte) any {
	if v := gjson.GetBytes(b, "id"); v.Exists() && (v.Type == gjson.Number || v.Type == gjson.String) {
		return v.Value()
	}
	if m := trailingID.Re().FindSubmatch(bytesTrim(b)); m != nil {
		var v any
		if json.Unmarshal(m[1], &v) == nil {
			return v
		}
	}
	return nil
}

// reject answers a line that was not taken with a JSON-RPC error, written
// beside the reading: the read loop must go on to see the input end even
// when nobody reads the output. What waits to be written counts against
// the budget, so a flood of bad lines stops the reading like good ones.
func (c *lineConn) reject(id any, code int64, msg string) {
	c.mu.Lock()
	c.pending++
	c.addBytes(minHeldBytes)
	c.mu.Unlock()
	go func() {
		c.writeError(id, code, msg)
		c.mu.Lock()
		c.pending--
		c.addBytes(-minHeldBytes)
		c.mu.Unlock()
		c.signal(c.room)
		c.signal(c.wake)
	}()
}

// writeError writes a JSON-RPC error response.
func (c *lineConn) writeError(id any, code int64, msg string) {
	resp, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	c.writeLine(resp)
}

// writeLoop is the one writer of out: a write that blocks (the client
// does not read) blocks here, where watchOutput can see it, and not in
// a handler the SDK waits for.
func (c *lineConn) writeLoop() {
	for {
		select {
		case w := <-c.writes:
			c.writing.Store(time.Now().UnixNano())
			_, err := c.out.Write(w.b)
			c.writing.Store(0)
			if err != nil {
				c.log(Note{Level: "warn", Message: "write an answer: " + err.Error()})
				c.giveUpOutput()
			}
			w.done <- err
		case <-c.gone:
			return
		}
	}
}

func (c *lineConn) writeLine(b []byte) error {
	w := &lineWrite{b: append(b, '\n'), done: make(chan error, 1)}
	select {
	case c.writes <- w:
	case <-c.gone:
		return errOutputGone
	}
	select {
	case err := <-w.done:
		return err
	case <-c.gone:
		return errOutputGone
	}
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
