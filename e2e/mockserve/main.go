//go:build e2e

// Command mockserve runs the end-to-end suite's Messages API mock on its own,
// for poking at Claude Code by hand:
//
//	go run -tags e2e ./e2e/mockserve -log /tmp/requests.jsonl
//	ANTHROPIC_BASE_URL=<printed url> ANTHROPIC_API_KEY=sk-ant-test claude -p hi < /dev/null
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/cerebro-mem/cerebro/e2e"
)

func main() {
	logPath := flag.String("log", "mock-requests.jsonl", "append every request here as JSON lines")
	flag.Parse()
	f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockserve:", err)
		os.Exit(1)
	}
	m, err := e2e.StartMock()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockserve:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(f)
	m.OnRequest = func(r e2e.Request) {
		_ = enc.Encode(map[string]any{"time": r.Time, "method": r.Method, "path": r.Path, "headers": r.Header, "body": json.RawMessage(orNull(r.Body))})
	}
	fmt.Println(m.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	m.Close()
}

func orNull(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	return []byte("null")
}
