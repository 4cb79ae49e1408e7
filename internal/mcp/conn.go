package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// The SDK's own stdio transport ends the connection on the first line it
// cannot decode or that is over its bound, which would end the session's
// memory with it. lineConn reads one message a line and answers what it
// cannot take with a JSON-RPC error instead, then reads on.

// JSON-RPC error codes lineConn answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lineTransport hands the SDK a lineConn.
type lineTransport struct{ conn *lineConn }

// Connect implements sdk.Transport.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) { return t.conn, nil }

type lineConn struct {
	max int
	log func(Note)

	wmu sync.Mutex // one message at a time on out
	out io.Writer

	incoming  chan jsonrpc.Message
	readErr   chan error
	closed    chan struct{}
	closeOnce sync.Once
}

func newLineConn(in io.Reader, out io.Writer, max int, log func(Note)) *lineConn {
	c := &lineConn{max: max, log: log, out: out,
		incoming: make(chan jsonrpc.Message), readErr: make(chan error, 1), closed: make(chan struct{})}
	go c.readLoop(bufio.NewReaderSize(in, 64<<10))
	return c
}

// readLoop reads lines until in ends. A line is a message, unless it is
// over the bound or does not decode: then the sender gets an error (under
// the request's id when one can be read) and the next line is read.
func (c *lineConn) readLoop(r *bufio.Reader) {
	for {
		line, size, err := readLine(r, c.max)
		if err != nil && size == 0 {
			c.readErr <- err
			return
		}
		if len(bytesTrim(line)) > 0 || size > c.max {
			if msg, ok := c.decode(line, size); ok {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.readErr <- err
			return
		}
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
		c.log(Note{Level: "warn", Message: "refused a request that is not JSON"})
		c.reject(nil, codeParseError, "request is not one JSON object on one line")
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

// reject writes a JSON-RPC error response.
func (c *lineConn) reject(id any, code int64, msg string) {
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

func (c *lineConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read implements sdk.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case err := <-c.readErr:
		c.readErr <- err // every later Read sees it too
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("read a request: %w", err)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements sdk.Connection.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	return c.writeLine(b)
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements sdk.Connection.
func (c *lineConn) SessionID() string { return "" }
