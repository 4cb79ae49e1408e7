package distill

import (
	"reflect"
	"strings"
	"testing"

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
	if got := sectionOf(body, HeadAsked); !reflect.DeepEqual(got, []string{"Add a retry to the uploader"}) {
		t.Errorf("asked: %q", got)
	}
	if got := sectionOf(body, HeadOpen); len(got) != 0 {
		t.Errorf("open: %q", got)
	}
	done := sectionOf(body, HeadDone)
	want := []string{"I added a retry with backoff to the uploader.", "cerebro: memory_long_active on"}
	if !reflect.DeepEqual(done[:2], want) {
		t.Errorf("done: %q, want it to start %q", done, want)
	}
	if strings.Contains(body, "kestrel") || strings.Contains(body, "memhook") {
		t.Errorf("housekeeping leaked into the body:\n%s", body)
	}
}

// TestUserWordsMakeDecisionsAndLessons: answers with what the option
// meant, a refusal's reason, an approved plan, a blocking hook's feedback.
func TestUserWordsMakeDecisionsAndLessons(t *testing.T) {
	items := []transcript.Item{
		user("Set up the linters"),
		assistant("a1", "", transcript.Tool{Name: "AskUserQuestion", Target: "Which tools?"}),
		said(transcript.KindAnswer, `"Which tools should we set up?"="Credo + Dialyxir" (Credo + Dialyxir: Skip Sobelow)`),
		assistant("a2", "", transcript.Tool{Name: "Bash", Target: "mv a-b.py a_b.py"}),
		said(transcript.KindDeclined, "Keep the file name as it is"),
		assistant("a3", "", transcript.Tool{Name: "ExitPlanMode", Target: "## Plan: Add the quality alias\n1. deps"}),
		said(transcript.KindPlanApproved, "plan approved"),
		assistant("a4", "Good - I have enough context now. Key findings:\n\n- **No Igniter installers** exist for credo\n- The project already has igniter\n\nI added the deps."),
		said(transcript.KindHookFeedback, "save memories first"),
	}
	body := Extractive(Segment{Items: items})
	wantDecided := []string{
		"chose: Which tools should we set up? → Credo + Dialyxir (Skip Sobelow)",
		"user declined a step: Keep the file name as it is",
		"plan approved: Add the quality alias",
	}
	if got := sectionOf(body, HeadDecided); !reflect.DeepEqual(got, wantDecided) {
		t.Errorf("decided:\n got %q\nwant %q", got, wantDecided)
	}
	wantLearned := []string{"No Igniter installers exist for credo", "The project already has igniter", "a Stop hook blocked the turn: save memories first"}
	if got := sectionOf(body, HeadLearned); !reflect.DeepEqual(got, wantLearned) {
		t.Errorf("learned:\n got %q\nwant %q", got, wantLearned)
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
	got := sectionOf(Extractive(Segment{Items: items}), HeadOpen)
	if want := []string{"interrupted, not resolved: the server does not start"}; !reflect.DeepEqual(got, want) {
		t.Errorf("open: %q, want %q", got, want)
	}
}

// TestCommandsFoldedAndReadOnlyDropped: variants of one command are one
// entry with a count; commands that only look are left out.
func TestCommandsFoldedAndReadOnlyDropped(t *testing.T) {
	var tools []transcript.Tool
	for _, c := range []string{"uv run pytest -x tests/a.py", "ls -la", "uv run pytest tests/b.py", "git status", "cd /p && uv run pytest",
		"git commit -m 'fix upload'", "cat README.md | head", "grep -rn foo .", "memhook flush"} {
		tools = append(tools, transcript.Tool{Name: "Bash", Target: c})
	}
	body := Extractive(Segment{Items: []transcript.Item{user("fix the uploader"), assistant("a1", "", tools...)}})
	want := []string{"ran: `uv run pytest -x tests/a.py` ×3, `git commit -m 'fix upload'`"}
	if got := sectionOf(body, HeadFiles); !reflect.DeepEqual(got, want) {
		t.Errorf("files and commands:\n got %q\nwant %q", got, want)
	}
	if done := sectionOf(body, HeadDone); len(done) == 0 || done[0] != "committed: fix upload" {
		t.Errorf("done: %q, want the commit first", done)
	}
}

func TestClaimedTestResultsAreOutcomes(t *testing.T) {
	items := []transcript.Item{
		user("make CI green"),
		assistant("a1", "Let me run the suite.\n\nAll 63 tests passed, and lint is clean. The commit is 3f9a2c1 on the branch."),
	}
	got := sectionOf(Extractive(Segment{Items: items}), HeadDone)
	want := []string{"All 63 tests passed, and lint is clean.", "The commit is 3f9a2c1 on the branch."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("done:\n got %q\nwant %q", got, want)
	}
}
