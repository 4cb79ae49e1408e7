package serve

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// connCap holds at most max connections open at once. When a new one
// arrives at the cap, the connection that has waited longest without a
// request being answered — one still sending its request (slow headers,
// a trickled body) or idle between requests — is closed to make room, so
// that clients that hold a connection and send nothing cannot keep out
// an ordinary request. Only when every open connection is being answered
// does the new one wait, in the listener, for one to close.
type connCap struct {
	net.Listener
	max    int
	mu     sync.Mutex
	freed  *sync.Cond
	open   map[*capConn]struct{}
	closed bool
}

func newConnCap(ln net.Listener, max int) *connCap {
	c := &connCap{Listener: ln, max: max, open: map[*capConn]struct{}{}}
	c.freed = sync.NewCond(&c.mu)
	return c
}

// capConn is one accepted connection and whether the server is answering
// a request on it.
type capConn struct {
	net.Conn
	l     *connCap
	once  sync.Once
	busy  bool      // a request was read whole and is being answered (under l.mu)
	since time.Time // when it last started waiting for a request (under l.mu)
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}

// Accept takes the next connection, making room for it as the type says.
func (l *connCap) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	for len(l.open) >= l.max && !l.closed {
		if v := l.longestWaiting(); v != nil {
			delete(l.open, v)
			l.mu.Unlock()
			v.Conn.Close() // the server's own Close of v finds it released
			l.mu.Lock()
			continue
		}
		l.freed.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		nc.Close()
		return nil, net.ErrClosed
	}
	c := &capConn{Conn: nc, l: l, since: time.Now()}
	l.open[c] = struct{}{}
	l.mu.Unlock()
	return c, nil
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *connCap) Close() error {
	l.mu.Lock()
	l.closed = true
	l.freed.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

// longestWaiting is the open connection not being answered that has
// waited longest, or nil (under l.mu).
func (l *connCap) longestWaiting() *capConn {
	var v *capConn
	for c := range l.open {
		if !c.busy && (v == nil || c.since.Before(v.since)) {
			v = c
		}
	}
	return v
}

func (l *connCap) release(c *capConn) {
	l.mu.Lock()
	if _, ok := l.open[c]; ok {
		delete(l.open, c)
		l.freed.Signal()
	}
	l.mu.Unlock()
}

// connState follows the server's view of each connection: idle between
// requests it waits again; a request started is still waiting until the
// guard has read it whole ([markAnswering]).
func (l *connCap) connState(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*capConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateActive, http.StateIdle:
		c.busy, c.since = false, time.Now()
		// an Accept that found every place answering waits for this
		l.freed.Signal()
	}
}

type connKey struct{}

// withConn puts the connection in each request's context, for the guard.
func withConn(ctx context.Context, nc net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, nc)
}

// markAnswering says the request on r's connection was read whole: its
// connection is no longer one to close for room.
func markAnswering(r *http.Request) {
	c, ok := r.Context().Value(connKey{}).(*capConn)
	if !ok {
		return
	}
	c.l.mu.Lock()
	c.busy = true
	c.l.mu.Unlock()
}
