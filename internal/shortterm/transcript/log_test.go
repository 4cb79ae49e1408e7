package transcript

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// lines writes transcript lines (each a JSON object) to a file.
func lines(t *testing.T, objs ...map[string]any) string {
	t.Helper()
	var b strings.Builder
	for _, o := range objs {
		data, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, []byte(b.String()))
	return path
}

func prompt(uuid, text string) map[string]any {
	return map[string]any{"type": "user", "uuid": uuid, "sessionId": "s1", "cwd": "/p", "timestamp": "2026-11-30T09:00:00Z",
		"message": map[string]any{"role": "user", "content": text}}
}

func call(msg, id, name string, input map[string]any) map[string]any {
	return map[string]any{"type": "assistant", "uuid": "a-" + id, "timestamp": "2026-11-30T09:00:01Z",
		"message": map[string]any{"id": msg, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}}
}

// result is a tool result line; tur nil leaves toolUseResult out (some
// subagent files), a string makes it a failure's string.
func result(id, content string, isErr bool, tur any) map[string]any {
	block := map[string]any{"type": "tool_result", "tool_use_id": id, "content": content}
	if isErr {
		block["is_error"] = true
	}
	l := map[string]any{"type": "user", "uuid": "r-" + id, "timestamp": "2026-11-30T09:00:02Z",
		"message": map[string]any{"role": "user", "content": []any{block}}}
	if tur != nil {
		l["toolUseResult"] = tur
	}
	return l
}

func side(l map[string]any) map[string]any {
	l["isSidechain"] = true
	return l
}

// tools lists every call of a log's items, by ID.
func toolsByID(items []Item) map[string]Tool {
	out := map[string]Tool{}
	for _, it := range items {
		for _, t := range it.Tools {
			out[t.ID] = t
		}
	}
	return out
}

// TestReadLogPairsResults: every call gets its result by tool_use_id, and
// the result says what became of it, in every shape the reference lists.
func TestReadLogPairsResults(t *testing.T) {
	t.Parallel()
	path := lines(t,
		prompt("u1", "Ship it"),
		call("m1", "t1", "Bash", map[string]any{"command": "git commit -m \"$(cat <<'EOF'\nAdd x\nEOF\n)\""}),
		result("t1", "[main d9e611e] Add x\n 1 file changed", false, map[string]any{"stdout": "[main d9e611e] Add x"}),
		call("m2", "t2", "Bash", map[string]any{"command": "git push"}),
		result("t2", "Exit code 128\nfatal: The current branch main has no upstream branch.", true, "Error: Exit code 128"),
		call("m3", "t3", "Write", map[string]any{"file_path": "/p/CLAUDE.md", "content": "x"}),
		result("t3", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection: use pnpm", true, "Error: rejected"),
		call("m4", "t4", "WebSearch", map[string]any{"query": "x"}),
		result("t4", "Claude requested permissions to use WebSearch, but you haven't granted it yet.", true, "Error: Claude requested permissions"),
		call("m5", "t5", "Bash", map[string]any{"command": "git commit -m x"}),
		result("t5", "PreToolUse:Bash hook blocking error from command: \"guard\": no commits on main", true, "Error: hook"),
		call("m6", "t6", "Edit", map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"}),
		result("t6", "<tool_use_error>String to replace not found in file.\nString: a</tool_use_error>", true, "Error: String to replace not found in file."),
		call("m7", "t7", "Read", map[string]any{"file_path": "/p/a.go"}),
		result("t7", strings.Repeat("line\n", 2000), false, map[string]any{"type": "text"}),
		call("m8", "t8", "TodoWrite", map[string]any{"todos": []any{
			map[string]any{"content": "Write tests", "status": "completed"}, map[string]any{"content": "Push", "status": "pending"}}}),
		result("t8", "Todos have been modified successfully.", false, map[string]any{"newTodos": []any{}}),
		call("m9", "t9", "Bash", map[string]any{"command": "go test ./...", "run_in_background": true}),
		result("t9", "Command running in background with ID: bd0afab", false, map[string]any{}),
	)
	l, _, err := (Reader{}).ReadLog(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	byID := toolsByID(l.Items)
	want := map[string]Status{"t1": StatusOK, "t2": StatusFailed, "t3": StatusRejected, "t4": StatusRefused,
		"t5": StatusBlocked, "t6": StatusFailed, "t7": StatusOK, "t8": StatusOK, "t9": StatusOK}
	for id, st := range want {
		tool := byID[id]
		if tool.Result == nil {
			t.Errorf("%s (%s): no result paired", id, tool.Name)
			continue
		}
		if tool.Result.Status != st {
			t.Errorf("%s (%s): status %q, want %q", id, tool.Name, tool.Result.Status, st)
		}
	}
	if r := byID["t1"].Result; !strings.Contains(r.Text, "[main d9e611e] Add x") {
		t.Errorf("commit output not kept: %q", r.Text)
	}
	if in := byID["t1"].Input.Command; !strings.Contains(in, "Add x\nEOF") {
		t.Errorf("the whole command is not kept: %q", in)
	}
	if r := byID["t2"].Result; r.Exit != 128 {
		t.Errorf("exit code %d", r.Exit)
	}
	if r := byID["t3"].Result; r.Reason != "use pnpm" {
		t.Errorf("rejection reason %q", r.Reason)
	}
	if r := byID["t7"].Result; r.Text != "" {
		t.Errorf("a read's content is kept: %d bytes", len(r.Text))
	}
	if r := byID["t6"].Result; !strings.HasPrefix(r.Text, "String to replace not found in file.") {
		t.Errorf("a failure's text is not kept without its tags: %q", r.Text)
	}
	if todos := byID["t8"].Input.Todos; len(todos) != 2 || todos[1] != (Todo{"Push", "pending"}) {
		t.Errorf("todos %+v", todos)
	}
	if r, in := byID["t9"].Result, byID["t9"].Input; r.Background != "bd0afab" || !in.Background {
		t.Errorf("background %q %v", r.Background, in.Background)
	}
	if l.SessionID != "s1" || l.Cwd != "/p" {
		t.Errorf("session %q cwd %q", l.SessionID, l.Cwd)
	}
}

// TestReadLogBoundsOutput: a long output keeps its head (a commit line)
// and its tail (a test verdict), not its middle.
func TestReadLogBoundsOutput(t *testing.T) {
	t.Parallel()
	out := "[main abc1234] Fix\n" + strings.Repeat("noise line\n", 5000) + "==== 3 failed, 10 passed in 1.2s ===="
	path := lines(t, call("m1", "t1", "Bash", map[string]any{"command": "pytest"}), result("t1", out, false, map[string]any{}))
	l, _, err := (Reader{}).ReadLog(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := toolsByID(l.Items)["t1"].Result
	if r == nil || len(r.Text) > resultHead+resultTail+10 || !strings.HasPrefix(r.Text, "[main abc1234] Fix") || !strings.HasSuffix(r.Text, "3 failed, 10 passed in 1.2s ====") {
		t.Fatalf("bounded output %d bytes: %.80q … %.80q", len(r.Text), r.Text, r.Text[max(0, len(r.Text)-80):])
	}
}

// TestReadLogInlineSidechain: Claude Code 1.0 wrote a subagent's lines
// into the main file; they are the Side items, with their results, never
// the dialogue.
func TestReadLogInlineSidechain(t *testing.T) {
	t.Parallel()
	path := lines(t,
		prompt("u1", "Build the app"),
		side(prompt("s0", "Write the server")),
		side(call("sm1", "st1", "Write", map[string]any{"file_path": "/p/server.js", "content": "x"})),
		side(result("st1", "File created successfully at: /p/server.js", false, map[string]any{"type": "create"})),
		call("m1", "t1", "Task", map[string]any{"description": "server", "prompt": "Write the server", "subagent_type": "general-purpose"}),
		result("t1", "Done: server.js", false, map[string]any{"status": "completed", "agentId": "ab12"}),
	)
	l, _, err := (Reader{}).ReadLog(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 2 || l.Items[0].Text != "Build the app" {
		t.Fatalf("main items %+v", shorten(l.Items))
	}
	st := toolsByID(l.Side)["st1"]
	if st.Name != "Write" || !st.Result.OK() {
		t.Fatalf("sidechain write %+v", st)
	}
	task := toolsByID(l.Items)["t1"]
	if task.Input.Agent != "general-purpose" || task.Input.Description != "server" || task.Result.AgentID != "ab12" {
		t.Errorf("task call %+v %+v", task.Input, task.Result)
	}
}

// TestReadLogTitle: the user's title wins over Claude Code's; a summary
// line is a title only when its leafUuid is a message of the file.
func TestReadLogTitle(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		objs []map[string]any
		want string
	}{
		{"foreign summary", []map[string]any{{"type": "summary", "summary": "Another session", "leafUuid": "elsewhere"}, prompt("u1", "x")}, ""},
		{"own summary", []map[string]any{{"type": "summary", "summary": "Fix the flush", "leafUuid": "u1"}, prompt("u1", "x")}, "Fix the flush"},
		{"ai title", []map[string]any{prompt("u1", "x"), {"type": "ai-title", "aiTitle": "Port the hooks"}, {"type": "summary", "summary": "Old", "leafUuid": "u1"}}, "Port the hooks"},
		{"custom wins", []map[string]any{{"type": "custom-title", "customTitle": "mine"}, prompt("u1", "x"), {"type": "ai-title", "aiTitle": "theirs"}}, "mine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, _, err := (Reader{}).ReadLog(lines(t, c.objs...), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if l.Title != c.want {
				t.Errorf("title %q, want %q", l.Title, c.want)
			}
		})
	}
}

// TestReadLogQueuedPrompts: a prompt typed while a turn ran is a prompt;
// when a user line or an attachment delivers it later, it is listed
// once, there — also when the delivery is in a later read.
func TestReadLogQueuedPrompts(t *testing.T) {
	t.Parallel()
	path := lines(t,
		prompt("u1", "Implement it"),
		map[string]any{"type": "queue-operation", "operation": "enqueue", "content": "check again", "timestamp": "2026-11-30T09:00:03Z"},
		map[string]any{"type": "queue-operation", "operation": "enqueue", "content": "also the docs", "timestamp": "2026-11-30T09:00:04Z"},
		map[string]any{"type": "queue-operation", "operation": "enqueue", "content": "<task-notification><task-id>x</task-id></task-notification>", "timestamp": "2026-11-30T09:00:04Z"},
		map[string]any{"type": "attachment", "uuid": "at1", "timestamp": "2026-11-30T09:00:05Z",
			"attachment": map[string]any{"type": "queued_command", "prompt": "also the docs", "origin": map[string]any{"kind": "human"}}},
		map[string]any{"type": "attachment", "uuid": "at2", "timestamp": "2026-11-30T09:00:05Z",
			"attachment": map[string]any{"type": "queued_command", "prompt": "<task-notification>done</task-notification>", "origin": map[string]any{"kind": "task-notification"}}},
	)
	want := []string{"Implement it", "check again", "also the docs"}
	l, _, err := (Reader{}).ReadLog(path, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(items []Item) {
		t.Helper()
		var got []string
		for _, it := range items {
			got = append(got, it.Text)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("prompts %q, want %q", got, want)
		}
	}
	check(l.Items)
	// Read line by line: the enqueue and its delivery in two reads.
	var chunked Log
	for from := int64(0); ; {
		part, next, err := (Reader{}).ReadLog(path, from, 1)
		if err != nil {
			t.Fatal(err)
		}
		if next == from {
			break
		}
		chunked, from = chunked.Append(part), next
	}
	check(chunked.Items)
}
