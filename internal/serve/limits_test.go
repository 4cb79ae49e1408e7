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

// TestConnectionCap: no more than MaxConns connections are served at
// once; the next waits until one closes, and is then answered.
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
	// The fourth connects (the kernel's backlog) but is not served.
	fourth, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer fourth.Close()
	io.WriteString(fourth, "GET /en/memory HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\n\r\n")
	fourth.SetReadDeadline(time.Now().Add(700 * time.Millisecond))
	if n, err := fourth.Read(make([]byte, 1)); n > 0 || err == nil {
		t.Fatalf("a fourth connection was served beside three (read %d, %v)", n, err)
	}
	// One place freed: the fourth is answered.
	held[0].Close()
	fourth.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(fourth), nil)
	if err != nil {
		t.Fatalf("the waiting connection after one closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the waiting connection: status %d", resp.StatusCode)
	}
}
