package importer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A session of three turns: the first ends on two texts, the second is
// compacted and ends without text, the third is a prompt the transcript
// never answered. Lines without a stamp take the clock as it is.
const walked = `{"type":"summary","summary":"an old title","leafUuid":"x"}
{"type":"user","uuid":"u1","timestamp":"2026-11-30T09:00:00Z","message":{"role":"user","content":"fix the build"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-11-30T09:00:05Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"looking"}]}}
{"type":"assistant","uuid":"a2","timestamp":"2026-11-30T09:00:09Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"fixed it"}]}}
{"type":"system","subtype":"stop_hook_summary","timestamp":"2026-11-30T09:00:10Z"}
{"type":"user","uuid":"u2","timestamp":"2026-11-30T09:10:00Z","message":{"role":"user","content":"now the tests"}}
{"type":"system","subtype":"compact_boundary","uuid":"c1","timestamp":"2026-11-30T09:11:00Z","content":"Conversation compacted"}
{"type":"assistant","uuid":"a3","timestamp":"2026-11-30T09:11:30Z","message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","uuid":"u3","timestamp":"2026-11-30T09:20:00Z","message":{"role":"user","content":"and lint"}}
`

func TestWalkerFiresHooksAsClaudeCode(t *testing.T) {
	var got []string
	err := Steps(strings.NewReader(walked), 0, func(st Step) error {
		got = append(got, fmt.Sprintf("%s %q @%s +%d", st.Event, st.Text, st.At.Format("15:04:05"), st.Offset))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) int { // the offset of a line of walked, 1-based
		return len(strings.Join(strings.SplitAfter(walked, "\n")[:line-1], ""))
	}
	want := []string{
		`SessionStart "" @09:00:00 +0`,
		fmt.Sprintf(`UserPromptSubmit "fix the build" @09:00:00 +%d`, at(2)),
		fmt.Sprintf(`Stop "fixed it" @09:00:09 +%d`, at(4)),
		fmt.Sprintf(`UserPromptSubmit "now the tests" @09:10:00 +%d`, at(6)),
		fmt.Sprintf(`PreCompact "" @09:11:00 +%d`, at(7)),
		fmt.Sprintf(`Stop "" @09:11:30 +%d`, at(9)),
		fmt.Sprintf(`UserPromptSubmit "and lint" @09:20:00 +%d`, at(9)),
		fmt.Sprintf(`Stop "" @09:20:00 +%d`, len(walked)),
		fmt.Sprintf(`SessionEnd "" @09:20:00 +%d`, len(walked)),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A line over the bound is passed over unread, the turns after it still
// walked; the clock never goes back; an unterminated tail counts only
// when it is whole JSON.
func TestWalkerPassesOverWhatItCannotRead(t *testing.T) {
	giant := `{"type":"user","timestamp":"2026-11-30T09:00:00Z","message":{"role":"user","content":"` + strings.Repeat("x", 300<<10) + `"}}` + "\n"
	late := `{"type":"user","timestamp":"2026-11-30T10:00:00Z","message":{"role":"user","content":"late"}}` + "\n"
	early := `{"type":"user","timestamp":"2026-11-30T08:00:00Z","message":{"role":"user","content":"early"}}` + "\n"
	tail := `{"type":"user","timestamp":"2026-11-30T11:00:00Z","message":{"role":"user","content":"torn`
	var prompts []string
	var clock []time.Time
	err := Steps(strings.NewReader(giant+late+early+tail), 64<<10, func(st Step) error {
		if st.Event == "UserPromptSubmit" {
			prompts = append(prompts, st.Text)
			clock = append(clock, st.At)
		}
		if st.Event == "SessionEnd" && st.Offset != int64(len(giant+late+early)) {
			t.Errorf("SessionEnd at %d, want the end of the last whole line %d", st.Offset, len(giant+late+early))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(prompts, []string{"late", "early"}) {
		t.Fatalf("prompts %q, want the two after the giant line and not the torn tail", prompts)
	}
	if clock[1].Before(clock[0]) {
		t.Fatalf("the clock went back: %v", clock)
	}
}
