package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Writing: writeLoop is the one writer of the output; watchOutput gives it up
// when the client stops reading.

// errOutputGone is every write's error once the output was given up.
var errOutputGone = errors.New("write an answer: the client stopped reading; output given up")

type lineWrite struct {
	b    []byte
	done chan error
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
