package shortterm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
)

// BenchmarkCapture is the hot path's work inside the hook process.
func BenchmarkCapture(b *testing.B) {
	dir := b.TempDir()
	s := capture.Store{Root: dir}.Session("p", "s")
	meta := capture.Meta{Project: dir, Transcript: filepath.Join(dir, "t.jsonl")}
	text := strings.Repeat("a reply of a typical size ", 20)
	for i := 0; b.Loop(); i++ {
		if _, err := s.Capture(t0, "assistant", text, meta); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlushExtractive flushes a 20-reply segment with tool calls.
func BenchmarkFlushExtractive(b *testing.B) {
	dir := b.TempDir()
	store := capture.Store{Root: filepath.Join(dir, "state")}
	root := filepath.Join(dir, "proj")
	reply := strings.Repeat("I fixed the race by taking the lock first. ", 6)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		s := store.Session("p", fmt.Sprintf("s%d", i))
		tr := filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i))
		f, _ := os.Create(tr)
		for j := 0; j < 10; j++ {
			q := fmt.Sprintf("Please fix problem %d in internal/x.go.", j)
			fmt.Fprintf(f, `{"type":"user","timestamp":"2026-11-30T09:00:00Z","uuid":"u%d","message":{"role":"user","content":%q}}`+"\n", j, q)
			fmt.Fprintf(f, `{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":%q},{"type":"tool_use","name":"Edit","input":{"file_path":"internal/x.go"}}]}}`+"\n", j, reply)
			s.Capture(t0, "user", q, capture.Meta{Project: root, Transcript: tr})
			s.Capture(t0, "assistant", reply, capture.Meta{Project: root, Transcript: tr})
		}
		f.Close()
		b.StartTimer()
		res, err := FlushSession(context.Background(), s, FlushOptions{Trigger: TriggerAuto, Now: t0.Add(time.Hour), MinReplies: 4,
			Distill: func(_ context.Context, seg distill.Segment) string { return distill.Extractive(seg) }})
		if err != nil || res.File == "" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
