package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// recorder stands in for the composition behind the tools (internal/cli's
// tests run the real one): what is tested here is the connection, and
// the recorder says in which order calls reached memory.
type recorder struct {
	mu     sync.Mutex
	order  []string
	hold   time.Duration // how long a recall works
	gate   chan struct{} // when set, a recall waits for it
	inside chan struct{} // when set, a recall says it has started
	echo   bool          // a recall answers the whole text
}

func (b *recorder) note(s string) {
	b.mu.Lock()
	b.order = append(b.order, s)
	b.mu.Unlock()
}

func (b *recorder) seen() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.order...)
}

func (b *recorder) Memory(search.Scope) (*search.Memory, error) {
	b.note("search")
	return &search.Memory{Base: "/nowhere"}, nil
}

func (b *recorder) Recall(ctx context.Context, raw blackbox.Raw) (any, error) {
	var text string
	json.Unmarshal(raw["text"], &text)
	b.note("recall " + text[:min(len(text), 12)])
	if b.inside != nil {
		b.inside <- struct{}{}
	}
	if b.gate != nil {
		<-b.gate
	}
	select {
	case <-time.After(b.hold):
	case <-ctx.Done():
	}
	if b.echo {
		return map[string]any{"answer": text}, nil
	}
	return map[string]any{"answer": text[:min(len(text), 12)], "bytes": len(text)}, nil
}

func (b *recorder) Remember(_ context.Context, raw blackbox.Raw) (any, error) {
	var text string
	json.Unmarshal(raw["text"], &text)
	b.note("remember " + text)
	return map[string]any{"stored": text}, nil
}

func (b *recorder) Now() time.Time { return time.Now() }

// rawClient is a client that writes JSON-RPC lines as it likes and reads
// the answers only when asked to, on a server run as Serve runs it.
type rawClient struct {
	t    *testing.T
	w    io.WriteCloser
	r    *bufio.Reader
	conn *lineConn
	done chan struct{} // closed when the server has ended
}

func newRawClient(t *testing.T, o Options) *rawClient {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	s := New(o)
	c := &rawClient{t: t, w: clientOut, r: bufio.NewReader(clientIn), done: make(chan struct{})}
	c.conn = newLineConn(serverIn, serverOut, s.opts)
	go func() {
		defer close(c.done)
		if err := s.serve(context.Background(), c.conn); err != nil {
			t.Errorf("the server ended with %v", err)
		}
	}()
	t.Cleanup(func() {
		clientOut.Close()
		clientIn.Close() // a server still writing gets an error, not a reader
		select {
		case <-c.done:
		case <-time.After(30 * time.Second):
			t.Errorf("the server did not end when its input closed")
		}
	})
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *rawClient) read() map[string]any {
	c.t.Helper()
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil || m["jsonrpc"] != "2.0" {
		c.t.Fatalf("not a JSON-RPC line: %.200q", line)
	}
	return m
}

func (c *rawClient) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if m := c.read(); m["id"] != "init" || m["result"] == nil {
		c.t.Fatalf("initialize: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func toolCall(id int, tool, text string) string {
	args, _ := json.Marshal(map[string]string{"text": text})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// Many large requests sent at once by a client that does not read the
// answers: the server reads no further than its budget (plus the one
// request that crossed it), and once the client reads, every request is
// answered under its id, in order.
func TestPipelinedLargeRequestsStayWithinTheBudget(t *testing.T) {
	const n, size, budget = 600, 90 << 10, 1 << 20
	c := newRawClient(t, Options{Backend: &recorder{}, MaxRequestBytes: 100 << 10, MaxInFlightBytes: budget})
	c.initialize()
	before := heapInUse()
	sent := make(chan int, n)
	go func() {
		text := strings.Repeat("x", size)
		for i := range n {
			if _, err := io.WriteString(c.w, toolCall(i, ToolRecall, fmt.Sprintf("%04d", i)+text)+"\n"); err != nil {
				return
			}
			sent <- i
		}
	}()
	// Wait for the server to fill its budget while nobody reads.
	for {
		c.conn.mu.Lock()
		full := c.conn.inBytes >= budget
		c.conn.mu.Unlock()
		if full {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // room for a server that would read on
	c.conn.mu.Lock()
	peak, read := c.conn.peak, len(c.conn.held)
	c.conn.mu.Unlock()
	if peak > budget+size+minHeldBytes || read >= n/2 || len(sent) >= n/2 {
		t.Fatalf("with the answers unread the server read %d requests, %d bytes at the most (budget %d); the client got %d out", read, peak, budget, len(sent))
	}
	if grown := int64(heapInUse()) - int64(before); grown > 32<<20 {
		t.Errorf("the heap grew %d bytes while the client did not read", grown)
	}
	for i := range n {
		m := c.read()
		res, _ := json.Marshal(m["result"])
		if m["id"] != float64(i) || !strings.Contains(string(res), fmt.Sprintf(`\"answer\":\"%04dxxxxxxxx\"`, i)) {
			t.Fatalf("answer %d: %.300v", i, m)
		}
	}
	c.conn.mu.Lock()
	peak = c.conn.peak
	c.conn.mu.Unlock()
	if peak > budget+size+minHeldBytes {
		t.Fatalf("bytes in flight reached %d (budget %d)", peak, budget)
	}
}

// A client that sends and never reads, then closes its input: the server
// gives up the output it cannot write and ends, whether it had stopped
// reading (its budget full) or not; and a client that floods on without
// ever reading or closing is let go too.
func TestAnUnreadClientDoesNotKeepTheServerAfterItsInputCloses(t *testing.T) {
	for _, k := range []struct{ flood, close bool }{{false, true}, {true, true}, {true, false}} {
		flood := k.flood
		t.Run(fmt.Sprintf("flood=%v,close=%v", k.flood, k.close), func(t *testing.T) {
			c := newRawClient(t, Options{Backend: &recorder{}, OutputGrace: 50 * time.Millisecond, MaxInFlightBytes: 64 << 10})
			c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
			c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			if !flood {
				for i := 2; i < 10; i++ {
					c.send(toolCall(i, ToolRemember, "a fact"))
					c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"list%d","method":"tools/list"}`, i))
					c.send(`not json`)
				}
				c.w.Close()
			} else {
				go func() {
					for i := 2; i < 1000; i++ {
						if _, err := io.WriteString(c.w, toolCall(i, ToolRecall, strings.Repeat("y", 10<<10))+"\n"); err != nil {
							return
						}
					}
				}()
				for { // until the server stops reading
					c.conn.mu.Lock()
					full := c.conn.inBytes >= 64<<10
					c.conn.mu.Unlock()
					if full {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				if k.close {
					c.w.Close() // behind the lines the client had sent
				}
			}
			select {
			case <-c.done:
			case <-time.After(30 * time.Second):
				t.Fatal("the server still runs 30 s after its input closed, its output unread")
			}
		})
	}
}

// Every request that carries an id is answered under it, whatever else
// is wrong with it: the client waits on that id.
func TestEveryRequestWithAnIDIsAnsweredUnderIt(t *testing.T) {
	rec := &recorder{gate: make(chan struct{}), inside: make(chan struct{}, 1)}
	c := newRawClient(t, Options{Backend: rec})
	c.initialize()
	deep := strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001)
	nearly := strings.Repeat("[", 9_990) + strings.Repeat("]", 9_990)
	cases := []struct {
		line string
		id   any
	}{
		{`{"jsonrpc":"2.0","id":7001,"method":"tools/list","params":{"x":` + deep + `}}`, 7001.0},
		{`{"jsonrpc":"2.0","method":"tools/list","params":{"x":` + deep + `},"id":"tail"}`, "tail"},
		{`{"jsonrpc":"2.0","id":7004}`, 7004.0},
		{`{"jsonrpc":"2.0","id":"s7005"}`, "s7005"},
		{`{"jsonrpc":"2.0","id":7006,"params":{}}`, 7006.0},
		// deep, but within what the decoder takes: the tool refuses it
		{`{"jsonrpc":"2.0","id":7007,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"x","k":` + nearly + `}}}`, 7007.0},
		{`{"jsonrpc":"2.0","id":7008,"method":"tools/call","params":{"name":"recall","arguments":{"text":"x","scope":` + nearly + `}}}`, 7008.0},
	}
	for _, k := range cases {
		c.send(k.line)
		m := c.read()
		res, _ := m["result"].(map[string]any)
		if !reflect.DeepEqual(m["id"], k.id) || m["error"] == nil && (res == nil || res["isError"] != true) {
			t.Errorf("%.50s…: %.300v, want an error under id %v", k.line, m, k.id)
		}
	}
	// An id already waiting for its answer: the second request's error
	// comes under the id, and the first still gets its answer.
	c.send(toolCall(42, ToolRecall, "first"))
	<-rec.inside
	c.send(`{"jsonrpc":"2.0","id":42,"method":"tools/list"}`)
	if m := c.read(); m["id"] != 42.0 || m["error"] == nil {
		t.Fatalf("the second request with id 42: %v", m)
	}
	close(rec.gate)
	if m := c.read(); m["id"] != 42.0 || m["result"] == nil {
		t.Fatalf("the first request with id 42: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":43,"method":"tools/list"}`)
	if m := c.read(); m["id"] != 43.0 || m["result"] == nil {
		t.Fatalf("after: %v", m)
	}
}

// A burst of recalls, a remember and a search among them: memory serves
// them in the order they came, and the remember, whose deadline is
// shorter than the recalls ahead of it take together, is not turned away
// as busy.
func TestToolCallsAreServedInArrivalOrder(t *testing.T) {
	rec := &recorder{hold: 100 * time.Millisecond}
	c := newRawClient(t, Options{Backend: rec, Deadlines: Deadlines{Remember: time.Second, Read: time.Second}})
	c.initialize()
	var want []string
	id := 0
	for i := range 12 {
		c.send(toolCall(id, ToolRecall, fmt.Sprintf("q%02d", i)))
		want = append(want, fmt.Sprintf("recall q%02d", i))
		id++
	}
	c.send(toolCall(id, ToolRemember, "the gate code"))
	want = append(want, "remember the gate code")
	id++
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"gate"}}}`, id))
	want = append(want, "search")
	id++
	for i := 12; i < 16; i++ {
		c.send(toolCall(id, ToolRecall, fmt.Sprintf("q%02d", i)))
		want = append(want, fmt.Sprintf("recall q%02d", i))
		id++
	}
	for range id {
		m := c.read()
		res, _ := m["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("answer %v: %v", m["id"], m)
		}
	}
	if !reflect.DeepEqual(rec.seen(), want) {
		t.Fatalf("memory served\n%v\nwant\n%v", rec.seen(), want)
	}
}

// The tools array as tools/list sends it stays within what a session
// pays for it on every request.
func TestToolListFitsItsBudget(t *testing.T) {
	c := newRawClient(t, Options{Backend: &recorder{}})
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &m); err != nil || len(m.Result.Tools) != len(Tools) {
		t.Fatalf("tools/list: %v %s", err, line)
	}
	chars := 2 + len(m.Result.Tools) - 1 // the array's brackets and commas
	for _, tl := range m.Result.Tools {
		chars += len(tl)
	}
	t.Logf("the tool list is %d characters (target %d)", chars, CharTarget)
	if chars > CharTarget {
		t.Fatalf("the tool list is %d characters, over its %d", chars, CharTarget)
	}
}

// A tool call cancelled while it waits for its turn is never run and
// gets no answer (MCP's rule for a cancelled request); the calls behind
// it go on.
func TestACallCancelledInTheQueueIsNotRun(t *testing.T) {
	rec := &recorder{gate: make(chan struct{}), inside: make(chan struct{}, 1)}
	c := newRawClient(t, Options{Backend: rec})
	c.initialize()
	c.send(toolCall(1, ToolRecall, "first"))
	<-rec.inside
	c.send(toolCall(2, ToolRecall, "second"))
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user moved on"}}`)
	c.send(toolCall(3, ToolRemember, "third"))
	for { // until the server has read all three: then the queue holds only 3
		c.conn.mu.Lock()
		queued := len(c.conn.calls) == 1 && c.conn.calls[0].ID.Raw() == int64(3)
		c.conn.mu.Unlock()
		if queued {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(rec.gate)
	for _, want := range []float64{1, 3} {
		if m := c.read(); m["id"] != want || m["result"] == nil {
			t.Fatalf("want the answer to %v: %v", want, m)
		}
	}
	if want := []string{"recall first", "remember third"}; !reflect.DeepEqual(rec.seen(), want) {
		t.Fatalf("memory served %v, want %v", rec.seen(), want)
	}
}

// An answer over the bound is refused whole, with what to ask instead;
// one under it is answered.
func TestAnAnswerOverTheBoundIsRefused(t *testing.T) {
	c := newRawClient(t, Options{Backend: &recorder{echo: true}, MaxAnswerBytes: 4 << 10})
	c.initialize()
	c.send(toolCall(1, ToolRecall, strings.Repeat("z", 8<<10)))
	m := c.read()
	res, _ := json.Marshal(m["result"])
	if m["id"] != 1.0 || !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "over the 4096") || strings.Contains(string(res), "zzzz") {
		t.Fatalf("an answer of 8 KiB: %.300s", res)
	}
	c.send(toolCall(2, ToolRecall, strings.Repeat("z", 2<<10)))
	m = c.read()
	res, _ = json.Marshal(m["result"])
	if m["id"] != 2.0 || strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), strings.Repeat("z", 2<<10)) {
		t.Fatalf("an answer of 2 KiB: %.300s", res)
	}
}

// When the client closes its input the server ends with it, as Claude
// Code expects at a session's end: the call under way is cancelled and
// answered, the calls waiting for their turn are answered that they did
// not run.
func TestTheServerEndsWithItsInput(t *testing.T) {
	rec := &recorder{gate: make(chan struct{}), inside: make(chan struct{}, 1)}
	defer close(rec.gate)
	c := newRawClient(t, Options{Backend: rec})
	c.initialize()
	c.send(toolCall(1, ToolRecall, "slow"))
	<-rec.inside
	c.send(toolCall(2, ToolRemember, "queued"))
	c.send(toolCall(3, ToolRecall, "queued too"))
	c.w.Close()
	got := map[float64]string{}
	for range 3 {
		m := c.read()
		res, _ := json.Marshal(m)
		got[m["id"].(float64)] = string(res)
	}
	for id, want := range map[float64]string{1: `"isError":true`, 2: "not run", 3: "not run"} {
		if !strings.Contains(got[id], want) {
			t.Errorf("answer %v: %s, want %q", id, got[id], want)
		}
	}
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server still runs 30 s after its input closed")
	}
	if want := []string{"recall slow"}; !reflect.DeepEqual(rec.seen(), want) {
		t.Errorf("memory served %v, want %v", rec.seen(), want)
	}
}
