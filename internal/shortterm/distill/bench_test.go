package distill

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// flushSegment builds a segment of the size an automatic flush sees: n
// replies of ordinary prose with tool calls.
func flushSegment(n int) Segment {
	var items []transcript.Item
	for i := 0; i < n; i += 2 {
		s := itoa(i)
		items = append(items,
			user("Please make handler "+s+" retry on timeout and log the attempt count. "+strings.Repeat("Some context about it. ", 8)),
			assistant("a"+s, "Let me look. I've updated handler "+s+" to retry three times. "+strings.Repeat("It keeps the old behaviour otherwise. ", 10)+"We decided to keep the backoff linear. TODO: add a metric.",
				transcript.Tool{Name: "Edit", Target: "/repo/handler" + s + ".go"}, transcript.Tool{Name: "Bash", Target: "go test ./..."}))
	}
	return Segment{Items: items, Dir: "/repo"}
}

// BenchmarkExtractive measures one flush's distillation: a fixture
// session, a typical automatic flush (20 replies, ~12,000 characters) and
// a long segment (a recovery after many unflushed replies).
func BenchmarkExtractive(b *testing.B) {
	fixture, _, err := (transcript.Reader{}).Read(filepath.Join("testdata", "coding.jsonl"), 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		seg  Segment
	}{
		{"fixture=coding", Segment{Items: fixture, Dir: "/home/dev/shop"}},
		{"replies=20", flushSegment(20)},
		{"replies=400", flushSegment(400)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportMetric(float64(transcript.Chars(tc.seg.Items)), "chars")
			for b.Loop() {
				if Extractive(tc.seg) == "" {
					b.Fatal("empty body")
				}
			}
		})
	}
}
