package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/tidwall/gjson"
)

// Reading: pump reads the input ahead into a bounded queue, readLoop cuts it
// into lines and decode turns each into a message or answers it with an error.

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
		if len(bytes.TrimRight(line, "\r \t")) > 0 || size > c.max {
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
	if m := trailingID.Re().FindSubmatch(bytes.TrimRight(b, "\r \t")); m != nil {
		var v any
		if json.Unmarshal(m[1], &v) == nil {
			return v
		}
	}
	return nil
}
