package cli

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// nightStandIn answers the night's requests like `claude -p
// --output-format json` would: one result object with the answer and the
// provider's usage. A day's digest carries one fact the person stated
// (their "### Asked" item) and one only the assistant wrote; a compiled
// truth; CORE lines, one the person said and one they did not. Every call
// adds a line to $CALLS and keeps its prompt in $CALLS.N. When
// $EDIT_ON_TRUTH names a file holding a page path, a truth call appends to
// that page first: a person editing it while the model thinks. $USAGE=omit
// leaves the usage out; $FAIL_AT=N makes call N die mid-stream; $GARBAGE
// makes every call print something that is not a result.
const nightStandIn = `#!/bin/sh
prompt=$(cat)
echo call >> "$CALLS"
n=$(wc -l < "$CALLS" | tr -d ' ')
printf '%s\n' "$prompt" > "$CALLS.$n"
if [ -n "$FAIL_AT" ] && [ "$n" -ge "$FAIL_AT" ]; then
  printf '{"type":"result","subtype":"success","result":"{\\"dig'
  kill -9 $$
fi
if [ -n "$GARBAGE" ]; then
  echo 'I am sorry, I cannot help with that.'
  exit 0
fi
case "$prompt" in
*"cerebro night: compiled truth"*)
  if [ -n "$EDIT_ON_TRUTH" ] && [ -f "$EDIT_ON_TRUTH" ]; then
    printf 'A line a person added by hand.\n' >> "$(cat "$EDIT_ON_TRUTH")"
  fi
  answer='Here it is: {"truth": "Release trains leave on Fridays."}'
  ;;
*"cerebro night: CORE edits"*)
  n=$(printf '%s\n' "$prompt" | sed -n 's/^- [0-9:]* release train for sprint \([0-9]*\) leaves on Friday$/\1/p' | head -n 1)
  answer=$(printf '{"add": ["release train for sprint %s leaves on Friday", "the database migrated to Postgres 17"]}' "$n")
  ;;
*)
  day=$(printf '%s\n' "$prompt" | sed -n 's/^<day date="\([0-9-]*\)">$/\1/p')
  n=$(printf '%s\n' "$prompt" | sed -n 's/^- release train for sprint \([0-9]*\) leaves on Friday$/\1/p' | head -n 1)
  answer=$(printf '{"digest": "### Decided\\n- the train of sprint %s leaves on Friday (%s)", "facts": [{"page": "wiki/Releases.md", "text": "release train for sprint %s leaves on Friday", "time": "09:00"}, {"page": "wiki/Releases.md", "text": "the database migrated to Postgres 17"}], "cards": ["wiki/Releases.md", "wiki/Trains.md", "wiki/Missing.md"]}' "$n" "$day" "$n")
  ;;
esac
esc=$(printf '%s' "$answer" | sed 's/\\/\\\\/g; s/"/\\"/g')
usage=',"usage":{"input_tokens":1000,"cache_read_input_tokens":200,"output_tokens":50}'
if [ "$USAGE" = omit ]; then usage=''; fi
printf '{"type":"result","subtype":"success","is_error":false,"result":"%s"%s}\n' "$esc" "$usage"
`

type nightEnv struct {
	terminal bool
	env      map[string]string
	proj     string
	calls    string
}

func (e *nightEnv) run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return e.runIn(t, strings.NewReader(stdin), args...)
}

// runIn runs memhook with stdin read from in (a pseudo-terminal, for the
// commands only a person may confirm).
func (e *nightEnv) runIn(t *testing.T, in io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	var environ []string
	for k, v := range e.env {
		environ = append(environ, k+"="+v)
	}
	sys := factory.System{
		In: in, Out: &out, Err: &errb,
		Getenv:   func(k string) string { return e.env[k] },
		Environ:  func() []string { return environ },
		Now:      func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) },
		Terminal: e.terminal,
	}
	code := Main(args, sys)
	return out.String(), errb.String(), code
}

func (e *nightEnv) callCount(t *testing.T) int {
	data, err := os.ReadFile(e.calls)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "call\n")
}

func newNightEnv(t *testing.T, model bool) *nightEnv {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(nightStandIn), 0o755); err != nil {
		t.Fatal(err)
	}
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	t.Setenv("PATH", path) // the runner finds "claude" on the process's PATH
	e := &nightEnv{
		env: map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
			"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "PATH": path,
			"CALLS": filepath.Join(home, "calls")},
		proj:  filepath.Join(home, "work", "apollo"),
		calls: filepath.Join(home, "calls"),
	}
	if model {
		e.env["CEREBRO_NIGHT_MODEL"] = "claude"
	}
	os.MkdirAll(e.proj, 0o755)
	if _, errOut, code := e.run(t, "", "long", "on", "--project", e.proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	page := "---\ntype: topic\ndescription: when releases leave\n---\n\n# Releases\n\nHow releases leave.\n"
	if _, errOut, code := e.run(t, page, "wiki", "write", "wiki/Releases.md", "--project", e.proj); code != 0 {
		t.Fatalf("wiki write: %s", errOut)
	}
	return e
}

// writeDay writes the daily file of day number n (sprint n): the person
// asks for the release train, the assistant reports a migration.
func (e *nightEnv) writeDay(t *testing.T, day time.Time, n int) {
	t.Helper()
	l := project.Layout{Root: e.proj}
	os.MkdirAll(l.DailyDir(), 0o755)
	d := day.Format("2006-01-02")
	text := fmt.Sprintf("---\ntype: daily\ndate: %s\nproject: apollo\n---\n\n# %s\n\n## 09:00–09:40 · session 8f825584 · auto\n\n### Asked\n- release train for sprint %d leaves on Friday\n### Done\n- the database migrated to Postgres 17\n", d, d, n)
	if err := os.WriteFile(filepath.Join(l.DailyDir(), d+".md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// claudeTree reads every file under the project's .claude/ except the last
// night's report (it states the run's cost), by path.
func claudeTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(filepath.Join(root, ".claude"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, filepath.Join(".cerebro", "night", "last.json")) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return out
}

func diffTrees(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestNightMonth runs a scripted month through `memhook night`, one night
// a day, with a stand-in claude on PATH.
func TestNightMonth(t *testing.T) {
	e := newNightEnv(t, true)
	rollups := filepath.Join(e.proj, ".claude", "memory_short", "rollups")
	long := filepath.Join(e.proj, ".claude", "memory_long")
	l := project.Layout{Root: e.proj}
	// When each roll-up must first appear: a week the day after its
	// Sunday, October on November 1.
	due := map[string]string{
		"week/2026-W40.md": "2026-10-05", "week/2026-W41.md": "2026-10-12", "week/2026-W42.md": "2026-10-19",
		"week/2026-W43.md": "2026-10-26", "month/2026-10.md": "2026-11-01", "week/2026-W44.md": "2026-11-02",
	}
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local)
	for i := 0; i < 33; i++ {
		day := start.AddDate(0, 0, i)
		d := day.Format("2006-01-02")
		if day.Month() == time.October {
			e.writeDay(t, day, i+1) // today's file: open, never compiled tonight
		}
		if d == "2026-10-20" {
			// A person edits the card while the model writes its truth.
			marker := filepath.Join(t.TempDir(), "edit")
			os.WriteFile(marker, []byte(filepath.Join(long, "wiki", "Releases.md")), 0o644)
			e.env["EDIT_ON_TRUTH"] = marker
		} else {
			delete(e.env, "EDIT_ON_TRUTH")
		}
		out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", d)
		if code != 0 || strings.Contains(out, "problem:") {
			t.Fatalf("night %s: exit %d\n%s%s", d, code, out, errOut)
		}
		for rel, when := range due {
			if got := exists(filepath.Join(rollups, rel)); got != (d >= when) {
				t.Fatalf("night %s: %s present = %v, due %s", d, rel, got, when)
			}
		}
		// A rerun of the same night costs nothing and changes nothing.
		if d == "2026-10-15" || d == "2026-10-20" || d == "2026-11-02" {
			before, calls := claudeTree(t, e.proj), e.callCount(t)
			out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", d)
			if code != 0 {
				t.Fatalf("rerun %s: %s%s", d, out, errOut)
			}
			if n := e.callCount(t); n != calls {
				t.Fatalf("rerun %s made %d model calls", d, n-calls)
			}
			if ch := diffTrees(before, claudeTree(t, e.proj)); len(ch) > 0 {
				lg, _, _ := e.run(t, "", "long", "log", "--limit", "3", "--project", e.proj)
				t.Fatalf("rerun %s changed %v\n%s\n%s", d, ch, out, lg)
			}
		}
	}

	// Closed days older than night.compile_after_days (7) were compiled
	// into digests and archived; the last week stays in daily/.
	for _, d := range []string{"2026-10-01", "2026-10-24"} {
		digest, err := os.ReadFile(filepath.Join(long, "wiki", "_private", "digest-"+d+".md"))
		if err != nil {
			t.Fatalf("no digest for %s: %v", d, err)
		}
		if !strings.Contains(string(digest), "[[daily/"+d+"]]") || !strings.Contains(string(digest), "the database migrated to Postgres 17 — not written") {
			t.Fatalf("digest %s:\n%s", d, digest)
		}
		if !exists(filepath.Join(l.ArchiveDir(), d+".md")) || exists(filepath.Join(l.DailyDir(), d+".md")) {
			t.Fatalf("%s not archived", d)
		}
	}
	if exists(filepath.Join(long, "wiki", "_private", "digest-2026-10-26.md")) || !exists(filepath.Join(l.DailyDir(), "2026-10-26.md")) {
		t.Fatal("a day younger than the compile age was compiled")
	}
	card, _ := os.ReadFile(filepath.Join(long, "wiki", "Releases.md"))
	// Facts the person stated are written with their evidence day and the
	// time of their reply; what only the assistant said is not.
	if !strings.Contains(string(card), "- 2026-10-01: release train for sprint 1 leaves on Friday · [[daily/2026-10-01]] 09:00") ||
		!strings.Contains(string(card), "- 2026-10-24: release train for sprint 24 leaves on Friday · [[daily/2026-10-24]] 09:00") {
		t.Fatalf("facts missing:\n%s", card)
	}
	if strings.Contains(string(card), "Postgres") {
		t.Fatalf("a fact without the owner's evidence was written:\n%s", card)
	}
	if !strings.Contains(string(card), "## Compiled truth\n\nRelease trains leave on Fridays.") {
		t.Fatalf("no compiled truth:\n%s", card)
	}
	// The hand edit of 2026-10-20 won: the proposal waits in the pending
	// page, and the edit itself is on the card.
	pending, err := os.ReadFile(filepath.Join(long, "wiki", "Releases.truth-pending.md"))
	if err != nil || !strings.Contains(string(pending), "Release trains leave on Fridays.") {
		t.Fatalf("no pending truth: %v\n%s", err, pending)
	}
	if !strings.Contains(string(card), "A line a person added by hand.") {
		t.Fatalf("the hand edit is gone:\n%s", card)
	}

	// Every change is a commit of the memory's own repository.
	log, errOut, code := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	if code != 0 {
		t.Fatalf("long log: %s", errOut)
	}
	for _, want := range []string{"memhook night compile 2026-10-01: index.md, log.md, wiki/Releases.md, wiki/_private/digest-2026-10-01.md", "memhook night truth wiki/Releases.md", "memhook night: commit edits found uncommitted: wiki/Releases.md", "memhook wiki write wiki/Releases.md"} {
		if !strings.Contains(log, want) {
			t.Fatalf("long log lacks %q:\n%s", want, log)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.LogFile)), `project="`+e.proj+`"`) {
		t.Fatal("no night log line")
	}
}

// TestNightBudgetStopsAtCalls gives the night ten ready days and a budget
// of three calls.
func TestNightBudgetStopsAtCalls(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["CEREBRO_NIGHT_MAX_CALLS"] = "3"
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local)
	for i := 0; i < 10; i++ {
		e.writeDay(t, start.AddDate(0, 0, i), i+1)
	}
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if n := e.callCount(t); n != 3 {
		t.Fatalf("%d model calls, budget 3\n%s", n, out)
	}
	if !strings.Contains(out, "budget stopped") {
		t.Fatalf("the report does not say the budget stopped:\n%s", out)
	}
	// The same night again: the budget is spent, nothing more is called.
	e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if n := e.callCount(t); n != 3 {
		t.Fatalf("a second run on the same night made %d more calls", n-3)
	}
	// The next night has a new budget and carries on.
	e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31")
	if n := e.callCount(t); n != 6 {
		t.Fatalf("next night: %d calls in all, want 6", n)
	}
}

// TestNightWithoutModelCallsNothing: the default night is deterministic.
func TestNightWithoutModelCallsNothing(t *testing.T) {
	e := newNightEnv(t, false)
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local)
	for i := 0; i < 10; i++ {
		e.writeDay(t, start.AddDate(0, 0, i), i+1)
	}
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30", "--dry-run")
	if code != 0 || !strings.Contains(out, "roll-ups to write: week/2026-W40.md, week/2026-W41.md") {
		t.Fatalf("dry run: %s%s", out, errOut)
	}
	if exists(filepath.Join(e.proj, ".claude", "memory_short", "rollups")) {
		t.Fatal("the dry run wrote roll-ups")
	}
	out, errOut, code = e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if e.callCount(t) != 0 || strings.Contains(out, "compiled and archived") {
		t.Fatalf("a night without night.model called the model:\n%s", out)
	}
	// Ready: closed days older than 7 days, never the latest closed one.
	if !strings.Contains(out, "ready to compile: 2026-10-01, 2026-10-02, 2026-10-03, 2026-10-04, 2026-10-05, 2026-10-06, 2026-10-07, 2026-10-08, 2026-10-09\n") {
		t.Fatalf("ready list:\n%s", out)
	}
	lintFile := filepath.Join(e.proj, ".claude", "memory_long", ".cerebro", "night", "lint.json")
	if !strings.HasPrefix(readFile(t, lintFile), "[") {
		t.Fatal("lint findings not kept")
	}
}

// TestLongHistoryAndFactMerge: long log|diff|revert and fact merge on the
// memory's own repository.
func TestLongHistoryAndFactMerge(t *testing.T) {
	e := newNightEnv(t, false)
	e.writeDay(t, time.Date(2026, 11, 2, 0, 0, 0, 0, time.Local), 2)
	e.writeDay(t, time.Date(2026, 11, 5, 0, 0, 0, 0, time.Local), 5)
	other := "---\ntype: topic\n---\n\n# Trains\n\nOld notes on trains.\n\n## Facts\n\n- 2026-11-05: release train for sprint 5 leaves on Friday · [[daily/2026-11-05]] 09:00\n- 2026-11-02: release train for sprint 2 leaves on Friday · [[daily/2026-11-02]] 11:00\n"
	if _, errOut, code := e.run(t, other, "wiki", "write", "wiki/Trains.md", "--project", e.proj); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := e.run(t, "", "fact", "add", "wiki/Releases.md", "release train for sprint 2 leaves on Friday", "--evidence", "daily/2026-11-02", "--time", "09:00", "--project", e.proj); code != 0 {
		t.Fatal(errOut)
	}
	d, errOut, code := e.run(t, "", "long", "diff", "wiki/Releases.md", "--project", e.proj)
	if code != 0 || !strings.Contains(d, "+- 2026-11-02: release train for sprint 2 leaves on Friday · [[daily/2026-11-02]] 09:00") {
		t.Fatalf("long diff: %s%s", d, errOut)
	}
	// A merge asks the person at the terminal first; "n" leaves both
	// pages alone.
	master, slave := openPTY(t)
	before := claudeTree(t, e.proj)
	master.WriteString("n\n")
	out, _, code := e.runIn(t, slave, "fact", "merge", "wiki/Releases.md", "--from", "wiki/Trains.md", "--project", e.proj)
	if code != 0 || !strings.Contains(out, "merge? [y/N]") || !strings.Contains(out, "nothing merged") || len(diffTrees(before, claudeTree(t, e.proj))) > 0 {
		t.Fatalf("declined merge:\n%s", out)
	}
	logBefore, _, _ := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	master.WriteString("y\n")
	out, errOut, code = e.runIn(t, slave, "fact", "merge", "wiki/Releases.md", "--from", "wiki/Trains.md", "--project", e.proj)
	if code != 0 {
		t.Fatalf("merge: %s%s", out, errOut)
	}
	long := filepath.Join(e.proj, ".claude", "memory_long")
	card := readFile(t, filepath.Join(long, "wiki", "Releases.md"))
	want := "## Facts\n\n- 2026-11-02: release train for sprint 2 leaves on Friday · [[daily/2026-11-02]] 09:00 · [[daily/2026-11-02]] 11:00\n- 2026-11-05: release train for sprint 5 leaves on Friday · [[daily/2026-11-05]] 09:00\n"
	if !strings.Contains(card, want) || !strings.Contains(card, "Old notes on trains.") {
		t.Fatalf("merged card:\n%s", card)
	}
	redirect := readFile(t, filepath.Join(long, "wiki", "Trains.md"))
	if !strings.Contains(redirect, "type: redirect") || !strings.Contains(redirect, "[[wiki/Releases]]") {
		t.Fatalf("redirect:\n%s", redirect)
	}
	logAfter, _, _ := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	if strings.Count(logAfter, "\n")-strings.Count(logBefore, "\n") != 1 || !strings.Contains(logAfter, "memhook fact merge wiki/Trains.md into wiki/Releases.md") {
		t.Fatalf("merge is not one commit:\n%s", logAfter)
	}
	// Revert restores the page as it was before the merge, as a new commit.
	if out, errOut, code := e.run(t, "", "long", "revert", "wiki/Trains.md", "--project", e.proj); code != 0 {
		t.Fatalf("revert: %s%s", out, errOut)
	}
	if got := readFile(t, filepath.Join(long, "wiki", "Trains.md")); got != other {
		t.Fatalf("reverted page:\n%s", got)
	}
}

// TestNightAllQuietAndIsolated: under a scheduler night --all prints
// nothing but failures, and a project that fails does not stop the next.
func TestNightAllQuietAndIsolated(t *testing.T) {
	e := newNightEnv(t, false)
	gone := filepath.Join(filepath.Dir(e.proj), "gone")
	os.MkdirAll(gone, 0o755)
	if _, errOut, code := e.run(t, "", "long", "on", "--project", gone); code != 0 {
		t.Fatal(errOut)
	}
	os.RemoveAll(gone)
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	out, errOut, code := e.run(t, "", "night", "--all", "--now", "2026-10-06")
	if code != 1 || out != "" || !strings.Contains(errOut, gone) || strings.Contains(errOut, "night [") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !exists(filepath.Join(e.proj, ".claude", "memory_short", "rollups", "week", "2026-W40.md")) {
		t.Fatal("the failing project stopped the others")
	}
	e.terminal = true
	out, errOut, _ = e.run(t, "", "night", "--all", "--now", "2026-10-06")
	if !strings.Contains(errOut, "night [1/2]") || !strings.Contains(errOut, "night [2/2]") || !strings.Contains(out, e.proj) {
		t.Fatalf("no progress on a terminal:\n%s\n%s", out, errOut)
	}
}
