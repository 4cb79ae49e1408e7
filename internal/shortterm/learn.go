package shortterm

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/intent"
	"github.com/cerebro-mem/cerebro/internal/shortterm/distill"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// learn adds what a flushed segment's tool results teach to the project's
// lessons file, cited to the daily file its section went to. It runs at
// flush, after the section is written: a lesson that cannot be written
// costs the flush nothing (the caller logs it).
func learn(root string, seg distill.Segment, dailyFile string) (int, error) {
	outs := Outcomes(root, seg)
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

// Outcomes are a segment's actions as lessons take them. The distillate
// names some actions by what they did ("git push"), not by the command;
// a lesson needs the command, so the forms are read from the calls.
func Outcomes(root string, seg distill.Segment) []lessons.Outcome {
	firstFailed, lastOK := forms(seg.Items)
	var out []lessons.Outcome
	for _, a := range distill.Actions(seg) {
		if a.Subagent {
			continue // a subagent's calls run in its own context, not before the model's
		}
		o := lessons.Outcome{
			Intent: lessons.KeyIn(root, a.Intent), Label: a.Label, FirstFailed: a.FirstFailed, Worked: a.Worked,
			Done: a.Done, Failures: a.Failures, FirstError: a.FirstError, Newest: a.NewestError,
			Refused: a.Status == transcript.StatusRefused || a.Status == transcript.StatusBlocked || a.Status == transcript.StatusRejected,
		}
		if f, ok := firstFailed[a.Intent]; ok && !strings.HasPrefix(o.FirstFailed, "`") {
			o.FirstFailed = f
		}
		if w, ok := lastOK[a.Intent]; ok && a.Done {
			if !strings.HasPrefix(o.Label, "`") {
				o.Label = w
			}
			if o.Worked == "" && a.Failures > 0 && w != firstFailed[a.Intent] {
				o.Worked = w
			}
		} else if f, ok := lastFailed(seg.Items, a.Intent); ok && !a.Done && !strings.HasPrefix(o.Label, "`") {
			o.Label = f
		}
		out = append(out, o)
	}
	return out
}

// forms are, per intent of a shell command's steps, the first command
// that failed and the last one that succeeded.
func forms(items []transcript.Item) (firstFailed, lastOK map[string]string) {
	firstFailed, lastOK = map[string]string{}, map[string]string{}
	for _, it := range items {
		for _, t := range it.Tools {
			cmd := shellCommand(t)
			if cmd == "" || t.Result == nil {
				continue
			}
			for _, k := range intent.Steps(cmd) {
				if t.Result.OK() {
					lastOK[k] = cmd
				} else if _, ok := firstFailed[k]; !ok {
					firstFailed[k] = cmd
				}
			}
		}
	}
	return firstFailed, lastOK
}

func lastFailed(items []transcript.Item, key string) (string, bool) {
	found := ""
	for _, it := range items {
		for _, t := range it.Tools {
			if cmd := shellCommand(t); cmd != "" && t.Result != nil && !t.Result.OK() && slices.Contains(intent.Steps(cmd), key) {
				found = cmd
			}
		}
	}
	return found, found != ""
}

func shellCommand(t transcript.Tool) string {
	if t.Name != "Bash" && t.Name != "PowerShell" {
		return ""
	}
	if t.Input.Command != "" {
		return t.Input.Command
	}
	return t.Target
}
