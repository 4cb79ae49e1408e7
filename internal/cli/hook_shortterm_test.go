package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// hookEnv is a throwaway home, state dir and project.
type hookEnv struct {
	env  map[string]string
	proj string
	hot  bool // proc runs the per-turn hooks with memhook-hot
}

func newHookEnv(t *testing.T) *hookEnv {
	dir := t.TempDir()
	// removed before the folder is: a SessionStart of the built memhook
	// leaves its background index running
	t.Cleanup(func() { waitBackgroundIndex(t, filepath.Join(dir, "state")) })
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	return &hookEnv{proj: proj, env: map[string]string{
		"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_HOME": filepath.Join(dir, "cerebro"),
		"CEREBRO_CONFIG": filepath.Join(dir, "none.toml"),
	}}
}

func (h *hookEnv) input(session, event string, kv ...string) string {
	return testfile.HookInput(h.proj, session, event, kv...)
}

func (h *hookEnv) hook(t *testing.T, event, stdin string) string {
	t.Helper()
	out, errOut, code := run(t, h.env, stdin, "hook", event)
	if code != 0 || errOut != "" {
		t.Fatalf("hook %s: exit %d, stderr %q", event, code, errOut)
	}
	return out
}

func (h *hookEnv) turn(t *testing.T, session, q, r string) {
	h.hook(t, "user-prompt-submit", h.input(session, "UserPromptSubmit", "prompt", q))
	h.hook(t, "stop", h.input(session, "Stop", "last_assistant_message", r))
}

// daily is every daily file of the project (the hooks date a section by
// the wall clock, so a test may not name the day).
func (h *hookEnv) daily() string {
	files, _ := filepath.Glob(filepath.Join(h.proj, ".claude", "memory_short", "daily", "*.md"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

func (h *hookEnv) log(t *testing.T) []runlog.Entry {
	return testfile.HookLog(t, h.env["CEREBRO_STATE_DIR"])
}

func TestHooksFlushAtReplyThresholdAndAtEnd(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "6"
	for i := 0; i < 4; i++ {
		h.turn(t, "s1", fmt.Sprintf("Please add flag %d.", i), fmt.Sprintf("I added flag %d.", i))
	}
	if got := h.daily(); strings.Count(got, "· auto") != 1 {
		t.Fatalf("want one auto section after 6 replies:\n%s", got)
	}
	h.hook(t, "session-end", h.input("s1", "SessionEnd", "reason", "other"))
	got := h.daily()
	if strings.Count(got, "· session-end") != 1 {
		t.Fatalf("no session-end section:\n%s", got)
	}
	asked, done := bulletsUnder(got, "### Asked"), repliesIn(got)
	for i := 0; i < 4; i++ {
		key := fmt.Sprintf("flag %d.", i)
		if countContaining(asked, key) != 1 || countContaining(done, key) != 1 {
			t.Fatalf("turn %d lost or doubled:\n%s", i, got)
		}
	}
}

func TestHooksFlushAtCharThreshold(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_CHARS"] = "500"
	h.turn(t, "s1", "q1", "r1")
	h.turn(t, "s1", "q2", strings.Repeat("long answer ", 50))
	if !strings.Contains(h.daily(), "· auto") {
		t.Fatal("no flush at the character threshold")
	}
}

func TestPreCompactFlushes(t *testing.T) {
	h := newHookEnv(t)
	for i := 0; i < 3; i++ {
		h.turn(t, "s1", fmt.Sprintf("q%d", i), fmt.Sprintf("r%d", i))
	}
	h.hook(t, "pre-compact", h.input("s1", "PreCompact", "trigger", "auto"))
	if !strings.Contains(h.daily(), "· pre-compact") {
		t.Fatalf("no pre-compact section:\n%s", h.daily())
	}
}

func TestTrivialSessionLeavesNoFile(t *testing.T) {
	h := newHookEnv(t)
	h.turn(t, "s1", "hi", "hello")
	h.hook(t, "session-end", h.input("s1", "SessionEnd", "reason", "other"))
	if h.daily() != "" {
		t.Fatal("a one-turn session was saved")
	}
}

// SessionStart recovers a cancelled session's segment, injects it, and
// touches the project's registry entry; a project with long-term memory
// that is not registered stays out (TestCloneCarryingMemoryLongIsNotAdmitted).
func TestSessionStartRecoversInjectsAndTouches(t *testing.T) {
	h := newHookEnv(t)
	regPath := filepath.Join(h.env["CEREBRO_HOME"], ".claude", "memory_short", "registry.json")
	testfile.Write(t, regPath, `{"projects":[{"id":"`+project.ID(h.proj)+`","name":"proj","path":"`+h.proj+`","registered":"2026-01-01T00:00:00Z","last_seen":"2026-01-01T00:00:00Z"}]}`)
	for i := 0; i < 3; i++ {
		h.turn(t, "dead", fmt.Sprintf("question %d", i), fmt.Sprintf("answer %d", i))
	}
	// SessionEnd was cancelled: "dead" ends with a pending segment.
	h.hook(t, "session-end", `{"session_id":"other","cwd":"`+h.proj+`"}`) // an unrelated session ends
	os.MkdirAll(project.Layout{Root: h.proj}.LongDir(), 0o755)
	// An idle session is recovered only once it has been silent for a while:
	// run's clock is fixed, so mark it ended as a cancelled SessionEnd would.
	out := h.hook(t, "session-start", h.input("new", "SessionStart", "source", "startup"))
	if out != "" || h.daily() != "" {
		t.Fatalf("a live session of the project was recovered: %q", out)
	}
	h.hook(t, "session-end", h.input("dead", "SessionEnd", "reason", "other")) // marks ended and flushes
	got := h.daily()
	if strings.Count(got, "question 1") != 1 {
		t.Fatalf("want the segment once:\n%s", got)
	}
	out = h.hook(t, "session-start", h.input("new2", "SessionStart", "source", "resume"))
	var v struct {
		HookSpecificOutput struct {
			HookEventName, AdditionalContext string
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("stdout is not the hook JSON: %q", out)
	}
	ctx := v.HookSpecificOutput.AdditionalContext
	if v.HookSpecificOutput.HookEventName != "SessionStart" || !strings.Contains(ctx, "question 1") || !strings.Contains(ctx, "memory_short/daily/") {
		t.Fatalf("inject lacks the distillate or its source:\n%s", ctx)
	}
	reg, err := registry.Read(regPath)
	if err != nil || len(reg.Projects) != 1 || reg.Projects[0].Path != h.proj || reg.Projects[0].ID != project.ID(h.proj) ||
		reg.Projects[0].Registered != "2026-01-01T00:00:00Z" || reg.Projects[0].LastSeen == "2026-01-01T00:00:00Z" {
		t.Fatalf("registry: %+v %v", reg, err)
	}
}

func TestSessionStartEmptyWhenNothing(t *testing.T) {
	h := newHookEnv(t)
	if out := h.hook(t, "session-start", h.input("s", "SessionStart", "source", "startup")); out != "" {
		t.Fatalf("stdout %q", out)
	}
	if _, err := os.Stat(filepath.Join(h.env["CEREBRO_HOME"], ".claude", "memory_short", "registry.json")); err == nil {
		t.Fatal("a project without long-term memory was registered")
	}
}

func TestFlushPendingRecoversEverything(t *testing.T) {
	h := newHookEnv(t)
	for i := 0; i < 3; i++ {
		h.turn(t, "a", fmt.Sprintf("qa%d", i), "ra")
		h.turn(t, "b", fmt.Sprintf("qb%d", i), "rb")
	}
	out, errOut, code := run(t, h.env, "", "flush", "--pending")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, "wrote") != 2 || strings.Count(h.daily(), "· recovery") != 2 {
		t.Fatalf("stdout %q\n%s", out, h.daily())
	}
	out, _, _ = run(t, h.env, "", "flush", "--pending")
	if strings.Contains(out, "wrote") || !strings.Contains(out, "nothing to flush") || strings.Count(h.daily(), "· recovery") != 2 {
		t.Fatalf("second --pending wrote again: %q", out)
	}
}

func TestBadInputFailsOpen(t *testing.T) {
	h := newHookEnv(t)
	dirAsTranscript := t.TempDir()
	truncated := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(truncated, []byte(`{"type":"user","message":{"role":"user","content":"whole line"}}`+"\n"+`{"type":"assistant","mess`), 0o644)
	cases := []struct{ name, event, stdin string }{
		{"empty", "stop", ""},
		{"malformed", "user-prompt-submit", "{not json"},
		{"not an object", "stop", "[1,2]"},
		{"invalid utf-8", "user-prompt-submit", h.input("u", "UserPromptSubmit", "prompt", "caf\xe9 \xff")},
		{"path traversal session", "stop", `{"session_id":"../../etc","cwd":"` + h.proj + `"}`},
		{"missing cwd dir", "stop", `{"session_id":"x","cwd":"/nonexistent/dir"}`},
		{"unknown event", "bogus", h.input("u", "Bogus")},
		{"transcript is a directory", "pre-compact", strings.Replace(h.input("d", "PreCompact"), `"transcript_path":"`, `"transcript_path":"`+dirAsTranscript+`","x":"`, 1)},
		{"truncated last line", "session-end", strings.Replace(h.input("u", "SessionEnd"), `"transcript_path":"`, `"transcript_path":"`+truncated+`","x":"`, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(h.log(t))
			out, errOut, code := run(t, h.env, c.stdin, "hook", c.event)
			if code != 0 || out != "" || errOut != "" {
				t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
			}
			if len(h.log(t)) <= before {
				t.Fatal("no log line")
			}
		})
	}
	// The invalid UTF-8 prompt was captured, repaired.
	data, _ := os.ReadFile(filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", project.ID(h.proj), "u.jsonl"))
	if !strings.Contains(string(data), "caf\uFFFD") {
		t.Fatalf("journal: %q", data)
	}
}

func TestNestedRunDoesNothing(t *testing.T) {
	h := newHookEnv(t)
	h.env[claude.NestedEnv] = "1"
	h.turn(t, "s1", "q", "r")
	if _, err := os.Stat(h.env["CEREBRO_STATE_DIR"]); err == nil {
		t.Fatal("a nested hook wrote state")
	}
}

func TestDoctorReportsTimingsPendingAndVersion(t *testing.T) {
	h := newHookEnv(t)
	h.turn(t, "s1", "q1", "r1")
	h.turn(t, "s1", "q2", "r2")
	h.hook(t, "stop", "{broken") // one error in the log
	h.hook(t, "session-end", h.input("s1", "SessionEnd"))
	// s2 ends with an unflushed segment: SessionEnd was cancelled.
	h.turn(t, "s2", "q1", "r1")
	plugin := filepath.Join(t.TempDir(), "plugin")
	write := func(p, s string) { os.MkdirAll(filepath.Dir(p), 0o755); os.WriteFile(p, []byte(s), 0o644) }
	write(filepath.Join(plugin, ".claude-plugin", "plugin.json"), `{"name":"cerebro","version":"9.9.9"}`)
	h.env["CLAUDE_PLUGIN_ROOT"] = plugin
	st := filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions", project.ID(h.proj), "s2.json")
	data, _ := os.ReadFile(st)
	os.WriteFile(st, []byte(strings.Replace(string(data), `"seg_replies"`, `"ended":true,"seg_replies"`, 1)), 0o600)
	out, errOut, code := run(t, h.env, "", "doctor", "--project", h.proj)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"user-prompt-submit", "P50 ms", "differs from plugin version 9.9.9", "1 session(s) ended with an unflushed segment",
		"memhook flush --pending", "parse hook input", h.proj} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorBrokenConfigExits1(t *testing.T) {
	h := newHookEnv(t)
	os.WriteFile(h.env["CEREBRO_CONFIG"], []byte("[short\n"), 0o644)
	out, _, code := run(t, h.env, "", "doctor", "--project", h.proj)
	if code != 1 || !strings.Contains(out, "broken") || !strings.Contains(out, "hint:") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestRealHookInputs feeds the stdin Claude Code 2.1.197 really sent (51
// hook calls of one e2e run) to the handlers, with cwd moved to a temp
// project: every call exits 0 and prints nothing or the SessionStart JSON.
func TestRealHookInputs(t *testing.T) {
	data, err := os.ReadFile(testfile.Shared(t, "fixtures", "claude-code-2.1.197__hook-inputs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHookEnv(t)
	events := map[string]string{"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "Stop": "stop",
		"PreCompact": "pre-compact", "SessionEnd": "session-end"}
	ran := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		ev, ok := events[m["hook_event_name"].(string)]
		if !ok {
			continue
		}
		m["cwd"] = h.proj
		m["transcript_path"] = filepath.Join(t.TempDir(), "missing.jsonl")
		in, _ := json.Marshal(m)
		out := h.hook(t, ev, string(in))
		ran++
		if out == "" {
			continue
		}
		var v struct {
			HookSpecificOutput struct{ HookEventName string }
		}
		if ev != "session-start" || json.Unmarshal([]byte(out), &v) != nil || v.HookSpecificOutput.HookEventName != "SessionStart" {
			t.Fatalf("%s printed %q", ev, out)
		}
	}
	for _, e := range h.log(t) {
		if e.Level == "error" {
			t.Errorf("logged error: %s %s", e.Event, e.Message)
		}
	}
	if ran < 20 || !strings.Contains(h.daily(), "TRIGGER_BASH") {
		t.Fatalf("%d calls; daily file:\n%s", ran, h.daily())
	}
}

func TestScanSecretsRedactsTheDistillate(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_SCAN_SECRETS"] = "true"
	key := "AKIA" + "Q3EGRXZ7N4KPLM2T"
	for i := 0; i < 2; i++ {
		h.turn(t, "s1", fmt.Sprintf("Please deploy with key %s now, step %d.", key, i), fmt.Sprintf("I deployed step %d.", i))
	}
	h.hook(t, "session-end", h.input("s1", "SessionEnd"))
	got := h.daily()
	if !strings.Contains(got, "step 1") || strings.Contains(got, key) || !strings.Contains(got, "[REDACTED:") {
		t.Fatalf("not redacted:\n%s", got)
	}
}

// TestFlushSaysWhatItDid: `memhook flush` names the section it wrote with
// its size, or says why nothing was written.
func TestFlushSaysWhatItDid(t *testing.T) {
	h := newHookEnv(t)
	out, _, code := run(t, h.env, "", "flush", "--project", h.proj)
	if code != 0 || !strings.Contains(out, "nothing to flush") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	h.turn(t, "s1", "Please add flag one.", "I added flag one.")
	out, _, _ = run(t, h.env, "", "flush", "--project", h.proj)
	if !strings.Contains(out, "s1: skipped (too few replies so far (2))") {
		t.Errorf("a two-reply session: %q", out)
	}
	h.turn(t, "s1", "Please add flag two.", "I added flag two.")
	out, _, _ = run(t, h.env, "", "flush", "--project", h.proj)
	if !strings.Contains(out, "s1: wrote section 1 (4 replies, ") || !strings.Contains(out, "memory_short/daily/") {
		t.Errorf("a four-reply session: %q", out)
	}
}

// TestSessionUnrecordedForAFullStateDirIsRecovered: while the state dir
// takes no writes the hooks fail open and leave a marker in the project;
// once it does again, the next SessionStart flushes the session from its
// transcript.
func TestSessionUnrecordedForAFullStateDirIsRecovered(t *testing.T) {
	h := newHookEnv(t)
	broken := filepath.Join(t.TempDir(), "state-is-a-file")
	os.WriteFile(broken, []byte("x"), 0o600)
	good := h.env["CEREBRO_STATE_DIR"]
	h.env["CEREBRO_STATE_DIR"] = broken
	tr := filepath.Join(h.proj, "..", "lost.jsonl")
	os.WriteFile(tr, []byte(userLine("Rename the Marmot flag to --fast")+"\n"+
		`{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"I renamed the Marmot flag."},{"type":"tool_use","name":"Edit","input":{"file_path":"main.go"}}]}}`+"\n"), 0o600)
	h.hook(t, "user-prompt-submit", h.input("lost", "UserPromptSubmit", "prompt", "Rename the Marmot flag to --fast"))
	h.hook(t, "stop", h.input("lost", "Stop", "last_assistant_message", "I renamed the Marmot flag."))
	if _, err := os.Stat(filepath.Join(h.proj, ".claude", ".cerebro", "unrecorded", "lost")); err != nil {
		t.Fatalf("no recovery marker: %v", err)
	}
	h.env["CEREBRO_STATE_DIR"] = good
	h.hook(t, "session-start", h.input("next", "SessionStart", "source", "startup"))
	got := h.daily()
	if !strings.Contains(got, "Marmot") || !strings.Contains(got, "· recovery") {
		t.Fatalf("the unrecorded session was not recovered:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(h.proj, ".claude", ".cerebro", "unrecorded", "lost")); err == nil {
		t.Error("the marker outlived the recovery")
	}
	h.hook(t, "session-start", h.input("next2", "SessionStart", "source", "startup"))
	if n := strings.Count(h.daily(), "Marmot flag to"); n != 1 {
		t.Errorf("recovered %d times", n)
	}
}

// TestCapturedHandOverIsNotCapturedAgain: memhook-hot captures a message
// and hands the event over with a record naming the session; memhook then
// only does the rest. A record naming another session is ignored, so a
// stale variable never silences capture.
func TestCapturedHandOverIsNotCapturedAgain(t *testing.T) {
	h := newHookEnv(t)
	h.env["CEREBRO_SHORT_FLUSH_REPLIES"] = "4"
	h.turn(t, "s1", "Please rename the flag.", "I renamed the flag.")
	h.hook(t, "user-prompt-submit", h.input("s1", "UserPromptSubmit", "prompt", "Please rename the option too."))
	h.env[hook.HandOverEnv] = strings.TrimPrefix(hook.Handed{Reason: "flush due", Session: "someone-else", Captured: true}.Env(), hook.HandOverEnv+"=")
	h.hook(t, "stop", h.input("s1", "Stop", "last_assistant_message", "I renamed the option."))
	if got := h.daily(); countContaining(repliesIn(got), "renamed the option") != 1 {
		t.Fatalf("a stale hand-over kept the reply out, or it was written twice:\n%s", got)
	}
	// Two more turns, the last as memhook-hot hands it over: the journal
	// already holds its reply.
	delete(h.env, hook.HandOverEnv)
	h.turn(t, "s1", "Now add a test for it.", "I added a test.")
	h.hook(t, "user-prompt-submit", h.input("s1", "UserPromptSubmit", "prompt", "And one for the option."))
	s := capture.Store{Root: filepath.Join(h.env["CEREBRO_STATE_DIR"], "sessions")}.Session(project.ID(h.proj), "s1")
	if _, err := s.Capture(time.Now(), "assistant", "I added the option's test.", capture.Meta{Project: h.proj}); err != nil {
		t.Fatal(err)
	}
	h.env[hook.HandOverEnv] = strings.TrimPrefix(hook.Handed{Reason: "flush due", Session: "s1", Root: h.proj, Captured: true, FlushDue: true}.Env(), hook.HandOverEnv+"=")
	h.hook(t, "stop", h.input("s1", "Stop", "last_assistant_message", "I added the option's test."))
	got := h.daily()
	if n := countContaining(repliesIn(got), "the option's test"); n != 1 {
		t.Fatalf("the handed-over reply is in Done %d times, want 1 (flushed once, not captured again):\n%s", n, got)
	}
	// The flush took the journal's lines out (see ForgetFlushed): the
	// session's counter says how many messages were captured.
	st, err := s.Load()
	if err != nil || st.Replies != 8 {
		t.Fatalf("%d messages captured (%v), want 8", st.Replies, err)
	}
}

// waitBackgroundIndex waits until no background index SessionStart
// started under the state dir holds its project's slot.
func waitBackgroundIndex(t *testing.T, state string) {
	t.Helper()
	for end := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		slots, _ := filepath.Glob(filepath.Join(state, "sessions", "*", "index-run"))
		if len(slots) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("background index still running: %v", slots)
		}
	}
}
