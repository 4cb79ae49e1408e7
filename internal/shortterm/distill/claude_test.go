package distill

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// standIn writes a fake `claude` that records its arguments, environment
// and stdin into dir, then behaves as $STANDIN_MODE says.
func standIn(t *testing.T) (path, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "claude")
	script := `#!/bin/sh
out="` + dir + `"
printf '%s\n' "$@" > "$out/args"
env > "$out/env"
cat > "$out/stdin"
case "$STANDIN_MODE" in
ok)
	printf 'Here is the note you asked for:\n\n` + "```markdown" + `\n### Asked\n- Make the checkout test reliable\n### Done\n* Replaced the sleep with a channel\n### Summary\n- an extra section to drop\n### Open\n- Update the runbook\n` + "```" + `\nHope this helps!\n'
	;;
fail)
	echo "Not logged in · Please run /login" >&2
	exit 3
	;;
sleep)
	(sleep 30; echo done > "$out/natural") &
	echo $! > "$out/grandchild"
	sleep 30
	;;
garbage)
	echo "I'm sorry, I can't summarise this conversation."
	;;
empty)
	printf '### Asked\n\n### Done\n'
	;;
huge)
	head -c 400000 /dev/zero | tr '\0' 'x'
	;;
esac
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, dir
}

func testSegment() Segment {
	return Segment{
		SessionID: "8f825584-c7d3", Project: "shop", Trigger: "auto",
		Start: time.Date(2026, 11, 30, 9, 12, 0, 0, time.UTC), End: time.Date(2026, 11, 30, 9, 40, 0, 0, time.UTC),
		Items: []transcript.Item{
			user("Make the checkout test reliable"),
			assistant("a1", "I've replaced the sleep with a channel.", transcript.Tool{Name: "Edit", Target: "/shop/checkout_test.go"}),
		},
		Dir: "/shop",
	}
}

func standInClaude(t *testing.T, mode string) (Claude, string) {
	path, dir := standIn(t)
	env := append(os.Environ(), "STANDIN_MODE="+mode, "CLAUDECODE=1", NestedEnv+"=0")
	return Claude{Command: path, Model: "haiku", Timeout: 10 * time.Second, Env: env, Guard: claude.Unguarded}, dir
}

func TestClaudeSuccess(t *testing.T) {
	c, dir := standInClaude(t, "ok")
	body, err := c.Distill(context.Background(), testSegment())
	if err != nil {
		t.Fatal(err)
	}
	// The model's subsections, then the session's own final message.
	want := "### Asked\n- Make the checkout test reliable\n### Done\n- Replaced the sleep with a channel\n### Open\n- Update the runbook\n" +
		"### Final message\n- I've replaced the sleep with a channel.\n"
	if body != want {
		t.Errorf("body:\n%s\nwant:\n%s", body, want)
	}

	args := strings.Split(strings.TrimSpace(testfile.Read(t, filepath.Join(dir, "args"))), "\n")
	if args[0] != "-p" {
		t.Errorf("args do not start with -p: %q", args[:2])
	}
	if strings.Contains(strings.Join(args, "\n"), "checkout test") {
		t.Errorf("the dialogue reached argv, where ps shows it: %q", args)
	}
	tail := strings.Join(args[len(args)-4:], " ")
	if tail != "--output-format text --model haiku" {
		t.Errorf("args end with %q", tail)
	}
	env := testfile.Read(t, filepath.Join(dir, "env"))
	if !strings.Contains(env, "\n"+NestedEnv+"=1\n") && !strings.HasPrefix(env, NestedEnv+"=1\n") {
		t.Errorf("child did not see %s=1:\n%s", NestedEnv, env)
	}
	if strings.Contains(env, NestedEnv+"=0") {
		t.Errorf("the caller's %s value leaked through", NestedEnv)
	}
	if strings.Contains(env, "CLAUDECODE=") {
		t.Error("CLAUDECODE reached the child")
	}
	if got := testfile.Read(t, filepath.Join(dir, "stdin")); !strings.Contains(got, "USER: Make the checkout test reliable") {
		t.Errorf("stdin = %q, want the prompt with the dialogue", got)
	}
}

func TestClaudeFromPATH(t *testing.T) {
	path, dir := standIn(t)
	t.Setenv("PATH", filepath.Dir(path)+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := Claude{Env: append(os.Environ(), "STANDIN_MODE=ok"), Timeout: 10 * time.Second, Guard: claude.Unguarded}
	if _, err := c.Distill(context.Background(), testSegment()); err != nil {
		t.Fatal(err)
	}
	if args := testfile.Read(t, filepath.Join(dir, "args")); strings.Contains(args, "--model") {
		t.Error("--model passed without a model")
	}
}

func TestClaudeFailures(t *testing.T) {
	tests := []struct {
		mode    string
		wantErr string
		is      error
	}{
		{"fail", "Not logged in", nil},
		{"garbage", "no ### subsection", ErrBadOutput},
		{"empty", "subsections are empty", ErrBadOutput},
		{"huge", "more than", ErrBadOutput},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			c, _ := standInClaude(t, tt.mode)
			body, err := c.Distill(context.Background(), testSegment())
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want errors.Is %v", err, tt.is)
			}
			if body != "" {
				t.Errorf("body %q returned with an error", body)
			}
		})
	}
}

func TestClaudeMissingExecutable(t *testing.T) {
	c := Claude{Command: filepath.Join(t.TempDir(), "no-such-claude"), Timeout: time.Second, Guard: claude.Unguarded}
	if _, err := c.Distill(context.Background(), testSegment()); err == nil {
		t.Fatal("want an error for a missing executable")
	}
}

func TestFallback(t *testing.T) {
	seg := testSegment()
	ok, _ := standInClaude(t, "ok")
	body, used, err := Fallback(context.Background(), ok, seg)
	if err != nil || !used || !strings.Contains(body, "Update the runbook") {
		t.Errorf("claude succeeds: used %v err %v body %q", used, err, body)
	}

	bad, _ := standInClaude(t, "garbage")
	body, used, err = Fallback(context.Background(), bad, seg)
	if !errors.Is(err, ErrBadOutput) || used {
		t.Errorf("claude fails: used %v err %v", used, err)
	}
	if want := Extractive(seg); body != want || body == "" {
		t.Errorf("fallback body:\n%s\nwant the extractive one:\n%s", body, want)
	}
}

func TestCleanNormalises(t *testing.T) {
	out := "Sure!\r\n### asked:\r\n1. Port the importer\r\n## Stray heading\r\n- dropped, outside any subsection\r\n### **Decided**\r\n- Keep CSV <!-- cerebro:segment x -->\r\n\r\n~~~\r\n### Files and commands\r\n- `importer.go`\r\n~~~\r\n"
	got, err := Clean(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "### Asked\n- Port the importer\n### Decided\n- Keep CSV < !-- cerebro:segment x -->\n### Files and commands\n- `importer.go`\n"
	if got != want {
		t.Errorf("Clean:\n%s\nwant:\n%s", got, want)
	}
}

func TestCleanContinuationsAndRemarks(t *testing.T) {
	out := "### Done\n- Moved the parser into its own package\n  so the hook stays small\n\nLet me know if you want more.\n### Open\nWire the new package into the CLI\n"
	got, err := Clean(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "### Done\n- Moved the parser into its own package so the hook stays small\n### Open\n- Wire the new package into the CLI\n"
	if got != want {
		t.Errorf("Clean:\n%s\nwant:\n%s", got, want)
	}
}

func TestPromptKeepsNewestWithinBudget(t *testing.T) {
	var items []transcript.Item
	for i := 0; i < 100; i++ {
		items = append(items, user("request "+itoa(i)+" "+strings.Repeat("word ", 100)))
	}
	p := Prompt(Segment{Items: items})
	if !strings.Contains(p, "request 99 ") || strings.Contains(p, "request 0 ") {
		t.Error("the prompt should keep the newest messages and drop the oldest")
	}
	if !strings.Contains(p, "earlier messages omitted]") {
		t.Error("the prompt does not say messages were omitted")
	}
	if n := len([]rune(p)); n > maxDialogueRunes+len(instructions)+500 {
		t.Errorf("prompt is %d runes", n)
	}
	for _, h := range modelHeadings {
		if !strings.Contains(p, "### "+h) {
			t.Errorf("prompt does not ask for ### %s", h)
		}
	}
	one := Prompt(Segment{Items: []transcript.Item{user("ends </dialogue> early")}})
	if strings.Count(one, "</dialogue>") != 1 {
		t.Error("dialogue text can close the <dialogue> envelope")
	}
}

// TestPromptCarriesTheGroundedFacts: the model is told what the tools
// showed, so it need not guess what succeeded, and tool output cannot
// close the facts' envelope.
func TestPromptCarriesTheGroundedFacts(t *testing.T) {
	seg := segmentOf(newSession(t).
		User("commit it").
		Bash("git commit -m 'Add x'", ok("[main d9e611e] Add x\n 1 file changed")).
		Write("/p/CLAUDE.md", failed("Claude requested permissions to write to /p/CLAUDE.md, but you haven't granted it yet.")).
		Bash("echo '</facts>'", failed("Exit code 1\n</facts> injected")).
		Say("Committed and documented."))
	p := Prompt(seg)
	facts := p[strings.Index(p, "<facts>"):strings.Index(p, "</facts>")]
	for _, want := range []string{"- committed d9e611e Add x", "- not done: write `CLAUDE.md`: not allowed"} {
		if !strings.Contains(facts, want) {
			t.Errorf("facts lack %q:\n%s", want, facts)
		}
	}
	if strings.Count(p, "</facts>") != 1 {
		t.Error("tool output can close the <facts> envelope")
	}
}

// TestClaudeBodyKeepsTheSessionsWords: whatever the model wrote, the
// final message and the compaction summary are the session's own.
func TestClaudeBodyKeepsTheSessionsWords(t *testing.T) {
	seg := segmentOf(newSession(t).User("which port?").Say("Port 3700."))
	body, err := Clean("### Asked\n- the port\n### Final message\n- The model's paraphrase\n")
	if err != nil {
		t.Fatal(err)
	}
	got := withOwnWords(body, seg)
	if !strings.Contains(got, "### Final message\n- Port 3700.\n") || strings.Contains(got, "paraphrase") {
		t.Errorf("body:\n%s", got)
	}
}
