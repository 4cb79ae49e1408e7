package hook

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestDecodeRealInputs(t *testing.T) {
	f, err := os.Open(testfile.Shared(t, "fixtures", "claude-code-2.1.197__hook-inputs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	events := map[string]int{}
	for sc.Scan() {
		in, err := Decode(strings.NewReader(sc.Text()))
		if err != nil {
			t.Fatalf("decode %s: %v", sc.Text()[:80], err)
		}
		if in.CWD == "" || in.Event == "" {
			t.Fatalf("missing fields in %+v", in)
		}
		events[in.Event]++
		if in.Event == SessionStart && in.Source == "" {
			t.Errorf("SessionStart without source")
		}
		if in.Event == Stop && in.LastAssistantMessage == "" {
			t.Errorf("Stop without last_assistant_message")
		}
	}
	for _, e := range []string{SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd} {
		if events[e] == 0 {
			t.Errorf("no %s input in the fixture", e)
		}
	}
}

func TestDecodeBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"not json":     "{oops",
		"array":        "[1,2]",
		"no session":   `{"cwd":"/x"}`,
		"traversal id": `{"session_id":"../../etc","cwd":"/x"}`,
		"truncated":    `{"session_id":"a","cwd":"/x"`,
	} {
		if _, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if _, err := Decode(strings.NewReader("  \n")); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: err = %v", err)
	}
	in, err := Decode(strings.NewReader("{\"session_id\":\"s\",\"prompt\":\"a\xffb\"}"))
	if err != nil || in.Prompt != "a\uFFFDb" {
		t.Errorf("invalid utf-8: %+v %v", in, err)
	}
}

func TestOutputs(t *testing.T) {
	if AddContext(SessionStart, "") != nil {
		t.Error("empty context must print nothing")
	}
	var v map[string]map[string]string
	if err := json.Unmarshal(AddContext(SessionStart, "x \"y\""), &v); err != nil {
		t.Fatal(err)
	}
	if v["hookSpecificOutput"]["hookEventName"] != "SessionStart" || v["hookSpecificOutput"]["additionalContext"] != "x \"y\"" {
		t.Fatalf("got %v", v)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/p","hook_event_name":"Stop","last_assistant_message":"ok"}`))
	f.Add([]byte(`{"session_id":"s","prompt":"\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Decode(strings.NewReader(string(data)))
		if err == nil && in.SessionID == "" {
			t.Fatal("accepted an input without session_id")
		}
	})
}
