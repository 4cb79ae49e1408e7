package shortterm

import (
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// learn adds what a flushed segment's tool results teach to the project's
// lessons file, cited to the daily file its section went to. It runs at
// flush, after the section is written: a lesson that cannot be written
// costs the flush nothing (the caller logs it).
func learn(root string, seg distill.Segment, dailyFile string) (int, error) {
	outs := Outcomes(root, distill.Actions(seg))
	if len(outs) == 0 {
		return 0, nil
	}
	date, _ := daily.DateOf(filepath.Base(dailyFile))
	source := dailyFile
	if rel, err := filepath.Rel(root, dailyFile); err == nil {
		source = filepath.ToSlash(rel)
	}
	n := 0
	err := lessons.Update(root, func(f *lessons.File) bool {
		n = f.Learn(outs, date, source)
		return n > 0
	})
	return n, err
}

// Outcomes are a segment's actions as lessons take them.
func Outcomes(root string, acts []distill.Action) []lessons.Outcome {
	var out []lessons.Outcome
	for _, a := range acts {
		if a.Subagent {
			continue // a subagent's calls run in its own context, not before the model's
		}
		out = append(out, lessons.Outcome{
			Intent: lessons.KeyIn(root, a.Intent), Label: a.Label, FirstFailed: a.FirstFailed, Worked: a.Worked,
			Done: a.Done, Failures: a.Failures, FirstError: a.FirstError, Newest: a.NewestError,
			Refused: a.Status == transcript.StatusRefused || a.Status == transcript.StatusBlocked || a.Status == transcript.StatusRejected,
		})
	}
	return out
}
