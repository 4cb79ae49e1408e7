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

	"github.com/tidwall/gjson"
)

// TranscriptDir is where Claude Code keeps this project's transcripts.
func (s *Sandbox) TranscriptDir() string { return s.transcriptDirOf(s.Project) }

// transcriptDirOf is where Claude Code keeps the transcripts of sessions run in dir.
func (s *Sandbox) transcriptDirOf(dir string) string {
	enc := strings.NewReplacer("/", "-", ".", "-").Replace(dir)
	return filepath.Join(s.Home, ".claude", "projects", enc)
}

// Transcript reads one session's transcript records (after claude exited:
// Claude Code writes transcripts asynchronously).
func (s *Sandbox) Transcript(sessionID string) []gjson.Result {
	s.t.Helper()
	return readJSONL(s.t, filepath.Join(s.TranscriptDir(), sessionID+".jsonl"))
}

// Transcripts returns every main-session transcript of the project, and of
// every other directory claude ran in (Cwd), by session id.
func (s *Sandbox) Transcripts() map[string][]gjson.Result {
	s.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(s.TranscriptDir(), "*.jsonl"))
	for dir := range s.cwds {
		if dir != s.Project {
			more, _ := filepath.Glob(filepath.Join(s.transcriptDirOf(dir), "*.jsonl"))
			paths = append(paths, more...)
		}
	}
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

// memhookEvents maps memhook's hook argument to Claude Code's event name.
var memhookEvents = map[string]string{
	"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "stop": "Stop",
	"pre-compact": "PreCompact", "session-end": "SessionEnd", "post-tool-use": "PostToolUse",
	"pre-tool-use": "PreToolUse", "post-tool-use-failure": "PostToolUseFailure",
}

// MemhookLog reads memhook's own run log (hooks.log in the plugin's data dir).
func (s *Sandbox) MemhookLog() []gjson.Result {
	s.t.Helper()
	var out []gjson.Result
	for _, name := range []string{"hooks.log.1", "hooks.log"} {
		p := filepath.Join(s.PluginData(), "logs", name)
		if _, err := os.Stat(p); err == nil {
			out = append(out, readJSONL(s.t, p)...)
		}
	}
	return out
}

// hookTiming is one hook run's duration from one point of view.
type hookTiming struct {
	Event  string
	Source string // "transcript" (Claude Code's durationMs) or "memhook" (its own log)
	MS     float64
}

// checkStreamHooks checks each stream-json hook_response reports success.
// (Their arrival times are no measure: Claude Code emits some in batches.)
func (s *Sandbox) checkStreamHooks() {
	s.t.Helper()
	for _, r := range s.runs {
		for _, l := range r.Lines() {
			if l.Get("subtype").String() == "hook_response" && (l.Get("outcome").String() != "success" || l.Get("exit_code").Int() != 0) {
				s.t.Errorf("hook %s: outcome %s, exit %d, stderr %q", l.Get("hook_name"), l.Get("outcome"), l.Get("exit_code").Int(), l.Get("stderr"))
			}
		}
	}
}

// checkHooks asserts every cerebro hook run in the sandbox succeeded, seen
// three ways: the transcripts' hook records (only hooks that printed
// something get one), the stream-json hook events (outcome only), and
// memhook's own log, which covers every run including SessionEnd. A hook
// over its hooks.json timeout is one Claude Code cancelled (not a success)
// or one memhook's own deadline stopped (an error in its log): the verdict
// is Claude Code's and memhook's, never a duration this test measured on a
// loaded machine. Every event that ran must have a timeout in hooks.json.
// The durations go to the suite's stats, printed at the end; it returns
// the memhook log.
func (s *Sandbox) checkHooks() []gjson.Result {
	s.t.Helper()
	limits := hookTimeouts(s.t)
	var timings []hookTiming
	for _, h := range s.cerebroHookRuns() {
		if h.Kind != "hook_success" || h.ExitCode != 0 {
			s.t.Errorf("hook %s in session %s: %s exit %d, stderr %q", h.Name, h.Session, h.Kind, h.ExitCode, h.Stderr)
		}
		timings = append(timings, hookTiming{h.Event, "transcript", h.DurationMS})
	}
	s.checkStreamHooks()
	log := s.MemhookLog()
	for _, e := range log {
		if e.Get("level").String() == "error" {
			s.t.Errorf("memhook logged an error: %s", e.Raw)
		}
		if ev, ok := memhookEvents[e.Get("event").String()]; ok {
			timings = append(timings, hookTiming{ev, "memhook", e.Get("ms").Float()})
		}
	}
	for _, h := range timings {
		lim, ok := limits[h.Event]
		if !ok || lim <= 0 {
			s.t.Errorf("a %s hook ran but hooks.json gives %s no timeout", h.Event, h.Event)
			continue
		}
		recordHookDuration(h, lim)
	}
	return log
}

// memhookRuns counts memhook's logged runs per Claude Code event name.
func memhookRuns(log []gjson.Result) map[string]int {
	out := map[string]int{}
	for _, e := range log {
		if ev, ok := memhookEvents[e.Get("event").String()]; ok {
			out[ev]++
		}
	}
	return out
}

var (
	statsMu    sync.Mutex
	hookStats  = map[[2]string][]float64{}
	hookLimits = map[string]time.Duration{}
)

func recordHookDuration(h hookTiming, limit time.Duration) {
	statsMu.Lock()
	defer statsMu.Unlock()
	k := [2]string{h.Event, h.Source}
	hookStats[k] = append(hookStats[k], h.MS)
	hookLimits[h.Event] = limit
}

// printHookStats prints p50/p95/max of hook durations per event and source
// beside the event's hooks.json timeout: a figure to read, not a verdict
// (a hook over its timeout fails checkHooks through Claude Code's record).
func printHookStats(w io.Writer) {
	statsMu.Lock()
	defer statsMu.Unlock()
	if len(hookStats) == 0 {
		fmt.Fprintln(w, "hook durations: none recorded")
		return
	}
	keys := make([][2]string, 0, len(hookStats))
	for k := range hookStats {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] > keys[j][1]
	})
	fmt.Fprintln(w, "hook durations (transcript = Claude Code's durationMs, for hooks that printed output; memhook = its own log, every run):")
	fmt.Fprintf(w, "  %-18s %-10s %5s %8s %8s %8s %9s\n", "event", "source", "n", "p50 ms", "p95 ms", "max ms", "timeout s")
	for _, k := range keys {
		v := append([]float64(nil), hookStats[k]...)
		sort.Float64s(v)
		fmt.Fprintf(w, "  %-18s %-10s %5d %8.1f %8.1f %8.1f %9.0f\n", k[0], k[1], len(v), percentile(v, 50), percentile(v, 95), v[len(v)-1], hookLimits[k[0]].Seconds())
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
