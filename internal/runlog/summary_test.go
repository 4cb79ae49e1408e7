package runlog

import (
	"reflect"
	"testing"
)

func TestSummarize(t *testing.T) {
	var entries []Entry
	for i := 1; i <= 10; i++ {
		entries = append(entries, Entry{Event: "stop", MS: float64(i * 10), Level: "info"})
	}
	entries = append(entries,
		Entry{Event: "session-start", MS: 5, Level: "error", Message: "a"},
		Entry{Event: "flush", MS: 9000, Level: "error", Message: "b"},
		Entry{Event: "flush", MS: 8000, Level: "info"},
	)
	timings, errs := Summarize(entries)
	want := []Timing{
		{Event: "session-start", Runs: 1, Errors: 1, P50: 5, P95: 5},
		{Event: "stop", Runs: 10, P50: 60, P95: 100},
	}
	if !reflect.DeepEqual(timings, want) {
		t.Errorf("timings = %+v, want %+v", timings, want)
	}
	if len(errs) != 2 || errs[0].Message != "a" || errs[1].Message != "b" {
		t.Errorf("errors = %+v, want the session-start and the flush error in order", errs)
	}
}
