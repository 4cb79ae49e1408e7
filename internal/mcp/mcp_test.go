package mcp

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// brokenBackend panics on its first search: the bug a guard is for, which
// no real backend shows on purpose.
type brokenBackend struct{ calls int }

func (b *brokenBackend) Memory(search.Scope) (*search.Memory, error) {
	b.calls++
	if b.calls == 1 {
		var m map[string]int
		m["boom"]++ // a nil map: the kind of slip a guard must survive
	}
	return &search.Memory{Base: "/nowhere"}, nil
}
func (b *brokenBackend) Recall(context.Context, blackbox.Raw) (any, error)   { return nil, nil }
func (b *brokenBackend) Remember(context.Context, blackbox.Raw) (any, error) { return nil, nil }
func (b *brokenBackend) Now() time.Time                                      { return time.Now() }

func TestAPanicIsTheCallsErrorAndTheServerGoesOn(t *testing.T) {
	var notes []Note
	s := New(Options{Backend: &brokenBackend{}, Log: func(n Note) { notes = append(notes, n) }})
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	go s.Run(ctx, st)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func() *sdk.CallToolResult {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolSearch, Arguments: map[string]any{"query": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(); !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "internal error") {
		t.Fatalf("first call: %+v", res.Content[0])
	}
	if res := call(); res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `"results":[]`) {
		t.Fatalf("second call: %+v", res.Content[0])
	}
	if len(notes) == 0 || notes[0].Level != "error" || !strings.Contains(notes[0].Message, "panic") {
		t.Fatalf("notes %+v", notes)
	}
}

func TestReadLineBoundsALine(t *testing.T) {
	long := `{"id":` + `"x` + strings.Repeat("a", 200_000) + `"}`
	in := "short\n" + long + "\r\n" + strings.Repeat("b", 300) + `,"id":42}` + "\n" + "tail"
	r := bufio.NewReaderSize(strings.NewReader(in), 64<<10)
	line, size, err := readLine(r, 100)
	if string(line) != "short" || size != 5 || err != nil {
		t.Fatalf("short line: %q %d %v", line, size, err)
	}
	line, size, _ = readLine(r, 100)
	if size != len(long)+1 || len(line) > headBytes+tailBytes+101 {
		t.Fatalf("long line kept %d bytes of %d (size %d)", len(line), len(long), size)
	}
	line, size, _ = readLine(r, 100)
	if size != 309 || requestID(line) != float64(42) {
		t.Fatalf("id at the end: %v (size %d)", requestID(line), size)
	}
	line, size, err = readLine(r, 100)
	if string(line) != "tail" || size != 4 || err == nil {
		t.Fatalf("last line without newline: %q %d %v", line, size, err)
	}
}
