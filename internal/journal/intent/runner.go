package intent

import (
	"strings"
	"sync"
)

// Test runs: which runner a step calls and what it runs.

// Runner names the test runner a command calls, "" when it calls none
// that is known. The first runner the command's working line holds wins.
func Runner(command string) string {
	for _, st := range split(command) {
		if r := runnerOf(st); r != "" {
			return r
		}
	}
	return ""
}

// runners name a test run by its command; the first marker the step
// holds wins.
var runners = []struct {
	marker []string
	name   string
}{
	{[]string{"pytest"}, "pytest"}, {[]string{"py.test"}, "pytest"}, {[]string{"unittest"}, "unittest"},
	{[]string{"go", "test"}, "go test"}, {[]string{"cargo", "test"}, "cargo test"}, {[]string{"cargo", "nextest"}, "cargo nextest"},
	{[]string{"mix", "test"}, "mix test"}, {[]string{"vitest"}, "vitest"}, {[]string{"jest"}, "jest"}, {[]string{"mocha"}, "mocha"},
	{[]string{"rspec"}, "rspec"}, {[]string{"npm", "test"}, "npm test"}, {[]string{"npm", "run", "test"}, "npm test"},
	{[]string{"yarn", "test"}, "yarn test"}, {[]string{"pnpm", "test"}, "pnpm test"}, {[]string{"pnpm", "run", "test"}, "pnpm test"},
	{[]string{"bun", "test"}, "bun test"}, {[]string{"make", "test"}, "make test"}, {[]string{"make", "check"}, "make check"},
	{[]string{"dotnet", "test"}, "dotnet test"}, {[]string{"gradle", "test"}, "gradle test"}, {[]string{"mvn", "test"}, "mvn test"},
	{[]string{"phpunit"}, "phpunit"}, {[]string{"playwright", "test"}, "playwright test"},
}

// runPrefixes run the command after them: a runner is found past them
// (`uv run pytest`, `python -m pytest`, `npx vitest`).
var runPrefixes = sync.OnceValue(func() map[string]bool {
	return set("uv", "uvx", "run", "poetry", "pipenv", "pdm", "hatch", "rye", "npx", "bunx", "pnpx", "pnpm", "yarn",
		"npm", "exec", "dlx", "bundle", "python", "python3", "py", "node", "pipx", "mise", "dotenv", "xvfb-run")
})

// runnerOf names the runner one step calls: its program, or the program
// a run prefix calls.
func runnerOf(ws []string) string {
	r, _ := runnerIn(unwrap(ws))
	return r
}

// runnerIn is runnerOf with the position of the words after the
// runner's name.
func runnerIn(ws []string) (string, int) {
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = strings.ToLower(program(w))
		if names[i] == "gradlew" {
			names[i] = "gradle"
		}
	}
	for i := 0; i < len(names); {
		if r, n := runnerAt(names, i); r != "" {
			return r, i + n
		}
		switch {
		case strings.HasPrefix(names[i], "-"):
			// An option, and the value after it unless that is the runner.
			i++
			if r, _ := runnerAt(names, i); i < len(names) && !strings.HasPrefix(names[i], "-") && !strings.Contains(names[i-1], "=") && r == "" {
				i++
			}
		case runPrefixes()[names[i]]:
			i++
		default:
			return "", 0
		}
	}
	return "", 0
}

// runnerAt names the runner whose marker starts at names[i], and the
// marker's length.
func runnerAt(names []string, i int) (string, int) {
	for _, r := range runners {
		if i+len(r.marker) > len(names) {
			continue
		}
		match := true
		for k, m := range r.marker {
			if names[i+k] != m {
				match = false
				break
			}
		}
		if match {
			return r.name, len(r.marker)
		}
	}
	return "", 0
}

// testTarget is what a test run runs, when it names it: its first
// argument that is a path or a package, the test's own name after ::
// left out (a run of one test and of its file are the same target).
func testTarget(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if a == "-k" || a == "-m" || a == "-p" || a == "--run" || a == "-run" || a == "-t" || a == "--config" || a == "-c" || a == "--timeout" {
				i++
			}
			continue
		}
		if strings.ContainsAny(a, "/.:") || strings.HasPrefix(a, "test") {
			a, _, _ = strings.Cut(a, "::")
			if a = cleanPath(a); a == "..." || a == "." || a == "./..." {
				return ""
			}
			return a
		}
	}
	return ""
}
