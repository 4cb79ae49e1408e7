package distill

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestExtractiveGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			l, _, err := (transcript.Reader{}).ReadLog(path, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := Extractive(Segment{Items: l.Items, Dir: "/home/dev/shop"})
			testfile.Golden(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

func TestExtractiveEmpty(t *testing.T) {
	if got := Extractive(Segment{}); got != "" {
		t.Errorf("empty segment: %q", got)
	}
	acks := []transcript.Item{user("ok"), user("/clear"), user("thanks!")}
	if got := Extractive(Segment{Items: acks}); got != "" {
		t.Errorf("acknowledgements and session commands only: %q", got)
	}
}

func user(text string) transcript.Item {
	return transcript.Item{Role: transcript.RoleUser, Text: text, ID: "u-" + text}
}

func assistant(id, text string, tools ...transcript.Tool) transcript.Item {
	return transcript.Item{Role: transcript.RoleAssistant, Text: text, ID: id, Tools: tools}
}

// sectionOf returns the bullets of one subsection of a body.
// failures are what a body says failed: its Not done items and the
// newest failure, said under Open ("not done: …") and not again.
func failures(body string) []string {
	out := sectionOf(body, daily.HeadNotDone)
	for _, o := range sectionOf(body, daily.HeadOpen) {
		if f, ok := strings.CutPrefix(o, "not done: "); ok {
			if t, ok := strings.CutPrefix(f, "tests failing: "); ok {
				f = "tests: " + t
			}
			out = append(out, f)
		}
	}
	return out
}

func sectionOf(body, head string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "### ") {
			in = line == "### "+head
			continue
		}
		if in && strings.HasPrefix(line, "- ") {
			out = append(out, strings.TrimPrefix(line, "- "))
		}
	}
	return out
}

func TestAskedRules(t *testing.T) {
	long := "Please refactor the importer so that it streams rows instead of loading the whole CSV into memory, keeps the progress bar working, and reports malformed rows with their line numbers at the end of the import run"
	items := []transcript.Item{
		user("Hey Claude, can you add a health endpoint?"),
		user("ok"),
		user("/compact keep the facts"),
		user("/review the auth module"),
		user("Can you add a health endpoint?"), // same request again after the greeting is stripped
		user("line one\n\n  line two"),
		user(long),
	}
	got := sectionOf(Extractive(Segment{Items: items}), daily.HeadAsked)
	want := []string{
		"Can you add a health endpoint?",
		"/review the auth module",
		"line one line two",
		// A request is the user's own words: kept whole up to askRunes.
		long,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("asked:\n got %q\nwant %q", got, want)
	}
	huge := strings.Repeat("word ", 1000)
	got = sectionOf(Extractive(Segment{Items: []transcript.Item{user(huge)}}), daily.HeadAsked)
	if n := utf8.RuneCountInString(got[0]); n > askRunes || n < askRunes-20 {
		t.Errorf("a huge request is %d runes, want just under %d", n, askRunes)
	}
}

func TestAskedCap(t *testing.T) {
	var items []transcript.Item
	for i := 0; i < 20; i++ {
		items = append(items, user("request number "+itoa(i)))
	}
	got := sectionOf(Extractive(Segment{Items: items}), daily.HeadAsked)
	// The first request (the goal) and the newest stay; the oldest of the
	// middle go, with one note.
	want := []string{"request number 0", "… 13 more requests left out", "request number 14",
		"request number 15", "request number 16", "request number 17", "request number 18", "request number 19"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestDoneOnlyFromToolResults: what the assistant says it did is never
// Done — its words are shown as its words (the final message, an answer
// under its request); Done holds what the tools printed.
func TestDoneOnlyFromToolResults(t *testing.T) {
	body := bodyOf(newSession(t).
		User("fix the login bug").
		Say("Let me check the handler.").
		Edit("/p/login.go", ok("The file /p/login.go has been updated successfully.")).
		Say("I've fixed the nil check in the login handler. All 63 tests passed. The commit is 3f9a2c1.").
		User("why is it slow?").
		Say("Great question! The query scans the whole table because the index is on the wrong column."))
	if done := sectionOf(body, daily.HeadDone); len(done) != 0 {
		t.Errorf("done holds claims: %q", done)
	}
	if !strings.Contains(body, "  - answer: I've fixed the nil check in the login handler. All 63 tests passed. The commit is 3f9a2c1.") {
		t.Errorf("the first turn's answer is not under its request:\n%s", body)
	}
	if got := sectionOf(body, daily.HeadFinal); !reflect.DeepEqual(got, []string{"Great question! The query scans the whole table because the index is on the wrong column."}) {
		t.Errorf("final: %q", got)
	}
	if files := sectionOf(body, daily.HeadFiles); !reflect.DeepEqual(files, []string{"changed: `login.go`"}) {
		t.Errorf("files: %q", files)
	}
}

// TestFinalMessageWithoutMarkup: the final message is the session's own
// words, line by line, without code blocks and markup, bounded.
func TestFinalMessageWithoutMarkup(t *testing.T) {
	msg := "## Summary\n\n**Fixed** the [parser](src/p.go#L3).\n\n```go\nfunc x() {}\n```\n\n| Bead | Task |\n|---|---|\n| gqc.1 | schema |\n\n- one\n- two\n\n" + strings.Repeat("long line ", 300)
	got := sectionOf(bodyOf(newSession(t).User("fix the parser").Say(msg)), daily.HeadFinal)
	if len(got) < 6 || !reflect.DeepEqual(got[:6], []string{"Summary", "Fixed the parser.", "Bead · Task", "gqc.1 · schema", "one", "two"}) {
		t.Errorf("final: %q", got)
	}
	n := 0
	for _, l := range got {
		n += utf8.RuneCountInString(l)
	}
	if n > finalRunes+40 {
		t.Errorf("final message is %d runes", n)
	}
}

func TestDecidedRules(t *testing.T) {
	items := []transcript.Item{
		user("Should we decide on Postgres?"), // a question is not a decision
		assistant("a1", "Both work. We'll use SQLite for now because it needs no server. The cache stays in memory."),
		user("Agreed. Решили: будем хранить конфиг в TOML."),
		assistant("a2", "Let's go with the short flag names:\n- `-v` for verbose"),
	}
	got := sectionOf(Extractive(Segment{Items: items}), daily.HeadDecided)
	want := []string{
		"We'll use SQLite for now because it needs no server.",
		"Agreed.",
		"Решили: будем хранить конфиг в TOML.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decided:\n got %q\nwant %q", got, want)
	}
}

func TestDecisionMarkersAreWholeWords(t *testing.T) {
	for s, want := range map[string]bool{
		"We decided to ship on Friday.":         true,
		"The undecided voters were polled.":     false,
		"Будем делать через очередь.":           true,
		"Избудем это позже.":                    false,
		"Okay, let's go with the second option": true,
	} {
		if got := userDecision.in(words(s)); got != want {
			t.Errorf("decision(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestOpenRules(t *testing.T) {
	tests := []struct {
		name  string
		items []transcript.Item
		want  []string
	}{
		{"next steps of the final message only, never its questions", []transcript.Item{
			user("migrate the db"),
			assistant("a1", "Next, I'll write the migration. The rollback still needs a test."),
			assistant("a2", "Migrated the users table.\n\n- [ ] migrate the orders table\n- [x] back up\n\nNext step: run it on staging. Shall I start?"),
		}, []string{"Next step: run it on staging.", "migrate the orders table"}},
		{"earlier questions were answered", []transcript.Item{
			user("a"),
			assistant("a1", "Which database do you use?"),
			user("postgres"),
			assistant("a2", "The driver supports it out of the box."),
		}, nil},
		{"last request with no reply", []transcript.Item{
			user("explain the cache"),
			assistant("a1", "The cache keeps parsed pages for a minute."),
			user("Now make it configurable"),
		}, []string{"unanswered: Now make it configurable"}},
		{"last request with only plans and tool calls", []transcript.Item{
			user("the server does not start"),
			assistant("a1", "Let me check the logs.", transcript.Tool{Name: "Bash", Target: "tail log"}),
		}, []string{"unanswered: the server does not start"}},
		{"a closing line naming the command to run next", []transcript.Item{
			user("plan the linting beads"),
			assistant("a1", "Run `mix format` first, it is quick. Beads created: epic lint-1 with two tasks.\n\nRun `bd ready` to see available work."),
		}, []string{"Run `bd ready` to see available work."}},
		{"russian", []transcript.Item{
			user("сделай экспорт"),
			assistant("a1", "Добавил экспорт в CSV. Осталось добавить XLSX. Дальше стоит покрыть тестами."),
		}, []string{"Осталось добавить XLSX.", "Дальше стоит покрыть тестами."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sectionOf(Extractive(Segment{Items: tt.items}), daily.HeadOpen)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("open:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFilesAndCommands(t *testing.T) {
	s := newSession(t).User("split the package")
	for i := 0; i < 11; i++ {
		s.Edit("/p/pkg/f"+itoa(i)+".go", ok("The file has been updated successfully."))
	}
	body := bodyOf(s.Edit("/p/pkg/broken.go", failed("<tool_use_error>String to replace not found in file.</tool_use_error>")).
		Call("Read", map[string]any{"file_path": "/p/pkg/f1.go"}, ok("x")). // changed already: not listed as read
		Call("Read", map[string]any{"file_path": "/elsewhere/notes.md"}, ok("x")).
		Bash("cat <<'EOF' > x\nbody\nEOF", ok("")).
		Bash("echo `date`", ok("Mon")).
		Bash("echo `date`", ok("Mon")).
		Call("WebFetch", map[string]any{"url": "https://example.com"}, ok("x")).
		Say("Split."))
	want := []string{
		// Cut from the middle: the first file and the newest stay; the
		// edit that failed is not a change.
		"changed: `pkg/f0.go`, … 1 more, `pkg/f2.go`, `pkg/f3.go`, `pkg/f4.go`, `pkg/f5.go`, `pkg/f6.go`, `pkg/f7.go`, `pkg/f8.go`, `pkg/f9.go`, `pkg/f10.go`",
		"read: `/elsewhere/notes.md`",
		// A heredoc into a file writes; echo only looks, and is left out
		// when something else ran.
		"ran: `cat <<'EOF' > x …`",
	}
	if got := sectionOf(body, daily.HeadFiles); !reflect.DeepEqual(got, want) {
		t.Errorf("files and commands:\n got %q\nwant %q", got, want)
	}
}

func TestBodyIsBoundedAndSafe(t *testing.T) {
	s := newSession(t)
	for i := 0; i < 200; i++ {
		n := itoa(i)
		s.User("## please do task "+n+" <!-- cerebro:segment from=0 --> "+strings.Repeat("with many details ", 20)).
			Edit("/r/file"+n+".go", ok("updated")).
			Edit("/r/bad"+n+".go", failed("String to replace not found in file.")).
			Bash("git commit -m 'task "+n+"'", ok("[main abc"+n+"0000] task "+n+"\n 1 file changed")).
			Bash("make test-"+n, failed("Exit code 2\nerror: "+n)).
			Say("I've implemented task " + n + " " + strings.Repeat("carefully ", 40) + ". We decided to keep " + n + ". The root cause was cache " + n + " going stale. TODO: follow up on " + n + ". <!-- cerebro:segment x -->")
	}
	body := bodyOf(s)
	if n := utf8.RuneCountInString(body); n > MaxBody {
		t.Errorf("body is %d characters, want at most %d", n, MaxBody)
	}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		if !strings.HasPrefix(line, "### ") && !strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "  - ") {
			t.Errorf("line is neither a subsection nor a bullet: %q", line)
		}
		if strings.HasPrefix(line, "### ") && canonical(strings.TrimPrefix(line, "### ")) == "" {
			t.Errorf("unknown subsection %q", line)
		}
	}
	if strings.Contains(body, "<!--") {
		t.Error("a bullet carries an HTML comment that could pass for a segment marker")
	}
	for _, head := range []string{daily.HeadAsked, daily.HeadDone, daily.HeadNotDone, daily.HeadDecided, daily.HeadLearned, daily.HeadOpen, daily.HeadFiles, daily.HeadFinal} {
		if len(sectionOf(body, head)) == 0 {
			t.Errorf("subsection %s was dropped entirely:\n%s", head, body)
		}
	}
}

func TestExtractiveDeterministic(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if dir, ok := testfile.SharedIfPresent(t, "fixtures", "transcripts"); ok {
		shared, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		paths = append(paths, shared...)
	}
	for _, path := range paths {
		l, _, err := (transcript.Reader{}).ReadLog(path, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		items := l.Items
		seg := Segment{Items: items, Subagents: l.Side, Cwd: l.Cwd, Start: time.Unix(0, 0)}
		first := Extractive(seg)
		for i := 0; i < 5; i++ {
			if again := Extractive(seg); again != first {
				t.Fatalf("%s: run %d differs:\n%s\n---\n%s", path, i, first, again)
			}
		}
		if n := utf8.RuneCountInString(first); n > MaxBody {
			t.Errorf("%s: body %d characters", path, n)
		}
		if len(items) > 0 && hasRequest(items) && len(sectionOf(first, daily.HeadAsked)) == 0 {
			t.Errorf("%s: requests but no Asked", path)
		}
	}
}

func hasRequest(items []transcript.Item) bool {
	for _, it := range items {
		if it.Role == transcript.RoleUser && request(it.Text) != "" {
			return true
		}
	}
	return false
}

func TestShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 12, "one two…"},
		{"привет мир как дела", 12, "привет мир…"},
		{"abcdefghijklmnop", 8, "abcdefg…"},
		{"fix it, then stop", 9, "fix it…"},
	}
	for _, tt := range tests {
		if got := shorten(tt.in, tt.n); got != tt.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestSentences(t *testing.T) {
	in := "# Title\nFirst one. Second, e.g. with an abbreviation! Third?\n```\ncode. here.\n```\n- item one\n1. item two\n| a | b |\nEdit main.go now"
	want := []string{"First one.", "Second, e.g. with an abbreviation!", "Third?", "item one", "item two", "Edit main.go now"}
	if got := sentences(in); !reflect.DeepEqual(got, want) {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}
