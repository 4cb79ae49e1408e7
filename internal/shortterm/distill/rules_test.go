package distill

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

func said(kind, text string) transcript.Item {
	return transcript.Item{Role: transcript.RoleUser, Kind: kind, Text: text, ID: "k-" + text}
}

// TestCerebroCommandsAreHousekeeping: cerebro's own commands are never
// requests or open items, and their replies are not the work; a command
// that changed the memory leaves one outcome line.
func TestCerebroCommandsAreHousekeeping(t *testing.T) {
	items := []transcript.Item{
		user("Add a retry to the uploader"),
		assistant("a1", "I added a retry with backoff to the uploader.", transcript.Tool{Name: "Edit", Target: "/p/up.go"}),
		user("/cerebro:flush"),
		assistant("a2", "Flushed: wrote 1 section. Do you want me to recall anything?"),
		user("/cerebro:recall kestrel"),
		assistant("a3", "Memory says kestrel is the staging host."),
		user("/memory_long_active on"),
		assistant("a4", "Long-term memory is now on.", transcript.Tool{Name: "Bash", Target: "memhook long on"}),
		user("/cerebro:doctor"),
	}
	body := Extractive(Segment{Items: items, Dir: "/p"})
	if got := sectionOf(body, daily.HeadAsked); !reflect.DeepEqual(got, []string{"Add a retry to the uploader"}) {
		t.Errorf("asked: %q", got)
	}
	if got := sectionOf(body, daily.HeadOpen); len(got) != 0 {
		t.Errorf("open: %q", got)
	}
	// A memory command is listed as run, as typed; its outcome is the
	// memory's own record.
	if files := sectionOf(body, daily.HeadFiles); !contains(files, "cerebro: `/cerebro:memory_long_active on`") {
		t.Errorf("files: %q", files)
	}
	if strings.Contains(body, "kestrel") || strings.Contains(body, "memhook") {
		t.Errorf("housekeeping leaked into the body:\n%s", body)
	}
}

// TestUserWordsMakeDecisionsAndLessons: answers with what the option
// meant, a rejection's reason, an approved plan with its steps, a plan
// turned down, a blocking hook's feedback, findings listed as such.
func TestUserWordsMakeDecisionsAndLessons(t *testing.T) {
	s := newSession(t).User("Set up the linters").
		Call("AskUserQuestion", map[string]any{"questions": []any{map[string]any{"question": "Which tools should we set up?"}}},
			ok("User has answered your questions: \"Which tools should we set up?\"=\"Credo + Dialyxir\". You can now continue with the user's answers in mind."))
	// The answer's option descriptions ride on toolUseResult.
	s.Last()["toolUseResult"] = map[string]any{
		"questions": []any{map[string]any{"question": "Which tools should we set up?", "options": []any{
			map[string]any{"label": "Credo + Dialyxir", "description": "Skip Sobelow"}}}},
		"answers": map[string]any{"Which tools should we set up?": "Credo + Dialyxir"}}
	s.Bash("mv a-b.py a_b.py", rejected("Keep the file name as it is")).
		Call("ExitPlanMode", map[string]any{"plan": "## Plan: Web worker\n1. move tokenising"}, rejected("")).
		Call("ExitPlanMode", map[string]any{"plan": "# Plan: Add the quality alias\n\n## Install the deps\n## Add `mix quality`\n"}, ok("User has approved your plan. You can now start coding.")).
		Say("Good - I have enough context now. Key findings:\n\n- **No Igniter installers** exist for credo\n- The project already has igniter\n\nI added the deps.")
	s.Raw(map[string]any{"type": "user", "uuid": "hf", "isMeta": true, "timestamp": "2026-11-30T10:00:00Z", "message": map[string]any{"role": "user", "content": "Stop hook feedback:\nsave memories first"}})
	body := bodyOf(s.Say("Saved."))
	wantDecided := []string{
		"the user turned down `mv a-b.py a_b.py`: “Keep the file name as it is”",
		"plan turned down: Web worker — move tokenising",
		"plan approved: Add the quality alias — Install the deps; Add `mix quality`",
		"chose: Which tools should we set up? → Credo + Dialyxir (Skip Sobelow)",
	}
	if got := sectionOf(body, daily.HeadDecided); !reflect.DeepEqual(got, wantDecided) {
		t.Errorf("decided:\n got %q\nwant %q", got, wantDecided)
	}
	wantLearned := []string{"No Igniter installers exist for credo", "The project already has igniter", "a Stop hook blocked the turn: save memories first"}
	if got := sectionOf(body, daily.HeadLearned); !reflect.DeepEqual(got, wantLearned) {
		t.Errorf("learned:\n got %q\nwant %q", got, wantLearned)
	}
}

// TestShortReplyToAQuestionIsAChoice: "yes" to the question a turn ended
// on is the user's decision.
func TestShortReplyToAQuestionIsAChoice(t *testing.T) {
	body := bodyOf(newSession(t).
		User("migrate the config").Say("The config is migrated. Shall I remove the old loader too?").
		User("yes").Say("Removed."))
	if got := sectionOf(body, daily.HeadDecided); !reflect.DeepEqual(got, []string{"Shall I remove the old loader too? — the user: yes"}) {
		t.Errorf("decided: %q", got)
	}
}

// TestOpenIgnoresTopicWords: "todo" as the subject of the work is not an
// open item; an interrupted last request is.
func TestOpenIgnoresTopicWords(t *testing.T) {
	items := []transcript.Item{
		user("Add a delete button to the todo list"),
		assistant("a1", "I added the delete button to each todo item. The todo list now re-renders after a delete."),
		user("the server does not start"),
		assistant("a2", "Let me check.", transcript.Tool{Name: "Bash", Target: "mix phx.server"}),
		said(transcript.KindInterrupted, "interrupted"),
	}
	got := sectionOf(Extractive(Segment{Items: items}), daily.HeadOpen)
	if want := []string{"interrupted, not resolved: the server does not start"}; !reflect.DeepEqual(got, want) {
		t.Errorf("open: %q, want %q", got, want)
	}
}

// TestCommandsFoldedAndReadOnlyDropped: variants of one command are one
// entry with a count; commands that only look are left out; a commit
// whose output shows none is no commit.
func TestCommandsFoldedAndReadOnlyDropped(t *testing.T) {
	s := newSession(t).User("fix the uploader")
	for _, c := range []string{"uv run pytest -x tests/a.py", "ls -la", "uv run pytest tests/b.py", "git status", "cd /p && uv run pytest",
		"cat README.md | head", "grep -rn foo .", "memhook flush"} {
		s.Bash(c, ok(""))
	}
	body := bodyOf(s.Bash("git commit -m 'fix upload'", failed("Exit code 1\nOn branch main\nnothing to commit, working tree clean")).Say("ok"))
	want := []string{"ran: `uv run pytest -x tests/a.py` ×3, `git commit -m 'fix upload'`"}
	if got := sectionOf(body, daily.HeadFiles); !reflect.DeepEqual(got, want) {
		t.Errorf("files and commands:\n got %q\nwant %q", got, want)
	}
	if done := sectionOf(body, daily.HeadDone); contains(done, "commit") {
		t.Errorf("done: %q", done)
	}
	// "Nothing to commit" is not a failure of the work either.
	if nd := sectionOf(body, daily.HeadNotDone); contains(nd, "commit") {
		t.Errorf("not done: %q", nd)
	}
}
