package intent

import (
	"reflect"
	"testing"
)

// TestSameIntent: the forms a retry takes are one intent; different work
// is not. Each pair was met in real sessions or in the issue that asked
// for the grouping (#40).
func TestSameIntent(t *testing.T) {
	same := [][2]string{
		{"node assets/build.js", "cd assets && node build.js"},
		{".venv/bin/python scripts/gen.py", "python3 gen.py"},
		{"python gen.py", "./scripts/gen.py"},
		{"git commit -m \"feat: instrument hook controllers\"", "git commit -q -F - <<'EOF'\nfeat: instrument hook controllers with OTEL\nEOF"},
		{"git commit -m \"$(cat <<'EOF'\nFix\nEOF\n)\"", "cd repo && git -C . commit --amend --no-edit"},
		{"(source .venv/bin/activate && pytest)", "uv run pytest -q 2>&1 | tail -3"},
		{"pytest tests/test_cache.py::TestX::test_y -xvs", "python -m pytest tests/test_cache.py"},
		{"npm install", "pnpm install"},
		{"npm i vite", "yarn add vite@5"},
		{"curl -sf https://api.example.com/v1/x", "wget https://api.example.com/other"},
		{"CI=1 timeout 60 npx vitest run", "pnpm exec vitest"},
		{"bd close X.4", "bd close X.4 --reason done"},
		{"cat <<'EOF' > notes.md\nbody\nEOF", "echo x > ./notes.md"},
	}
	for _, p := range same {
		a, b := Of("Bash", "", p[0]), Of("Bash", "", p[1])
		if a == "" || a != b {
			t.Errorf("%q → %q and %q → %q: want one intent", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{"pytest tests/a.py", "pytest tests/b.py"},
		{"bd close X.4", "bd close X.5"},
		{"npm i vite", "npm i react"},
		{"git commit -m x", "git push"},
		{"node build.js", "node test.js"},
		{"npm run build", "npm run lint"},
	}
	for _, p := range differ {
		if a, b := Of("Bash", "", p[0]), Of("Bash", "", p[1]); a == b {
			t.Errorf("%q and %q are both %q: want two intents", p[0], p[1], a)
		}
	}
}

func TestOf(t *testing.T) {
	for _, tt := range []struct{ tool, target, cmd, want string }{
		{"Edit", "src/./a.go", "", "file src/a.go"},
		{"Write", `docs\api.md`, "", "file docs/api.md"},
		{"WebFetch", "https://Docs.Example.com/a?b", "", "fetch docs.example.com"},
		{"Read", "a.go", "", ""},
		{"Bash", "", "ls -la && git status", ""},
		{"Bash", "", "pnpm --version", "pnpm"},
		{"Bash", "", "claude -p \"What tools are available?\" 2>&1", "claude -p"},
		{"Bash", "", "coderabbit-extract", "coderabbit-extract"},
		{"Bash", "", "npx pnpm --version", "pnpm"},
		{"Bash", "", "echo hi", ""},
		{"Bash", "", "grep -r pytest .", ""},
		{"Bash", "", "pip install pytest", "install pytest"},
		{"Bash", "", "uv pip install -e .", "install"},
		{"Bash", "", "go test ./...", "test go test"},
		{"Bash", "", "go test ./internal/x/ -run TestY", "test go test internal/x"},
		{"Bash", "", "uv run --with pytest-cov pytest -q", "test pytest"},
		{"Bash", "", "git add -A && git commit -m x && git push origin main", "git push"},
		{"Bash", "", "git tag -a v1.2 -m release", "git tag v1.2"},
		{"Bash", "", "git -C /repo stash pop", "git stash pop"},
		{"Bash", "", "npm run build 2>&1 | tail -20", "npm run build"},
		{"Bash", "", "pnpm build", "pnpm run build"},
		{"Bash", "", `C:\Python312\python.exe tools\gen.py`, "run gen.py"},
		{"Bash", "", "python -m http.server 8000 &", "python -m http.server"},
		{"Bash", "", "python -c 'print(1)'", ""},
		{"Bash", "", "docker compose up -d", "docker compose up"},
		{"Bash", "", "make -C web build", "make build"},
		{"Bash", "", "# build it\ncd web\nnpm ci", "install"},
		{"PowerShell", "", "dotnet test", "test dotnet test"},
		{"Skill", "pdf", "", "skill pdf"},
	} {
		if got := Of(tt.tool, tt.target, tt.cmd); got != tt.want {
			t.Errorf("Of(%s, %q, %q) = %q, want %q", tt.tool, tt.target, tt.cmd, got, tt.want)
		}
	}
}

func TestSteps(t *testing.T) {
	got := Steps("cd web && npm ci && npm run build; git add -A && git commit -m 'a && b' | cat")
	want := []string{"install", "npm run build", "git add", "git commit"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Steps = %q, want %q", got, want)
	}
	if got := Steps("git commit -F - <<'EOF'\nrm -rf / && make deploy\nEOF\ngit push"); !reflect.DeepEqual(got, []string{"git commit", "git push"}) {
		t.Errorf("a here-document's body is no step: %q", got)
	}
}

func TestRunner(t *testing.T) {
	for cmd, want := range map[string]string{
		"uv run pytest -q":              "pytest",
		"python3 -m pytest tests":       "pytest",
		"npx vitest run":                "vitest",
		"cd x && cargo test --all":      "cargo test",
		"pip install pytest":            "",
		"echo pytest":                   "",
		"git commit -m 'add pytest'":    "",
		"timeout 300 make test":         "make test",
		"./gradlew test":                "gradle test",
		"mix test test/x_test.exs:12":   "mix test",
		"npm run test -- --watch=false": "npm test",
	} {
		if got := Runner(cmd); got != want {
			t.Errorf("Runner(%q) = %q, want %q", cmd, got, want)
		}
	}
}
