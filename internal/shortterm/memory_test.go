package shortterm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
)

// memoryFixture drives Memory as the hooks do, on one project, with a
// clock that moves a minute per call.
type memoryFixture struct {
	m    *Memory
	root string
	cfg  *config.Effective
	now  time.Time
}

func newMemory(t *testing.T) *memoryFixture {
	t.Helper()
	f := &memoryFixture{root: filepath.Join(t.TempDir(), "proj"), now: t0}
	state := t.TempDir()
	c := config.Effective{Config: config.Default()}
	f.cfg = &c
	f.m = &Memory{
		Sessions: filepath.Join(state, "sessions"), Budget: BudgetDir(state),
		Config: func(string) *config.Effective { return f.cfg },
		Now:    func() time.Time { f.now = f.now.Add(time.Minute); return f.now },
		Log:    runlog.Open(filepath.Join(state, "logs"), 1<<20),
	}
	return f
}

func (f *memoryFixture) hook(session string) Hook {
	return Hook{Root: f.root, SessionID: session, Transcript: filepath.Join(f.root, "none", session+".jsonl")}
}

// turns runs n prompt/reply turns of a session; replies carry their
// session's name so a test can tell whose section it got.
func (f *memoryFixture) turns(t *testing.T, session, topic string, n int) {
	t.Helper()
	for i := range n {
		h := f.hook(session)
		h.Text = fmt.Sprintf("question %d about %s", i, topic)
		if err := f.m.UserPromptSubmit(h); err != nil {
			t.Fatal(err)
		}
		h.Text = fmt.Sprintf("I changed the %s code, step %d.", topic, i)
		if err := f.m.Stop(context.Background(), h); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *memoryFixture) end(t *testing.T, session string) {
	t.Helper()
	if err := f.m.SessionEnd(context.Background(), f.hook(session)); err != nil {
		t.Fatal(err)
	}
}

func (f *memoryFixture) start(t *testing.T, session, source string) string {
	t.Helper()
	h := f.hook(session)
	h.Source = source
	in, err := f.m.SessionStart(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	return in.Text
}

// TestStopFlushesAtTheReplyThreshold: Stop decides the flush itself, on
// short.flush_replies, and only then.
func TestStopFlushesAtTheReplyThreshold(t *testing.T) {
	f := newMemory(t)
	f.cfg.Short.FlushReplies = 6
	f.turns(t, "s1", "parser", 2)
	if f.dailyCount(t) != 0 {
		t.Fatal("flushed before the threshold")
	}
	f.turns(t, "s1", "parser", 1)
	if f.dailyCount(t) != 1 {
		t.Fatalf("%d sections after 6 replies, want 1", f.dailyCount(t))
	}
}

func (f *memoryFixture) dailyCount(t *testing.T) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(f.root, ".claude", "memory_short", "daily", "*.md"))
	n := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(data), "<!-- cerebro:segment ")
	}
	return n
}

// TestResumeHandsEachSectionOnce: a resumed session is handed neither its
// own sections nor the other sessions' sections it was handed before, on
// every resume; what was written since is handed.
func TestResumeHandsEachSectionOnce(t *testing.T) {
	f := newMemory(t)
	f.start(t, "a", "startup")
	f.turns(t, "a", "alpha", 3)
	f.end(t, "a")
	if got := f.start(t, "b", "startup"); !strings.Contains(got, "alpha") {
		t.Fatalf("b was not handed a's section:\n%s", got)
	}
	f.turns(t, "b", "beta", 3)
	f.end(t, "b")
	got := f.start(t, "a", "resume")
	if !strings.Contains(got, "beta") || strings.Contains(got, "alpha") {
		t.Fatalf("first resume of a:\n%s", got)
	}
	if got := f.start(t, "a", "resume"); got != "" {
		t.Fatalf("second resume of a handed again:\n%s", got)
	}
	// b was handed a's first section at its start: a resume of b leaves it
	// out, and hands a's newer one.
	f.turns(t, "a", "gamma", 3)
	f.end(t, "a")
	got = f.start(t, "b", "resume")
	if !strings.Contains(got, "gamma") || strings.Contains(got, "alpha") || strings.Contains(got, "beta") {
		t.Fatalf("resume of b:\n%s", got)
	}
	// A new session is handed everything.
	got = f.start(t, "c", "startup")
	for _, w := range []string{"alpha", "beta", "gamma"} {
		if !strings.Contains(got, w) {
			t.Fatalf("new session missing %s:\n%s", w, got)
		}
	}
}

// TestGivenIsBoundedAndSurvivesGarbage: the remembered set keeps the
// newest keys only, and a broken or planted file reads as empty or as its
// valid lines, never as an error.
func TestGivenIsBoundedAndSurvivesGarbage(t *testing.T) {
	s := (capture.Store{Root: t.TempDir()}).Session("p", "s")
	var keys []string
	for i := range maxGiven + 50 {
		keys = append(keys, fmt.Sprintf("x#%d", i))
	}
	if err := addGiven(s, keys); err != nil {
		t.Fatal(err)
	}
	got := given(s)
	if len(got) != maxGiven || got["x#0"] || !got[fmt.Sprintf("x#%d", maxGiven+49)] {
		t.Fatalf("%d keys kept; oldest kept %v", len(got), got["x#0"])
	}
	if err := os.WriteFile(givenPath(s), []byte("ok#1\n<script>\n"+strings.Repeat("z", 500)+"\n\x00\nok#2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := given(s); len(got) != 2 || !got["ok#1"] || !got["ok#2"] {
		t.Fatalf("garbage read as %v", got)
	}
	if err := os.WriteFile(givenPath(s), []byte(strings.Repeat("a#1\n", givenBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := given(s); len(got) != 0 {
		t.Fatalf("an oversized file read as %d keys", len(got))
	}
}

// TestFlushReportsWhatEachSessionGot: `memhook flush` flushes the project's
// pending sessions and says per session what it wrote or why nothing; an
// unknown session is ErrNoSession; nothing pending is no report.
func TestFlushReportsWhatEachSessionGot(t *testing.T) {
	f := newMemory(t)
	ctx := context.Background()
	f.turns(t, "big", "ledger", 3)
	f.turns(t, "small", "typo", 1)
	reps, err := f.m.Flush(ctx, FlushRequest{Root: f.root})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FlushReport{}
	for _, r := range reps {
		got[r.Session] = r
	}
	if r := got["big"]; len(reps) != 2 || r.File == "" || r.Seq != 1 || r.Replies != 6 || r.Chars == 0 {
		t.Fatalf("reports %+v", reps)
	}
	if r := got["small"]; r.File != "" || !strings.Contains(r.Skipped, "too few replies so far (2)") {
		t.Fatalf("small session: %+v", r)
	}
	// The live trivial session stays pending; the flushed one does not.
	reps, err = f.m.Flush(ctx, FlushRequest{Root: f.root, Final: true})
	if err != nil || len(reps) != 1 || reps[0].Session != "small" || !strings.Contains(reps[0].Skipped, "trivial session") {
		t.Fatalf("second flush: %+v %v", reps, err)
	}
	if reps, err := f.m.Flush(ctx, FlushRequest{Root: f.root}); err != nil || len(reps) != 0 {
		t.Fatalf("nothing pending, got %+v %v", reps, err)
	}
	if _, err := f.m.Flush(ctx, FlushRequest{Session: "nobody"}); !errors.Is(err, ErrNoSession) {
		t.Fatalf("unknown session: %v", err)
	}
}

// TestSecretsInTitleAndToolOutputAreRedacted: the title heads the section
// and tool output is quoted in Not done; with short.scan_secrets on (the
// default) neither carries a token into the daily file.
func TestSecretsInTitleAndToolOutputAreRedacted(t *testing.T) {
	f := newMemory(t)
	token := "ghp_" + strings.Repeat("aB3dE6gH9k", 3) + "mNpQrS"
	h := f.hook("s1")
	if err := os.MkdirAll(filepath.Dir(h.Transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"type":"user","uuid":"u1","timestamp":"2026-11-30T09:00:00Z","message":{"role":"user","content":"push it"}}`,
		`{"type":"ai-title","aiTitle":"Push with ` + token + `","sessionId":"s1"}`,
		`{"type":"assistant","uuid":"a1","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git push origin main"}}]}}`,
		`{"type":"user","uuid":"r1","timestamp":"2026-11-30T09:00:02Z","toolUseResult":"Error: Exit code 128","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 128\nfatal: could not read from https://` + token + `@github.com/o/r.git"}]}}`,
		`{"type":"assistant","uuid":"a2","timestamp":"2026-11-30T09:00:03Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"The push failed."}]}}`,
	}
	if err := os.WriteFile(h.Transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.Text = "push it"
	if err := f.m.UserPromptSubmit(h); err != nil {
		t.Fatal(err)
	}
	h.Text = "The push failed."
	if err := f.m.Stop(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	if err := f.m.PreCompact(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(f.root, ".claude", "memory_short", "daily", "*.md"))
	if len(files) != 1 {
		t.Fatalf("%d daily files", len(files))
	}
	data, _ := os.ReadFile(files[0])
	text := string(data)
	if strings.Contains(text, token) || !strings.Contains(text, "git push: failed") || !strings.Contains(text, "· pre-compact · Push with ") {
		t.Errorf("daily file:\n%s", text)
	}
}

// TestFlushIndexesWhatItWrote: the daily file a flush writes reaches the
// search index at once, through Memory.Index, before anyone searches.
func TestFlushIndexesWhatItWrote(t *testing.T) {
	f := newMemory(t)
	f.cfg.Short.FlushReplies = 6
	idx := t.TempDir()
	short := search.Root{Dir: filepath.Join(f.root, ".claude", "memory_short"), Kind: search.KindShort}
	mem := &search.Memory{Base: f.root, Roots: []search.Root{short}, IndexDir: idx, Options: search.Options{Limit: 5}}
	var indexed []string
	f.m.Index = func(ctx context.Context, root, file string) error {
		if root != f.root {
			t.Errorf("indexed for project %s, want %s", root, f.root)
		}
		indexed = append(indexed, file)
		return mem.IndexFile(ctx, file, f.now)
	}
	f.turns(t, "s1", "quokkaparser", 3)
	if len(indexed) != 1 || filepath.Dir(indexed[0]) != filepath.Join(short.Dir, "daily") {
		t.Fatalf("indexed %v", indexed)
	}
	ix, err := search.OpenIndexed(idx, short, search.Params{})
	if err != nil || ix == nil {
		t.Fatalf("the flush's root is not indexed: %v", err)
	}
	defer ix.Close()
	r, err := search.Search(context.Background(), []*search.Index{ix}, "quokkaparser", search.Options{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) == 0 || !strings.Contains(r.Results[0].Snippet, "quokkaparser") {
		t.Fatalf("results %+v", r.Results)
	}
}
