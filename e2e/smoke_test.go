//go:build e2e

package e2e

import "testing"

func TestSmoke(t *testing.T) {
	s := newSandbox(t)
	r := s.Prompt("hello there TRIGGER_BASH")
	t.Logf("%s", r.Stdout)
	for id, recs := range s.Transcripts() {
		for _, rec := range recs {
			if rec.Get("type").String() == "attachment" {
				t.Logf("%s %s", id[:8], rec.Get("attachment").Raw[:min(300, len(rec.Get("attachment").Raw))])
			}
		}
	}
	t.Logf("%+v", s.HookRuns())
}
