//go:build e2e

package e2e

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// DailyDir is the project's short-term daily directory.
func (s *Sandbox) DailyDir() string {
	return filepath.Join(s.Project, ".claude", "memory_short", "daily")
}

// Daily returns the open daily files' text, concatenated in name order
// ("" when there are none).
func (s *Sandbox) Daily() string {
	s.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(s.DailyDir(), "*.md"))
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(readFile(s.t, p))
	}
	return b.String()
}

// Section is one flush in a daily file.
type Section struct {
	Session string // first 8 characters of the session id
	Trigger string // auto, pre-compact, session-end, recovery, manual
	Body    string
}

var sectionHead = regexp.MustCompile(`(?m)^## .*· session ([0-9a-f]{8}) · ([a-z-]+)\s*$`)

// Sections splits daily text into its flush sections.
func Sections(daily string) []Section {
	idx := sectionHead.FindAllStringSubmatchIndex(daily, -1)
	var out []Section
	for i, m := range idx {
		end := len(daily)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		out = append(out, Section{Session: daily[m[2]:m[3]], Trigger: daily[m[4]:m[5]], Body: daily[m[1]:end]})
	}
	return out
}

// sectionsOf keeps a session's sections.
func sectionsOf(all []Section, sessionID string) []Section {
	var out []Section
	for _, s := range all {
		if strings.HasPrefix(sessionID, s.Session) {
			out = append(out, s)
		}
	}
	return out
}

func triggers(secs []Section) []string {
	var out []string
	for _, s := range secs {
		out = append(out, s.Trigger)
	}
	return out
}

// firstRequestOf is the first Messages request Claude Code made for a session.
func (s *Sandbox) firstRequestOf(sessionID string) Request {
	s.t.Helper()
	for _, r := range s.Mock.Messages() {
		if r.Header.Get("X-Claude-Code-Session-Id") == sessionID {
			return r
		}
	}
	s.t.Fatalf("the mock got no request for session %s", sessionID)
	return Request{}
}

// systemMessages are the role:"system" messages of a request, where hook
// additionalContext lands.
func systemMessages(r Request) []string {
	var out []string
	for _, m := range r.JSON().Get("messages").Array() {
		if m.Get("role").String() != "system" {
			continue
		}
		if c := m.Get("content"); c.Type == gjson.String {
			out = append(out, c.String())
		} else {
			for _, b := range c.Array() {
				out = append(out, b.Get("text").String())
			}
		}
	}
	return out
}

// injected is the SessionStart context the request carries ("" if none).
func injected(r Request) string {
	for _, m := range systemMessages(r) {
		if strings.Contains(m, "SessionStart hook additional context") {
			return m
		}
	}
	return ""
}

// TestDistillateFlushedDuringSessionAndInjected: a session crossing the
// reply threshold leaves a daily section while it is still running, the
// resumed session adds to it, and the next session starts with it.
func TestDistillateFlushedDuringSessionAndInjected(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_SHORT_FLUSH_REPLIES"] = "2"
	id := newSessionID(t)

	live := s.Live("--session-id", id)
	live.Send("Let us name the ledger service Quokka")
	live.Send("We decided to store balances in integer cents")
	during := sectionsOf(Sections(s.Daily()), id)
	if len(during) == 0 || during[0].Trigger != "auto" {
		t.Fatalf("after two turns, while the session runs, the daily file has sections %v for it, want an auto one\n%s", triggers(during), s.Daily())
	}
	for _, want := range []string{"Quokka", "integer cents"} {
		if !strings.Contains(during[0].Body, want) {
			t.Errorf("the auto distillate lacks %q:\n%s", want, during[0].Body)
		}
	}
	// The per-turn hooks ran memhook-hot (scripts/memhook routes them
	// there), which captured the turn and handed the due flush to memhook.
	handed := false
	for _, e := range s.MemhookLog() {
		handed = handed || e.Get("event").String() == "stop" && e.Get("message").String() == "from memhook-hot: flush due"
	}
	if !handed {
		t.Error("no Stop handed a due flush from memhook-hot to memhook (is bin/memhook-hot built?)")
	}
	live.Send("Next we need a migration for the cents column")
	live.Close()
	s.Prompt("Add an index on the Quokka accounts table", "--resume", id)

	secs := sectionsOf(Sections(s.Daily()), id)
	all := ""
	for _, sec := range secs {
		all += sec.Body
	}
	for _, want := range []string{"Quokka", "integer cents", "migration for the cents column", "index on the Quokka accounts"} {
		if !strings.Contains(all, want) {
			t.Errorf("the session's distillates lack %q:\n%s", want, s.Daily())
		}
	}

	next := s.Prompt("What is on the agenda today?")
	ctx := injected(s.firstRequestOf(next.SessionID()))
	if !strings.Contains(ctx, "Quokka") || !strings.Contains(ctx, "integer cents") {
		t.Errorf("the next session's first request does not carry the distillate in a system message; SessionStart context:\n%s", ctx)
	}
	s.checkHooks()
	var seen bool
	for _, h := range s.cerebroHookRuns() {
		seen = seen || (h.Event == "SessionStart" && h.DurationMS > 0)
	}
	if !seen {
		t.Error("no transcript records Claude Code's durationMs for cerebro's SessionStart hook")
	}
}

// TestTrivialSessionLeavesNothing: a reply is every user or assistant
// message (design §3), so a one-turn session (2 replies) is trivial and
// leaves no daily file, while a two-turn session (4 replies) is saved whole.
func TestTrivialSessionLeavesNothing(t *testing.T) {
	s := newSandbox(t)
	s.Prompt("What time zone is the server in?", "--session-id", newSessionID(t))
	if d := s.Daily(); d != "" {
		t.Fatalf("a two-reply session left a daily file:\n%s", d)
	}
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("Which locale does the server use?")
	live.Send("Set the locale to en_GB")
	live.Close()
	secs := sectionsOf(Sections(s.Daily()), id)
	if len(secs) != 1 || !strings.Contains(secs[0].Body, "locale does the server") || !strings.Contains(secs[0].Body, "en_GB") {
		t.Errorf("a four-reply session should be saved in one section with both turns; got %v\n%s", triggers(secs), s.Daily())
	}
	// claude -p ends the session after every turn: a resumed session that
	// passes the minimum keeps the turn that was trivial on its own.
	id = newSessionID(t)
	s.Prompt("The staging database is Numbat", "--session-id", id)
	s.Prompt("Its backups run hourly", "--resume", id)
	all := ""
	for _, sec := range sectionsOf(Sections(s.Daily()), id) {
		all += sec.Body
	}
	if !strings.Contains(all, "Numbat") || !strings.Contains(all, "hourly") {
		t.Errorf("the resumed session's distillates lack its first or second turn:\n%s", s.Daily())
	}
	s.checkHooks()
}

// TestAutoCompactFlushesBeforeCompaction drives Claude Code into
// auto-compact (reference §8.3) and expects a pre-compact section.
func TestAutoCompactFlushesBeforeCompaction(t *testing.T) {
	s := newSandbox(t)
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The cache layer is Redis with a five minute TTL")
	live.Send("Eviction policy is allkeys-lru")
	live.Send("Here is a huge log TRIGGER_BIGCTX")
	live.Send("Summarise where we are")
	live.Close()
	var boundary bool
	for _, rec := range s.Transcript(id) {
		if rec.Get("subtype").String() == "compact_boundary" && rec.Get("compactMetadata.trigger").String() == "auto" {
			boundary = true
		}
	}
	if !boundary {
		t.Fatal("Claude Code did not auto-compact (no compact_boundary with trigger auto in the transcript)")
	}
	secs := sectionsOf(Sections(s.Daily()), id)
	var pre *Section
	for i := range secs {
		if secs[i].Trigger == "pre-compact" {
			pre = &secs[i]
		}
	}
	if pre == nil {
		t.Fatalf("no pre-compact section for the session; sections %v\n%s", triggers(secs), s.Daily())
	}
	if !strings.Contains(pre.Body, "Redis") {
		t.Errorf("the pre-compact distillate lacks what was said before compaction:\n%s", pre.Body)
	}
	if memhookRuns(s.checkHooks())["PreCompact"] == 0 {
		t.Error("memhook logged no PreCompact run")
	}
}

// TestCompactHandsTheEarlierMemoryAgain: a compaction replaces the
// model's context by a summary, so the SessionStart that follows it
// (source compact) hands again what the session was given at its start —
// another session's section — but never the session's own sections,
// which the summary covers.
func TestCompactHandsTheEarlierMemoryAgain(t *testing.T) {
	s := newSandbox(t)
	other := newSessionID(t)
	s.Prompt("The staging database is called Numbat", "--session-id", other)
	s.Prompt("Its backups run hourly", "--resume", other)
	if len(sectionsOf(Sections(s.Daily()), other)) == 0 {
		t.Fatalf("the other session wrote no section:\n%s", s.Daily())
	}
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The cache layer is Redis with a five minute TTL")
	live.Send("Eviction policy is allkeys-lru")
	live.Send("Here is a huge log TRIGGER_BIGCTX")
	live.Send("Summarise where we are")
	live.Close()
	compacted := false
	for _, rec := range s.Transcript(id) {
		if rec.Get("subtype").String() == "compact_boundary" {
			compacted = true
		}
	}
	if !compacted {
		t.Fatal("Claude Code did not compact (no compact_boundary in the transcript)")
	}
	if len(sectionsOf(Sections(s.Daily()), id)) == 0 {
		t.Fatalf("the session flushed nothing before compaction:\n%s", s.Daily())
	}
	// The last request comes after the compaction: its context holds
	// only what the compact SessionStart handed.
	blocks := s.recalledOf(id)
	if countHolding(blocks, "Numbat") == 0 {
		t.Errorf("after the compaction the other session's memory was not handed again:\n%s", strings.Join(blocks, "\n----\n"))
	}
	if n := countHolding(blocks, "Redis"); n != 0 {
		t.Errorf("after the compaction the session was handed its own sections:\n%s", strings.Join(blocks, "\n----\n"))
	}
	s.checkHooks()
}

// TestClearStartsAnInjectedSession: /clear ends the session and the new one
// it starts gets the distillate too.
func TestClearStartsAnInjectedSession(t *testing.T) {
	s := newSandbox(t)
	s.Env["CEREBRO_SHORT_FLUSH_REPLIES"] = "2"
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("The deploy target is the Wombat cluster")
	live.Send("Rollouts go out on Tuesdays")
	if len(sectionsOf(Sections(s.Daily()), id)) == 0 {
		t.Fatalf("no section after two turns:\n%s", s.Daily())
	}
	live.Send("/clear")
	after := live.Send("Where do we deploy?")
	live.Close()
	newID := after.Get("session_id").String()
	if newID == "" || newID == id {
		t.Fatalf("/clear did not start a new session (session %q)", newID)
	}
	ctx := injected(s.firstRequestOf(newID))
	if !strings.Contains(ctx, "Wombat") {
		t.Errorf("the session /clear started was not injected with the distillate; context:\n%s", ctx)
	}
	s.checkHooks()
}

// recalledOf are the recalled-memory blocks the last request of a session
// carries: a resumed conversation keeps the block of every earlier start.
func (s *Sandbox) recalledOf(sessionID string) []string {
	s.t.Helper()
	var last Request
	for _, r := range s.Mock.Messages() {
		if r.Header.Get("X-Claude-Code-Session-Id") == sessionID {
			last = r
		}
	}
	var out []string
	for _, m := range systemMessages(last) {
		if strings.Contains(m, "Recalled memory (cerebro)") {
			out = append(out, m)
		}
	}
	return out
}

func countHolding(blocks []string, text string) int {
	n := 0
	for _, b := range blocks {
		if strings.Contains(b, text) {
			n++
		}
	}
	return n
}

// TestResumeIsHandedOnlyWhatItWasNotGiven: a session handed another
// session's section at its start is not handed it again by its resumes,
// however many; what the other session wrote since is handed, once.
func TestResumeIsHandedOnlyWhatItWasNotGiven(t *testing.T) {
	s := newSandbox(t)
	other := newSessionID(t)
	s.Prompt("The staging database is called Numbat", "--session-id", other)
	s.Prompt("Its backups run hourly", "--resume", other)
	id := newSessionID(t)
	s.Prompt("Name the cache service Wombat", "--session-id", id)
	s.Prompt("Wombat keeps entries for ten minutes", "--resume", id)
	s.Prompt("Numbat moves to port 5433", "--resume", other)
	s.Prompt("Wombat evicts the oldest entry first", "--resume", id)
	s.Prompt("Wombat runs on port 6380", "--resume", id)
	if len(sectionsOf(Sections(s.Daily()), other)) < 2 {
		t.Fatalf("the other session wrote fewer than two sections:\n%s", s.Daily())
	}
	blocks := s.recalledOf(id)
	if n := countHolding(blocks, "hourly"); n != 1 {
		t.Errorf("the other session's first section was handed %d times, want once:\n%s", n, strings.Join(blocks, "\n----\n"))
	}
	if n := countHolding(blocks, "5433"); n != 1 {
		t.Errorf("the other session's newer section was handed %d times, want once:\n%s", n, strings.Join(blocks, "\n----\n"))
	}
	if n := countHolding(blocks, "Wombat"); n != 0 {
		t.Errorf("a resume was handed the session's own turns:\n%s", strings.Join(blocks, "\n----\n"))
	}
	s.checkHooks()
}

// TestResumedSessionIsNotHandedItsOwnTurns: claude -p ends the session
// after every turn, so each --resume is a SessionStart (source resume)
// after the session's own turns were flushed. The inject of a resume never
// carries those turns back: the request never holds a recalled-memory
// block with them, however often the session is resumed.
func TestResumedSessionIsNotHandedItsOwnTurns(t *testing.T) {
	s := newSandbox(t)
	other := newSessionID(t)
	s.Prompt("The staging database is called Numbat", "--session-id", other)
	s.Prompt("Its backups run hourly", "--resume", other)
	id := newSessionID(t)
	s.Prompt("Name the cache service Wombat", "--session-id", id)
	for _, p := range []string{"Wombat keeps entries for ten minutes", "Wombat evicts the oldest entry first", "Wombat runs on port 6380"} {
		s.Prompt(p, "--resume", id)
	}
	if len(sectionsOf(Sections(s.Daily()), id)) == 0 {
		t.Fatalf("the resumed session wrote no section:\n%s", s.Daily())
	}
	var last Request
	for _, r := range s.Mock.Messages() {
		if r.Header.Get("X-Claude-Code-Session-Id") == id {
			last = r
		}
	}
	recalled := 0
	for _, m := range systemMessages(last) {
		if !strings.Contains(m, "Recalled memory (cerebro)") {
			continue
		}
		recalled++
		if strings.Contains(m, "Wombat") {
			t.Errorf("a resume was handed the session's own turns:\n%s", m)
		}
	}
	if recalled == 0 {
		t.Error("no resume was handed the other session's memory (Numbat)")
	}
	s.checkHooks()
}
