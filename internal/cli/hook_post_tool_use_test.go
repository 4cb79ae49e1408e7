package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// postToolUseBase is a PostToolUse input recorded from Claude Code
// 2.1.197 (the fixture's first PostToolUse line), or a copy of its shape
// when the fixture is absent.
func postToolUseBase(t *testing.T) map[string]any {
	t.Helper()
	base := map[string]any{}
	if p, ok := testfile.SharedIfPresent(t, "fixtures", "claude-code-2.1.197__hook-inputs.jsonl"); ok {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"hook_event_name":"PostToolUse"`) {
				if err := json.Unmarshal(sc.Bytes(), &base); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	if len(base) == 0 {
		json.Unmarshal([]byte(`{"session_id":"8f825584-c7d3-4270-8057-34e78af5df60","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{},"tool_use_id":"toolu_1","duration_ms":3}`), &base)
	}
	return base
}

// editInput turns the recorded input into the Write/Edit call Claude Code
// sends for a file edit.
func editInput(t *testing.T, cwd, tool, file string) string {
	t.Helper()
	in := postToolUseBase(t)
	in["cwd"], in["tool_name"] = cwd, tool
	switch tool {
	case "Write":
		in["tool_input"] = map[string]any{"file_path": file, "content": "x"}
		in["tool_response"] = map[string]any{"type": "update", "filePath": file, "content": "x"}
	default:
		in["tool_input"] = map[string]any{"file_path": file, "old_string": "a", "new_string": "b", "replace_all": false}
		in["tool_response"] = map[string]any{"filePath": file, "oldString": "a", "newString": "b"}
	}
	b, _ := json.Marshal(in)
	return string(b)
}

func TestPostToolUseCommitsSkillEdits(t *testing.T) {
	env, proj := bbEnv(t)
	if _, err := gitrepo.Init(proj); err != nil {
		t.Fatal(err)
	}
	skillFile := filepath.Join(proj, "skills", "use-tables", "SKILL.md")
	os.MkdirAll(filepath.Dir(skillFile), 0o755)
	os.WriteFile(skillFile, []byte("---\nname: use-tables\n---\nv1\n"), 0o644)
	out, _, code := run(t, env, editInput(t, proj, "Write", skillFile), "hook", "post-tool-use")
	if code != 0 || out != "" {
		t.Fatalf("hook must print nothing and exit 0: %d %q", code, out)
	}
	r, _ := gitrepo.Open(proj)
	log, _ := r.Log(skillFile, 0)
	if len(log) != 1 || log[0].Message != "skill use-tables: Write skills/use-tables/SKILL.md" {
		t.Fatalf("log %+v", log)
	}
	// A relative path from an Edit, resolved against cwd.
	os.WriteFile(skillFile, []byte("---\nname: use-tables\n---\nv2\n"), 0o644)
	run(t, env, editInput(t, proj, "Edit", "skills/use-tables/SKILL.md"), "hook", "post-tool-use")
	if log, _ = r.Log(skillFile, 0); len(log) != 2 {
		t.Fatalf("edit not committed: %+v", log)
	}
	// Not a skill, or not an edit tool: no commit.
	other := filepath.Join(proj, "main.go")
	os.WriteFile(other, []byte("package main\n"), 0o644)
	run(t, env, editInput(t, proj, "Write", other), "hook", "post-tool-use")
	run(t, env, strings.Replace(editInput(t, proj, "Write", skillFile), `"tool_name":"Write"`, `"tool_name":"Read"`, 1), "hook", "post-tool-use")
	if all, _ := r.Log("", 0); len(all) != 2 {
		t.Fatalf("only skill edits are committed: %+v", all)
	}
	// The history is usable: diff and revert the last edit.
	out, _, code = run(t, env, "", "skill", "diff", "use-tables", "--skills-dir", filepath.Join(proj, "skills"))
	if code != 0 || !strings.Contains(out, "-v1") || !strings.Contains(out, "+v2") {
		t.Fatalf("diff:\n%s", out)
	}
	out, _, code = run(t, env, "", "skill", "revert", "use-tables", "--skills-dir", filepath.Join(proj, "skills"))
	if code != 0 || !strings.Contains(out, "reverted") {
		t.Fatalf("revert: %s", out)
	}
	if b, _ := os.ReadFile(skillFile); !strings.Contains(string(b), "v1") {
		t.Fatalf("content after revert %q", b)
	}
	out, _, _ = run(t, env, "", "skill", "log", "use-tables", "--skills-dir", filepath.Join(proj, "skills"))
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.Contains(lines[0], "revert") {
		t.Fatalf("log after revert:\n%s", out)
	}
}

func TestPostToolUseInitsRepoOutsideAnyRepo(t *testing.T) {
	env, _ := bbEnv(t)
	plugin := t.TempDir() // like ~/.claude/plugins/cache/...: no repository
	f := filepath.Join(plugin, "skills", "relearn", "SKILL.md")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte("x\n"), 0o644)
	run(t, env, editInput(t, plugin, "MultiEdit", f), "hook", "post-tool-use")
	r, err := gitrepo.Open(filepath.Join(plugin, "skills"))
	if err != nil || r.Root() != filepath.Join(plugin, "skills") {
		t.Fatalf("a repository must be made at the skills root: %v", err)
	}
	if log, _ := r.Log("", 0); len(log) != 1 {
		t.Fatalf("%+v", log)
	}
	hooksLog, _ := os.ReadFile(filepath.Join(env["CEREBRO_STATE_DIR"], "logs", "hooks.log"))
	if !strings.Contains(string(hooksLog), "committed skill relearn (MultiEdit)") || !strings.Contains(string(hooksLog), "repository created") {
		t.Fatalf("the commit is logged:\n%s", hooksLog)
	}
	// Nested sessions do nothing.
	os.WriteFile(f, []byte("y\n"), 0o644)
	env[claude.NestedEnv] = "1"
	run(t, env, editInput(t, plugin, "Write", f), "hook", "post-tool-use")
	if log, _ := r.Log("", 0); len(log) != 1 {
		t.Fatal("a nested session's hook must not commit")
	}
}
