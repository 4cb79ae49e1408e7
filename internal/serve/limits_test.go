package serve_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/serve"
)

// dropped reports whether the server closed conn within wait: a read
// returns EOF or a reset, not the client's own timeout.
func dropped(t *testing.T, conn net.Conn, wait time.Duration) bool {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(wait))
	_, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

// TestSlowClientsAreDropped: a client that sends its headers or its body
// slowly, or not at all, is dropped at the server's deadline (short
// deadlines here, through the server's options), while an ordinary
// request is answered.
func TestSlowClientsAreDropped(t *testing.T) {
	m := newMemory(t)
	m.startWith(t, serve.Limits{HeaderTimeout: 300 * time.Millisecond, BodyTimeout: 600 * time.Millisecond, IdleTimeout: time.Second})
	addr := strings.TrimPrefix(m.url, "http://")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// Headers never finished.
	slowHead := dial()
	io.WriteString(slowHead, "GET /en/memory HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: ")
	// A body promised and never sent, on a state change.
	slowBody := dial()
	io.WriteString(slowBody, "POST /en/settings?section=memory-test HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ncsrf=")
	// A body trickled one byte at a time, under the header deadline each
	// time but past the body's.
	trickle := dial()
	io.WriteString(trickle, "POST /en/deny HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := trickle.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	// Nothing sent at all.
	silent := dial()

	// Each is dropped well within 10 s, the bound a stuck server would
	// never meet: the deadlines are under a second.
	for name, c := range map[string]net.Conn{"slow headers": slowHead, "slow body": slowBody, "trickled body": trickle, "silent": silent} {
		if !dropped(t, c, 10*time.Second) {
			t.Errorf("%s: still held after 10 s", name)
		}
	}
	// The server still answers.
	resp, err := http.Get(m.url + "/en/memory")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("after the slow clients: status %d", resp.StatusCode)
	}
}

// TestConnectionCap: no more than MaxConns connections are open at once;
// a new one closes the connection that has waited longest without a
// request (here the first of three kept alive) and is answered at once.
func TestConnectionCap(t *testing.T) {
	m := newMemory(t)
	m.startWith(t, serve.Limits{MaxConns: 3, HeaderTimeout: time.Minute, BodyTimeout: time.Minute})
	addr := strings.TrimPrefix(m.url, "http://")
	var held []net.Conn
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// An ordinary request first: the connection is accepted and kept
		// alive, so it holds one of the three places.
		io.WriteString(c, "GET /en/memory HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		held = append(held, c)
	}
	fourth, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer fourth.Close()
	io.WriteString(fourth, "GET /en/memory HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\n\r\n")
	fourth.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(fourth), nil)
	if err != nil {
		t.Fatalf("the fourth connection beside three idle ones: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the fourth connection: status %d", resp.StatusCode)
	}
	// One of the three idle ones made room. Which one is the server's view
	// of "waited longest": it marks a connection idle only after the client
	// may already have read its answer, so on a loaded machine that order
	// need not be the order of the dials here.
	var gone int
	for i, c := range held {
		if dropped(t, c, 2*time.Second) {
			gone++
			t.Logf("connection %d made room", i)
		}
	}
	if gone != 1 {
		t.Errorf("%d of the three idle connections were closed for the fourth, want 1", gone)
	}
}

// TestSlowClientsDoNotKeepOutARequest: 150 clients that send half a body
// and 50 that send half their headers, with deadlines longer than the
// test (so none is dropped by a timeout), hold the server's every place;
// an ordinary GET is still answered, each new connection taking the place
// of the one that has waited longest.
func TestSlowClientsDoNotKeepOutARequest(t *testing.T) {
	m := newMemory(t)
	m.startWith(t, serve.Limits{HeaderTimeout: 10 * time.Minute, BodyTimeout: 10 * time.Minute})
	addr := strings.TrimPrefix(m.url, "http://")
	for i := 0; i < 200; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("slow client %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		if i%4 == 0 {
			io.WriteString(c, "GET /en/memory HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: ")
		} else {
			io.WriteString(c, "POST /en/deny HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ncsrf=")
		}
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(m.url + "/en/memory")
	if err != nil {
		t.Fatalf("an ordinary GET beside 200 slow clients: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("an ordinary GET beside 200 slow clients: status %d", resp.StatusCode)
	}
}
