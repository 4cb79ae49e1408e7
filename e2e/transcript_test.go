//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/gitrepo"
	"github.com/tidwall/gjson"
)

func initRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := gitrepo.Init(dir); err != nil {
		t.Fatal(err)
	}
}

// TranscriptDir is where Claude Code keeps this project's transcripts.
func (s *Sandbox) TranscriptDir() string {
	enc := strings.NewReplacer("/", "-", ".", "-").Replace(s.Project)
	return filepath.Join(s.Home, ".claude", "projects", enc)
}

// Transcript reads one session's transcript records (after claude exited:
// Claude Code writes transcripts asynchronously).
func (s *Sandbox) Transcript(sessionID string) []gjson.Result {
	s.t.Helper()
	return readJSONL(s.t, filepath.Join(s.TranscriptDir(), sessionID+".jsonl"))
}

// Transcripts returns every main-session transcript of the project by session id.
func (s *Sandbox) Transcripts() map[string][]gjson.Result {
	s.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(s.TranscriptDir(), "*.jsonl"))
	out := map[string][]gjson.Result{}
	for _, p := range paths {
		out[strings.TrimSuffix(filepath.Base(p), ".jsonl")] = readJSONL(s.t, p)
	}
	return out
}

func readJSONL(t *testing.T, path string) []gjson.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read transcript: %v", err)
	}
	var out []gjson.Result
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, gjson.Parse(l))
		}
	}
	return out
}

// HookRun is one hook execution as Claude Code recorded it in a transcript
// (an `attachment` record of type hook_success, hook_non_blocking_error, …).
type HookRun struct {
	Session    string
	Kind       string // attachment type: hook_success, hook_cancelled, ...
	Event      string // hookEvent, e.g. "SessionStart"
	Name       string // hookName, e.g. "SessionStart:startup"
	Command    string
	ExitCode   int64
	DurationMS float64
	Stdout     string
	Stderr     string
}

// HookRuns collects the hook records of every transcript in the sandbox.
func (s *Sandbox) HookRuns() []HookRun {
	s.t.Helper()
	var out []HookRun
	for id, recs := range s.Transcripts() {
		for _, r := range recs {
			a := r.Get("attachment")
			if r.Get("type").String() != "attachment" || !strings.HasPrefix(a.Get("type").String(), "hook_") {
				continue
			}
			if a.Get("type").String() == "hook_additional_context" {
				continue
			}
			h := HookRun{
				Session: id, Kind: a.Get("type").String(), Event: a.Get("hookEvent").String(),
				Name: a.Get("hookName").String(), Command: a.Get("command").String(),
				ExitCode: a.Get("exitCode").Int(), DurationMS: a.Get("durationMs").Float(),
				Stdout: a.Get("stdout").String(), Stderr: a.Get("stderr").String(),
			}
			if h.Event == "" {
				h.Event, _, _ = strings.Cut(h.Name, ":")
			}
			out = append(out, h)
		}
	}
	return out
}

// cerebroHookRuns are the hook runs whose command is cerebro's memhook.
func (s *Sandbox) cerebroHookRuns() []HookRun {
	var out []HookRun
	for _, h := range s.HookRuns() {
		if strings.Contains(h.Command, "/scripts/memhook") {
			out = append(out, h)
		}
	}
	return out
}

// hookTimeouts are the timeouts hooks/hooks.json gives each event, read once.
func hookTimeouts(t *testing.T) map[string]time.Duration {
	t.Helper()
	data := readFile(t, filepath.Join(repoRoot, "hooks", "hooks.json"))
	out := map[string]time.Duration{}
	gjson.Get(data, "hooks").ForEach(func(event, groups gjson.Result) bool {
		groups.ForEach(func(_, g gjson.Result) bool {
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				out[event.String()] = time.Duration(h.Get("timeout").Float() * float64(time.Second))
				return true
			})
			return true
		})
		return true
	})
	return out
}

// checkHooks asserts every cerebro hook run in the sandbox succeeded within
// its hooks.json timeout, and adds their durations to the suite's stats.
func (s *Sandbox) checkHooks() []HookRun {
	s.t.Helper()
	limits := hookTimeouts(s.t)
	runs := s.cerebroHookRuns()
	for _, h := range runs {
		if h.Kind != "hook_success" || h.ExitCode != 0 {
			s.t.Errorf("hook %s in session %s: %s exit %d, stderr %q", h.Name, h.Session, h.Kind, h.ExitCode, h.Stderr)
		}
		if lim, ok := limits[h.Event]; !ok {
			s.t.Errorf("hook %s ran but hooks.json has no timeout for %s", h.Name, h.Event)
		} else if time.Duration(h.DurationMS*float64(time.Millisecond)) > lim {
			s.t.Errorf("hook %s took %.0f ms, over its %s timeout", h.Name, h.DurationMS, lim)
		}
		recordHookDuration(h.Event, h.DurationMS)
	}
	return runs
}

var (
	statsMu   sync.Mutex
	hookStats = map[string][]float64{}
)

func recordHookDuration(event string, ms float64) {
	statsMu.Lock()
	defer statsMu.Unlock()
	hookStats[event] = append(hookStats[event], ms)
}

// printHookStats prints p50/p95 of hook durations per event as Claude Code
// measured them (durationMs in the transcripts).
func printHookStats(w io.Writer) {
	statsMu.Lock()
	defer statsMu.Unlock()
	if len(hookStats) == 0 {
		fmt.Fprintln(w, "hook durations: none recorded")
		return
	}
	events := make([]string, 0, len(hookStats))
	for e := range hookStats {
		events = append(events, e)
	}
	sort.Strings(events)
	fmt.Fprintln(w, "hook durations as Claude Code measured them (durationMs):")
	fmt.Fprintf(w, "  %-18s %5s %8s %8s %8s\n", "event", "n", "p50 ms", "p95 ms", "max ms")
	for _, e := range events {
		v := append([]float64(nil), hookStats[e]...)
		sort.Float64s(v)
		fmt.Fprintf(w, "  %-18s %5d %8.0f %8.0f %8.0f\n", e, len(v), percentile(v, 50), percentile(v, 95), v[len(v)-1])
	}
}

// percentile uses the nearest-rank method on sorted values.
func percentile(sorted []float64, p float64) float64 {
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	if rank < 0 {
		rank = 0
	}
	if rank >= len(sorted) {
		rank = len(sorted) - 1
	}
	return sorted[rank]
}
