package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synthTranscript writes a transcript of about size bytes: prompts, split
// assistant messages, tool results and progress lines, like a real session.
func synthTranscript(tb testing.TB, path string, size int) {
	tb.Helper()
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","timestamp":"2026-11-30T09:00:00Z","message":{"role":"user","content":"please change handler %d so it retries on timeout"}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"progress","uuid":"p%d","data":{"type":"hook_progress","hookEvent":"PreToolUse"}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","timestamp":"2026-11-30T09:00:01Z","message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"I will update handler %d and run the tests."}]}}`+"\n", i, i, i)
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"b%d","timestamp":"2026-11-30T09:00:02Z","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Edit","input":{"file_path":"/p/handler%d.go","old_string":"x","new_string":"y"}}]}}`+"\n", i, i, i, i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"r%d","timestamp":"2026-11-30T09:00:03Z","toolUseResult":{"filePath":"/p/handler%d.go"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, i, i, strings.Repeat("ok ", 100))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReadIncremental reads the last 10 KB of a transcript, as a hook
// does from its saved offset. The cost must not grow with the file: compare
// the two sub-benchmarks.
func BenchmarkReadIncremental(b *testing.B) {
	const tail = 10 << 10
	for _, tc := range []struct {
		name string
		size int
	}{{"file=10KB", tail}, {"file=2.7MB", 2700 << 10}} {
		b.Run(tc.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "t.jsonl")
			synthTranscript(b, path, tc.size)
			size := fileSize(b, path)
			// Start at a line boundary about 10 KB before the end.
			_, from, err := (Reader{}).Read(path, max(0, size-tail), 1)
			if err != nil {
				b.Fatal(err)
			}
			if size <= tail {
				from = 0
			}
			b.SetBytes(size - from)
			b.ResetTimer()
			for b.Loop() {
				items, next, err := (Reader{}).Read(path, from, 0)
				if err != nil || next != size || len(items) == 0 {
					b.Fatalf("items %d next %d err %v", len(items), next, err)
				}
			}
		})
	}
}

// wideLine is one assistant line with n text blocks (and as many tool
// calls), or, split, n lines of one block each sharing one message id.
func wideLine(n int, split bool) string {
	var b strings.Builder
	head := `{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"msg_wide","role":"assistant","content":[`
	if !split {
		b.WriteString(head)
	}
	for i := 0; i < n; i++ {
		if split {
			b.WriteString(head)
		} else if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"text","text":"block %d of the reply"},{"type":"tool_use","name":"Read","input":{"file_path":"/p/f%d.go"}}`, i, i)
		if split {
			b.WriteString("]}}\n")
		}
	}
	if !split {
		b.WriteString("]}}\n")
	}
	return b.String()
}

// BenchmarkWideLine reads a message of 20k and of 200k content blocks, on
// one line and split over as many lines: the cost per block must not grow
// with the count (compare ns/block of the sub-benchmarks; joining block by
// block made it grow tenfold).
func BenchmarkWideLine(b *testing.B) {
	for _, split := range []bool{false, true} {
		for _, n := range []int{20000, 200000} {
			b.Run(fmt.Sprintf("split=%v/blocks=%d", split, n), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "t.jsonl")
				os.WriteFile(path, []byte(wideLine(n, split)), 0o644)
				r := Reader{LineBytes: 64 << 20}
				b.ResetTimer()
				for b.Loop() {
					items, _, err := r.Read(path, 0, 0)
					if err != nil || len(items) != 1 || len(items[0].Tools) != n {
						b.Fatalf("items %d err %v", len(items), err)
					}
					if _, _, err := r.Count(path, 0, 0); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/block")
			})
		}
	}
}
