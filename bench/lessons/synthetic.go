package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// pitfall is a failure a project's sessions run into, and the form that
// works: the repeats the issue names (#42).
// Each way of failing is spelt several ways, as an agent spells it.
type pitfall struct {
	fails        []string
	failOut, fix string
	fixOut       string
}

var pitfalls = []pitfall{
	{[]string{"node assets/build.js", "node ./assets/build.js --minify", "NODE_ENV=production node assets/build.js"},
		"Exit code 1\nnode:internal/modules/cjs/loader:1228\nError: Cannot find module './lib/rollup'", "cd assets && node build.js", "built 14 files in 1.2s"},
	{[]string{".venv/bin/python scripts/migrate.py", ".venv/bin/python3 scripts/migrate.py --dry-run"},
		"Exit code 127\n/bin/sh: .venv/bin/python: No such file or directory", "python3 scripts/migrate.py", "migrated 3 tables"},
	{[]string{"git push", "git push origin main"},
		"Exit code 1\nTo github.com:acme/shop.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\nhint: Updates were rejected because the remote contains work that you do not have locally (non-fast-forward).", "git pull --rebase && git push", "   4f1c2aa..9e3b7d1  main -> main"},
	{[]string{"npm install", "npm i", "npm ci"},
		"Exit code 1\nnpm error This project uses pnpm: a pnpm-lock.yaml is present. Run pnpm install.", "pnpm install", "Packages: +412\nDone in 6.1s"},
	{[]string{"curl -sf https://rpc.old-node.example/v1/status", "curl -s --fail https://rpc.old-node.example/v1/height"},
		"Exit code 22\ncurl: (22) The requested URL returned error: 403", "curl -sf https://rpc.backup.example/v1/status", `{"ok":true,"height":18211}`},
	{[]string{"make deploy", "make deploy ENV=staging"},
		"Exit code 2\nmake: *** No rule to make target 'deploy'.  Stop.", "./scripts/deploy.sh staging", "deployed staging@9e3b7d1"},
	{[]string{"pnpm run e2e", "pnpm e2e"},
		"Exit code 1\nError: browserType.launch: Executable doesn't exist at /home/dev/.cache/ms-playwright/chromium-1124/chrome-linux/chrome", "pnpm exec playwright install chromium && pnpm run e2e", "12 passed (41s)"},
}

// oneOffs fail once and are not mistakes of form: the same intent works
// later as it is (a port taken, a PR number that does not exist). They
// are where a reminder would be spurious.
var oneOffs = []struct{ cmd, out, later string }{
	{"gh pr view 99", "Exit code 1\nno pull requests found for branch \"feature/99\"", "gh pr view 12"},
	{"docker compose up -d", "Exit code 1\nError response from daemon: Bind for 0.0.0.0:5432 failed: port is already allocated", "docker compose up -d"},
	{"go build ./...", "Exit code 1\n# shop/cart\ncart/cart.go:41:2: undefined: roundOnce", "go build ./..."},
	{"git rebase main", "Exit code 1\nCONFLICT (content): Merge conflict in src/cart.go", "git rebase --continue"},
	{"pnpm run typecheck", "Exit code 2\nsrc/api/handler.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", "pnpm run typecheck"},
}

// routine calls: what most of a session is, none failing.
var routine = []struct{ tool, arg, out string }{
	{"Bash", "git status", "On branch main\nnothing to commit, working tree clean"},
	{"Bash", "ls -la src", "total 48\ndrwxr-xr-x  8 dev dev 4096 ."},
	{"Bash", "go build ./...", ""},
	{"Bash", "go test ./... 2>&1 | tail -5", "ok  \tshop/cart\t0.41s\nok  \tshop/api\t1.02s"},
	{"Bash", "git diff --stat", " src/cart.go | 12 ++++++------"},
	{"Bash", "rg -n 'TODO' src | head", "src/cart.go:41: // TODO: rounding"},
	{"Bash", "git add -A && git commit -qm 'cart: round totals once'", "[main 4f1c2aa] cart: round totals once"},
	{"Bash", "pnpm run lint", "✔ no problems"},
	{"Edit", "src/cart.go", "The file src/cart.go has been updated successfully."},
	{"Edit", "src/api/handler.go", "The file src/api/handler.go has been updated successfully."},
	{"Write", "docs/notes.md", "File created successfully at: docs/notes.md"},
	{"Read", "src/cart.go", "package cart"},
	{"Bash", "docker compose ps", "NAME   STATUS\ndb     running"},
	{"Bash", "gh pr view 12 --json state", `{"state":"OPEN"}`},
	{"Bash", "docker compose up -d", "Container shop-db-1  Started"},
	{"Bash", "pnpm run typecheck", ""},
	{"Bash", "gh pr view 7", "title: cart rounding"},
}

// synthProject writes a project of sessions in the line format of Claude
// Code 2.1 transcripts and returns their paths in order. Each session
// meets a few of the pitfalls: it tries the failing form first (a repeat
// from the second meeting on), then the fix; the rest is routine.
func synthProject(dir string, sessions, callsPer int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cwd := "/home/dev/work/shop"
	var out []string
	t := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for s := range sessions {
		id := fmt.Sprintf("%08x-5e55-4000-8000-%012x", seed*100+uint64(s), s)
		w := &lineWriter{cwd: cwd, session: id, t: t}
		w.user("Let's keep going on the shop: " + fmt.Sprint(s))
		met := r.Perm(len(pitfalls))[:1+r.IntN(3)]
		at := map[int]int{}
		for _, p := range met {
			at[r.IntN(callsPer)] = p + 1
		}
		odd := map[int]int{}
		for range r.IntN(3) {
			odd[r.IntN(callsPer)] = 1 + r.IntN(len(oneOffs))
		}
		for c := range callsPer {
			if p := at[c]; p > 0 {
				pf := pitfalls[p-1]
				w.text("Running it.")
				if r.IntN(4) > 0 { // now and then the agent goes the right way at once
					w.call("Bash", pf.fails[r.IntN(len(pf.fails))], pf.failOut, true)
					w.text("That failed; trying the other way.")
				}
				w.call("Bash", pf.fix, pf.fixOut, false)
				continue
			}
			if o := odd[c]; o > 0 {
				oo := oneOffs[o-1]
				w.call("Bash", oo.cmd, oo.out, true)
				w.text("Fixing that first.")
				w.call("Edit", filepath.Join(cwd, "src/cart.go"), "The file src/cart.go has been updated successfully.", false)
				w.call("Bash", oo.later, "ok", false)
				continue
			}
			rt := routine[r.IntN(len(routine))]
			if c%4 == 0 {
				w.text("Next step.")
			}
			arg := rt.arg
			if rt.tool != "Bash" {
				arg = filepath.Join(cwd, rt.arg)
			}
			w.call(rt.tool, arg, rt.out, false)
		}
		w.text("Done for today.")
		p := filepath.Join(dir, id+".jsonl")
		check(os.WriteFile(p, w.buf, 0o644))
		out = append(out, p)
		t = t.Add(26 * time.Hour)
	}
	return out
}

type lineWriter struct {
	buf     []byte
	cwd     string
	session string
	t       time.Time
	n       int
	parent  string
}

func (w *lineWriter) base(typ string) map[string]any {
	w.n++
	w.t = w.t.Add(7 * time.Second)
	uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", w.n, w.n)
	m := map[string]any{"parentUuid": w.parent, "isSidechain": false, "userType": "external", "cwd": w.cwd,
		"sessionId": w.session, "version": "2.1.207", "gitBranch": "main", "type": typ, "uuid": uuid,
		"timestamp": w.t.Format("2006-01-02T15:04:05.000Z"), "entrypoint": "cli"}
	w.parent = uuid
	return m
}

func (w *lineWriter) emit(m map[string]any) {
	b, err := json.Marshal(m)
	check(err)
	w.buf = append(append(w.buf, b...), '\n')
}

func (w *lineWriter) user(text string) {
	m := w.base("user")
	m["message"] = map[string]any{"role": "user", "content": text}
	w.emit(m)
}

func (w *lineWriter) text(text string) {
	m := w.base("assistant")
	m["message"] = map[string]any{"id": fmt.Sprintf("msg_%d", w.n), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
		"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 20}}
	w.emit(m)
}

func (w *lineWriter) call(tool, arg, out string, failed bool) {
	m := w.base("assistant")
	id := fmt.Sprintf("toolu_%06d", w.n)
	input := map[string]any{"command": arg, "description": "step"}
	if tool != "Bash" {
		input = map[string]any{"file_path": arg}
		if tool == "Edit" {
			input["old_string"], input["new_string"] = "a", "b"
		}
		if tool == "Write" {
			input["content"] = "notes"
		}
	}
	m["message"] = map[string]any{"id": fmt.Sprintf("msg_%d", w.n), "type": "message", "role": "assistant", "model": "claude-opus-4-5",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}}, "stop_reason": "tool_use",
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 20}}
	assistant := w.parent
	w.emit(m)
	r := w.base("user")
	r["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": failed}}}
	if failed {
		r["toolUseResult"] = "Error: " + out
	} else if tool == "Bash" {
		r["toolUseResult"] = map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
	} else {
		r["toolUseResult"] = map[string]any{"filePath": arg, "type": "update"}
	}
	r["sourceToolAssistantUUID"] = assistant
	w.emit(r)
}
