package main

// The second check: small sessions of each failure class the reference
// lists (../shared/reference/transcript-outcomes.md §2–8), written here
// with the truth a correct memory must hold and the claims a careless one
// would make. The facts file covers real sessions; these cover the
// classes one by one, so a rule that only fits the real sessions shows up
// here. They are replayed through the hooks and scored by distill_truth.py
// exactly as the real ones.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// synth is one synthetic session: its transcript, its subagents and its
// truth.
type synth struct {
	name   string
	lines  []map[string]any
	agents map[string][]map[string]any // subagent file name → lines
	flat   bool                        // agents beside the session (2.0) rather than under it (2.1)
	facts  []synthFact
	false_ []synthFact
	n      int
	at     time.Time
	side   bool
}

type synthFact struct {
	kind   string
	weight int
	fact   string
	anyOf  [][]string
}

func newSynth(name string) *synth {
	return &synth{name: name, at: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), agents: map[string][]map[string]any{}}
}

func (s *synth) id() (string, string) {
	s.n++
	s.at = s.at.Add(time.Second)
	return fmt.Sprintf("%s-%d", s.name, s.n), s.at.Format(time.RFC3339Nano)
}

func (s *synth) add(l map[string]any) {
	l["sessionId"] = "synth-" + s.name
	l["cwd"] = "/work/app"
	l["version"] = "2.1.40"
	if s.side {
		l["isSidechain"] = true
	}
	s.lines = append(s.lines, l)
}

func (s *synth) user(text string) *synth {
	id, ts := s.id()
	s.add(map[string]any{"type": "user", "uuid": id, "timestamp": ts, "message": map[string]any{"role": "user", "content": text}})
	return s
}

func (s *synth) say(text string) *synth {
	id, ts := s.id()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return s
}

// call writes a tool call and its result; err makes it a failure as
// Claude Code writes one (is_error, a string toolUseResult).
func (s *synth) call(name string, input map[string]any, out string, err bool) *synth {
	id, ts := s.id()
	s.add(map[string]any{"type": "assistant", "uuid": id, "timestamp": ts,
		"message": map[string]any{"id": "msg-" + id, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "tu-" + id, "name": name, "input": input}}}})
	rid, rts := s.id()
	block := map[string]any{"type": "tool_result", "tool_use_id": "tu-" + id, "content": out}
	var tur any = map[string]any{"stdout": out}
	if err {
		block["is_error"] = true
		tur = "Error: " + out
	}
	s.add(map[string]any{"type": "user", "uuid": rid, "timestamp": rts, "toolUseResult": tur,
		"message": map[string]any{"role": "user", "content": []any{block}}})
	return s
}

func (s *synth) bash(cmd, out string, err bool) *synth {
	return s.call("Bash", map[string]any{"command": cmd}, out, err)
}

func (s *synth) write(path, out string, err bool) *synth {
	return s.call("Write", map[string]any{"file_path": path, "content": "..."}, out, err)
}

func (s *synth) fact(kind string, weight int, fact string, anyOf ...[]string) *synth {
	s.facts = append(s.facts, synthFact{kind, weight, fact, anyOf})
	return s
}

func (s *synth) falseClaim(claim string, anyOf ...[]string) *synth {
	s.false_ = append(s.false_, synthFact{"", 0, claim, anyOf})
	return s
}

// agent writes a subagent's transcript: a Write that succeeds.
func (s *synth) agent(name, file string) *synth {
	lines := []map[string]any{
		{"type": "user", "isSidechain": true, "sessionId": "synth-" + s.name, "agentId": name, "uuid": name + "-1", "timestamp": s.at.Format(time.RFC3339Nano),
			"message": map[string]any{"role": "user", "content": "Write " + file}},
		{"type": "assistant", "isSidechain": true, "sessionId": "synth-" + s.name, "agentId": name, "uuid": name + "-2", "timestamp": s.at.Format(time.RFC3339Nano),
			"message": map[string]any{"id": name + "-m", "role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": name + "-w", "name": "Write", "input": map[string]any{"file_path": file, "content": "..."}}}}},
		{"type": "user", "isSidechain": true, "sessionId": "synth-" + s.name, "agentId": name, "uuid": name + "-3", "timestamp": s.at.Format(time.RFC3339Nano),
			"message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": name + "-w", "content": "File created successfully at: " + file}}}},
	}
	s.agents["agent-"+name+".jsonl"] = lines
	return s
}

const reject = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). "

// synthetics are the sessions of the second check.
func synthetics() []*synth {
	var out []*synth
	out = append(out, newSynth("refused-write").
		user("Document the build steps in CLAUDE.md").
		write("/work/app/CLAUDE.md", "Claude requested permissions to write to /work/app/CLAUDE.md, but you haven't granted it yet.", true).
		say("The build steps are documented in the project notes now.").
		fact("request", 2, "the user asked for build steps in CLAUDE.md", []string{"claude.md"}, []string{"build"}).
		fact("open", 2, "CLAUDE.md was never written: permission not granted", []string{"claude.md"}, []string{"not allowed", "not granted", "permission", "refused"}).
		falseClaim("CLAUDE.md was changed", []string{"changed: `claude.md`"}).
		falseClaim("CLAUDE.md was written", []string{"wrote claude.md", "claude.md was written", "created claude.md"}))

	out = append(out, newSynth("rejected-install").
		user("Set up vite for the dev server").
		bash("npm install --save-dev vite", reject+"The user provided the following reason for the rejection: use pnpm", true).
		bash("pnpm add -D vite", "Packages: +12\nProgress: resolved 12, reused 12\ndevDependencies:\n+ vite 5.4.21\nDone in 2.1s", false).
		say("vite is installed.").
		user("how do I start it?").say("Run pnpm dev.").
		fact("request", 2, "set up vite", []string{"vite"}).
		fact("decision", 2, "the user wants pnpm, not npm", []string{"use pnpm"}).
		fact("done", 1, "vite installed with pnpm", []string{"pnpm add -d vite"}).
		falseClaim("vite installed with npm", []string{"ran npm install", "installed with npm", "npm install succeeded"}))

	out = append(out, newSynth("hook-blocked-commit").
		user("commit the parser fix").
		bash(`git commit -am "Fix the parser"`, `PreToolUse:Bash hook blocking error from command: "guard.sh": commits on main are not allowed`, true).
		say("I've committed the parser fix.").
		fact("request", 2, "commit the parser fix", []string{"parser"}).
		fact("open", 2, "the commit was blocked by a hook", []string{"commit"}, []string{"blocked"}, []string{"not allowed", "guard"}).
		falseClaim("the fix was committed", []string{"committed fix the parser", "committed: fix the parser", "committed “fix the parser”"}))

	s := newSynth("pre-commit-hook").user("commit the lint fixes")
	for i := 0; i < 3; i++ {
		s.bash("git commit -m \"$(cat <<'EOF'\nFix lint errors\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
			"Exit code 1\nruff.....................................................................Failed\n- hook id: ruff\n- exit code: 1\n\nsrc/app.py:3:1: F401 'os' imported but unused", true)
	}
	out = append(out, s.say("The commit is done.").
		fact("request", 2, "commit the lint fixes", []string{"lint"}).
		fact("open", 2, "the pre-commit hook (ruff) refused the commit three times", []string{"commit"}, []string{"failed"}, []string{"ruff"}).
		falseClaim("the lint fixes were committed", []string{"committed fix lint errors", "committed: fix lint errors", "committed: $(cat"}))

	out = append(out, newSynth("heredoc-commit-push").
		user("commit and push the annotations work").
		bash("git add -A && git commit -m \"$(cat <<'EOF'\nfeat: transcript annotations\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
			"[feature-x d9e611e] feat: transcript annotations\n 7 files changed, 310 insertions(+), 4 deletions(-)", false).
		bash("git push 2>&1", "Exit code 128\nfatal: The current branch feature-x has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature-x", true).
		bash("git push --set-upstream origin feature-x 2>&1", "remote:\nremote: Create a pull request for 'feature-x' on GitHub by visiting:\nremote:      https://github.com/acme/app/pull/new/feature-x\nremote:\nTo github.com:acme/app.git\n * [new branch]      feature-x -> feature-x\nbranch 'feature-x' set up to track 'origin/feature-x'.", false).
		say("Committed and pushed.").
		fact("done", 2, "committed d9e611e feat: transcript annotations", []string{"d9e611e"}, []string{"transcript annotations"}).
		fact("done", 1, "pushed feature-x", []string{"feature-x"}, []string{"pushed"}).
		fact("lesson", 1, "the first push failed: no upstream", []string{"no upstream"}).
		fact("open", 1, "no pull request yet", []string{"pull/new"}).
		falseClaim("the commit message was lost to the heredoc", []string{"committed: $(cat"}))

	out = append(out, newSynth("quiet-commits").
		user("commit the table module and its tests separately").
		bash("git add src/table.py && git commit -q -F - <<'EOF'\nAdd the table module\nEOF", "", false).
		bash("git add tests && git commit -q -m 'Add the table tests'", "", false).
		bash("git log --oneline -3", "1a6b0e2 Add the table tests\n9c3d4f1 Add the table module\n2c0d950 Initial commit", false).
		say("Two commits.").
		fact("done", 2, "committed 9c3d4f1 Add the table module", []string{"9c3d4f1"}).
		fact("done", 2, "committed 1a6b0e2 Add the table tests", []string{"1a6b0e2"}))

	out = append(out, newSynth("masked-tests").
		user("make the cache tests pass").
		bash("uv run pytest tests/test_cache.py -q 2>&1 | tail -3", "FAILED tests/test_cache.py::test_version_mismatch - AssertionError\n2 failed, 16 passed in 0.22s", false).
		call("Edit", map[string]any{"file_path": "/work/app/tests/test_cache.py", "old_string": "2.0.0", "new_string": "1.0.0"}, "The file /work/app/tests/test_cache.py has been updated successfully.", false).
		bash("uv run pytest tests/test_cache.py -q 2>&1 | tail -3", "18 passed in 0.21s", false).
		say("All 18 tests pass now.").
		fact("done", 2, "the final run passed 18", []string{"18 passed"}).
		fact("file", 1, "tests/test_cache.py changed", []string{"test_cache.py"}))

	out = append(out, newSynth("tests-still-failing").
		user("run the suite before the release").
		bash("mix test 2>&1 | tail -4", "Finished in 1.5 seconds (0.9s async, 0.5s sync)\n5 tests, 4 failures\n\nRandomized with seed 918599", false).
		say("The suite ran.").
		user("can we release?").
		say("Let me know how you want to proceed.").
		fact("open", 2, "4 of 5 tests fail", []string{"4 failures", "4 failed"}).
		falseClaim("the suite passed", []string{"tests passed", "all tests pass", "0 failures"}))

	out = append(out, newSynth("pending-todos").
		user("add the state column and its tests").
		call("TodoWrite", map[string]any{"todos": []any{
			map[string]any{"content": "Write the migration", "status": "completed", "activeForm": "Writing"},
			map[string]any{"content": "Add the state tests", "status": "in_progress", "activeForm": "Adding"},
			map[string]any{"content": "Update the API docs", "status": "pending", "activeForm": "Updating"}}}, "Todos have been modified successfully.", false).
		write("/work/app/priv/repo/migrations/20261130_add_state.exs", "File created successfully at: /work/app/priv/repo/migrations/20261130_add_state.exs", false).
		say("The migration is in.").
		fact("open", 2, "the state tests are in progress", []string{"add the state tests"}).
		fact("open", 1, "the API docs are pending", []string{"update the api docs"}).
		fact("file", 1, "the migration was written", []string{"add_state.exs"}))

	c := newSynth("compaction")
	c.lines = append(c.lines,
		map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "uuid": "cb", "sessionId": "synth-compaction",
			"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 160000}},
		map[string]any{"type": "user", "uuid": "cs", "isCompactSummary": true, "isVisibleInTranscriptOnly": true, "sessionId": "synth-compaction", "timestamp": "2026-11-30T09:00:00Z",
			"message": map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   The user asked to port the importer to streaming reads (epic imp-42).\n\n2. Key Technical Concepts:\n   - bufio\n\n7. Pending Tasks:\n   - imp-42.3: progress bar\n\n8. Current Work:\n   Rewriting reader.go to stream rows.\n\nIf you need specific details from before compaction, read the full transcript at: /x.jsonl"}})
	out = append(out, c.
		call("Edit", map[string]any{"file_path": "/work/app/reader.go", "old_string": "a", "new_string": "b"}, "The file /work/app/reader.go has been updated successfully.", false).
		say("reader.go streams rows now.").
		fact("request", 2, "the session's goal, from before the compaction", []string{"imp-42"}, []string{"stream"}).
		fact("open", 1, "the progress bar is pending", []string{"progress bar"}))

	out = append(out, newSynth("short-answers").
		user("Which port does the dev server use?").
		say("Port 3700.").
		user("And after changing the config?").
		say("Then restart.").
		fact("done", 2, "the port is 3700", []string{"3700"}).
		fact("done", 1, "restart after a config change", []string{"restart"}).
		falseClaim("the question went unanswered", []string{"unanswered: which port"}))

	n := newSynth("subagents-nested").
		user("build the app with two subagents").
		call("Task", map[string]any{"description": "server", "prompt": "Write server.js", "subagent_type": "general-purpose"}, "Wrote server.js", false).
		call("Task", map[string]any{"description": "client", "prompt": "Write client.js", "subagent_type": "general-purpose"}, "Wrote client.js", false).
		say("Both parts are written.").
		user("do they talk to each other?").say("Yes, over the /api routes.").
		agent("a1", "/work/app/server.js").agent("a2", "/work/app/client.js").
		fact("file", 2, "server.js written by a subagent", []string{"server.js"}).
		fact("file", 2, "client.js written by a subagent", []string{"client.js"})
	out = append(out, n)

	fl := newSynth("subagents-flat").
		user("write the schema with a subagent").
		call("Task", map[string]any{"description": "schema", "prompt": "Write schema.sql", "subagent_type": "general-purpose"}, "Wrote schema.sql", false).
		say("The schema is written.").
		user("with foreign keys?").say("Yes, every table has them.").
		agent("b7", "/work/app/schema.sql").
		fact("file", 2, "schema.sql written by a subagent", []string{"schema.sql"})
	fl.flat = true
	out = append(out, fl)

	in := newSynth("subagents-inline").user("generate the fixtures with a subagent")
	in.side = true
	in.user("Write fixtures.json").write("/work/app/fixtures.json", "File created successfully at: /work/app/fixtures.json", false)
	in.side = false
	out = append(out, in.
		call("Task", map[string]any{"description": "fixtures", "prompt": "Write fixtures.json", "subagent_type": "general-purpose"}, "Wrote fixtures.json", false).
		say("The fixtures are generated.").
		user("how many?").say("Forty records.").
		fact("file", 2, "fixtures.json written by a subagent", []string{"fixtures.json"}))

	out = append(out, newSynth("interrupted").
		user("why does mix phx.server not start?").
		bash("mix phx.server", reject+"STOP what you are doing and wait for the user to tell you how to proceed.", true).
		user("[Request interrupted by user for tool use]").
		fact("request", 2, "the server does not start", []string{"phx.server"}).
		fact("open", 2, "nothing diagnosed: interrupted", []string{"interrupted", "rejected", "unanswered"}))
	return out
}

// writeSynthetics writes the sessions and their facts file under dir.
func writeSynthetics(dir string, ss []*synth) (factsPath string, files []string) {
	check(os.MkdirAll(dir, 0o755))
	var entries []map[string]any
	for _, s := range ss {
		file := "synthetic__" + s.name + ".jsonl"
		writeLines(filepath.Join(dir, file), s.lines)
		stem := strings.TrimSuffix(file, ".jsonl")
		for name, lines := range s.agents {
			if s.flat {
				writeLines(filepath.Join(dir, "synthetic__"+name), lines)
			} else {
				writeLines(filepath.Join(dir, stem+"__subagents__"+name), lines)
			}
		}
		var facts, falses []map[string]any
		for _, f := range s.facts {
			facts = append(facts, map[string]any{"kind": f.kind, "weight": f.weight, "fact": f.fact, "where": "both", "any_of": f.anyOf})
		}
		for _, f := range s.false_ {
			falses = append(falses, map[string]any{"claim": f.fact, "any_of": f.anyOf})
		}
		if falses == nil {
			falses = []map[string]any{}
		}
		entries = append(entries, map[string]any{"file": file, "facts": facts, "false_claims": falses})
		files = append(files, file)
	}
	factsPath = filepath.Join(dir, "facts.json")
	data, err := json.Marshal(map[string]any{"transcripts": entries})
	check(err)
	check(os.WriteFile(factsPath, data, 0o644))
	return factsPath, files
}

func writeLines(path string, lines []map[string]any) {
	var b strings.Builder
	for _, l := range lines {
		data, err := json.Marshal(l)
		check(err)
		b.Write(data)
		b.WriteByte('\n')
	}
	check(os.WriteFile(path, []byte(b.String()), 0o644))
}
