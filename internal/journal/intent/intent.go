// Package intent names what a tool call sets out to do, so that the
// attempts at one thing — a failure and the later form that worked — are
// read as one action, whatever their spelling.
//
// [Of] gives a call's intent (its main one, for a shell command of several
// steps); [Steps] gives every step's. Two calls with the same intent are
// attempts at the same action:
//
//   - a write or an edit of the same file: "file <path>";
//   - a commit, whatever its message: "git commit" (a push "git push", a
//     tag "git tag <name>", any other git subcommand "git <sub>");
//   - the same test target of one runner: "test pytest tests/test_x.py",
//     "test go test ./..."; a run without a target is "test <runner>";
//   - a script, from whatever folder, by whatever runs it: `node
//     assets/build.js` and `cd assets && node build.js` are "run
//     build.js", `.venv/bin/python x.py`, `python3 x.py` and `./x.py`
//     "run x.py"; a module, "python -m http.server"; `uv run pytest` is
//     pytest's;
//   - an installation, by any package manager: "install <package>" (of
//     the project's dependencies: "install");
//   - a download or a page fetched: "fetch <host>" (curl, wget and
//     WebFetch alike);
//   - any other command: its program, its subcommand and its first
//     argument, "bd close X.4".
//
// A step that only looks (ls, cat, git status) or only prepares the
// shell (cd, source, export) has no intent; one that asks a program
// about itself (`pnpm --version`, `tool --help`) is named by the program. The names are
// stable: the distiller groups a segment's attempts by them, the
// timeline closes a failure by a later success of the same name, and a
// reminder given before a tool call finds the lesson of the same name.
// The package reads no file and calls nothing: it runs in the hooks.
package intent

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Of is the intent of a call to tool with the given file target (a
// path, for the file tools) and shell command (for Bash and PowerShell);
// "" for a call that only looks. A shell command of several steps is
// named by its last step that acts: the goal the steps before it lead to.
func Of(tool, target, command string) string {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		if p := cleanPath(target); p != "" {
			return "file " + p
		}
		return ""
	case "WebFetch":
		if h := host(target); h != "" {
			return "fetch " + h
		}
		return ""
	case "Bash", "PowerShell":
		if command == "" {
			command = target
		}
		s := Steps(command)
		if len(s) == 0 {
			return ""
		}
		return s[len(s)-1]
	case "Skill":
		if target != "" {
			return "skill " + target
		}
	}
	return ""
}

// Steps is the intent of each step of a shell command that acts, in
// order and without repeats: `cd web && npm ci && npm run build` is
// ["install", "npm run build"].
func Steps(command string) []string {
	var out []string
	seen := map[string]bool{}
	for _, st := range split(command) {
		if in := step(st); in != "" && !seen[in] {
			seen[in] = true
			out = append(out, in)
		}
	}
	return out
}

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

// split cuts a command into its steps' words: at &&, ||, ;, | and line
// ends outside quotes, a here-document's body left out. A backslash
// escapes a space, a quote or a line end; before a letter it is a
// Windows path's separator.
func split(command string) [][]string {
	var steps [][]string
	var words []string
	var w strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	end := func() {
		flushWord()
		if len(words) > 0 {
			steps = append(steps, words)
		}
		words = nil
	}
	var heredoc []string // delimiters of here-documents opened on this line
	var quote byte       // a quoted string may span lines
	lines := strings.Split(command, "\n")
	for li := 0; li < len(lines); li++ {
		line := lines[li]
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case quote == '"' && c == '<' && strings.HasPrefix(line[i:], "<<"):
				// A here-document inside a command substitution:
				// git commit -m "$(cat <<'EOF' … EOF)".
				if m := heredocStart().FindStringSubmatch(line[i:]); m != nil {
					heredoc = append(heredoc, m[1])
					i += len(m[0]) - 1
				}
				inWord = true
			case quote != 0:
				if c == quote {
					quote = 0
				} else if c == '\\' && quote == '"' && i+1 < len(line) {
					i++
					w.WriteByte(line[i])
				} else {
					w.WriteByte(c)
				}
				inWord = true
			case c == '\'' || c == '"':
				quote = c
				inWord = true
			case c == '\\' && i+1 < len(line) && !isAlnum(line[i+1]):
				i++
				w.WriteByte(line[i])
				inWord = true
			case c == '<' && strings.HasPrefix(line[i:], "<<") && !strings.HasPrefix(line[i:], "<<<"):
				flushWord()
				if m := heredocStart().FindStringSubmatch(line[i:]); m != nil {
					heredoc = append(heredoc, m[1])
					i += len(m[0]) - 1
				} else {
					i++
				}
			case c == '&' && strings.HasPrefix(line[i:], "&&"), c == '|' && strings.HasPrefix(line[i:], "||"):
				end()
				i++
			case c == ';', c == '|':
				end()
			case c == '&' && (i+1 >= len(line) || line[i+1] != '>') && (i == 0 || line[i-1] != '>' && line[i-1] != '<'):
				end() // a job sent to the background ends its step
			case c == '#' && !inWord:
				i = len(line) // a comment
			case c == ' ' || c == '\t' || c == '(' || c == ')' || c == '{' || c == '}':
				flushWord()
			default:
				w.WriteByte(c)
				inWord = true
			}
		}
		if strings.HasSuffix(strings.TrimRight(line, " \t"), "\\") || quote != 0 && len(heredoc) == 0 {
			continue // the step goes on on the next line
		}
		if quote == 0 {
			end()
		}
		// Skip the bodies of the here-documents this line opened.
		for _, d := range heredoc {
			for li+1 < len(lines) && strings.TrimSpace(lines[li+1]) != d {
				li++
			}
			li++
		}
		heredoc = nil
	}
	end()
	return steps
}

var heredocStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`) })

// Programs that prepare the shell for the steps after them.
var setup = sync.OnceValue(func() map[string]bool {
	return set("cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias", "true", "false", ":", "sleep",
		"wait", "exit", "mkdir", "clear", "nvm", "conda", "ulimit", "trap", "shopt", "local", "read", "eval", "exec")
})

// Programs that only look.
var looks = sync.OnceValue(func() map[string]bool {
	return set("ls", "ll", "cat", "head", "tail", "grep", "egrep", "rg", "ag", "find", "fd", "pwd", "echo", "printf",
		"which", "whereis", "type", "command", "wc", "tree", "less", "more", "file", "stat", "du", "df", "env", "printenv",
		"whoami", "date", "diff", "jq", "yq", "sort", "uniq", "cut", "awk", "tr", "xargs", "basename", "dirname",
		"realpath", "readlink", "uname", "hostname", "id", "ps", "top", "lsof", "history", "man", "open", "xdg-open",
		"tee", "test", "[", "column", "nl", "od", "hexdump", "xxd", "sha1sum", "sha256sum", "md5sum", "shasum", "cmp")
})

// git subcommands that only look.
var gitLooks = sync.OnceValue(func() map[string]bool {
	return set("status", "log", "diff", "show", "branch", "remote", "rev-parse", "ls-files", "blame", "describe",
		"reflog", "shortlog", "config", "grep", "ls-tree", "cat-file", "rev-list", "whatchanged", "help", "version")
})

// Flags that only ask a program about itself.
var aboutFlags = sync.OnceValue(func() map[string]bool {
	return set("--version", "-v", "-V", "--help", "-h", "version", "help", "-version")
})

// Prefixes that run the command after them.
var wrappers = sync.OnceValue(func() map[string]bool {
	return set("sudo", "time", "nice", "nohup", "env", "exec", "command", "xvfb-run", "caffeinate", "stdbuf", "dotenv")
})

// Interpreters: a script run through one is named by the script.
var interpreters = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"node": "node", "nodejs": "node", "deno": "deno", "bun": "bun", "tsx": "node", "ts-node": "node",
		"python": "python", "python3": "python", "python2": "python", "py": "python", "pypy": "python", "pypy3": "python",
		"ruby": "ruby", "perl": "perl", "php": "php", "bash": "sh", "sh": "sh", "zsh": "sh", "dash": "sh",
		"pwsh": "pwsh", "powershell": "pwsh", "Rscript": "Rscript", "julia": "julia", "lua": "lua", "osascript": "osascript",
	}
})

// Runners that run a tool by name: the tool's own intent is theirs.
var runVia = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"uv": {"run"}, "poetry": {"run"}, "pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"},
		"npx": nil, "bunx": nil, "pnpx": nil, "pipx": {"run"}, "uvx": nil,
		"pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "npm": {"exec"}, "bundle": {"exec"}, "mise": {"exec"},
	}
})

// Package managers: their installs are one intent whichever installs.
var managers = sync.OnceValue(func() map[string]bool {
	return set("npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "cargo", "gem", "bundle", "brew",
		"apt", "apt-get", "go", "composer", "mix", "pipx", "conda", "dnf", "yum", "apk", "pacman", "choco", "winget", "scoop")
})

var installs = sync.OnceValue(func() map[string]bool {
	return set("install", "i", "add", "ci", "sync", "get", "deps.get")
})

// step names one step's intent, "" for one that only looks or prepares.
func step(ws []string) string {
	ws = unwrap(ws)
	if len(ws) == 0 {
		return ""
	}
	prog := program(ws[0])
	args := ws[1:]
	if setup()[prog] || strings.HasSuffix(prog, "activate") {
		return ""
	}
	if looks()[prog] {
		// Only looks, unless it writes what it prints into a file:
		// `cat <<EOF > x` is a write of x.
		if f := redirect(args); f != "" {
			return "file " + f
		}
		return ""
	}
	if r, at := runnerIn(ws); r != "" && !looks()[prog] {
		if t := testTarget(ws[at:]); t != "" {
			return "test " + r + " " + t
		}
		return "test " + r
	}
	if len(args) == 1 && aboutFlags()[args[0]] {
		// `pnpm --version`, `tool --help`: a check that the program
		// runs at all, named by the program.
		return prog
	}
	if vs, ok := runVia()[prog]; ok {
		rest := args
		if vs != nil {
			if len(rest) == 0 || !contains(vs, rest[0]) {
				goto own
			}
			rest = rest[1:]
		}
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			return step(rest)
		}
	}
own:
	switch {
	case prog == "git":
		return gitIntent(args)
	case prog == "gh":
		return strings.TrimSpace("gh " + strings.Join(firstWords(args, 2), " "))
	case prog == "curl" || prog == "wget" || prog == "http" || prog == "https" || prog == "xh":
		for _, a := range args {
			if h := host(a); h != "" {
				return "fetch " + h
			}
		}
		return ""
	}
	if in, ok := interpreters()[prog]; ok {
		return interpreted(in, args)
	}
	if managers()[prog] {
		if in := install(prog, args); in != "" {
			return in
		}
	}
	if strings.Contains(ws[0], "/") || strings.HasPrefix(ws[0], ".") || scriptExt(prog) {
		// A script called by its path: the same script from any folder.
		return "run " + prog
	}
	// The program, its subcommand and its first argument; with neither,
	// its first option (`claude -p "…"` is "claude -p").
	out := prog
	words := firstWords(args, 2)
	for _, a := range words {
		out += " " + a
	}
	if len(words) == 0 {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				name, _, _ := strings.Cut(a, "=")
				return out + " " + name
			}
		}
	}
	return out
}

// unwrap drops what runs the command without being it: variable
// assignments, sudo, time, timeout N.
func unwrap(ws []string) []string {
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			ws = ws[1:]
		case wrappers()[w]:
			ws = ws[1:]
			for len(ws) > 0 && strings.HasPrefix(ws[0], "-") {
				ws = ws[1:]
			}
		case w == "timeout" || w == "gtimeout":
			ws = ws[1:]
			for len(ws) > 0 && (strings.HasPrefix(ws[0], "-") || ws[0] != "" && ws[0][0] >= '0' && ws[0][0] <= '9') {
				ws = ws[1:]
			}
		default:
			return ws
		}
	}
	return ws
}

// program is a command word without its folder and, on Windows, its
// extension: `.venv/bin/python3` is python3, `C:\Python\python.exe` python.
func program(w string) string {
	w = strings.ReplaceAll(w, `\`, "/")
	w = path.Base(w)
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		w = strings.TrimSuffix(w, ext)
	}
	return w
}

func gitIntent(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if gitLooks()[a] {
				return ""
			}
			switch a {
			case "tag":
				if name := tagName(args[i+1:]); name != "" {
					return "git tag " + name
				}
				return ""
			case "stash", "worktree", "submodule", "remote", "bisect", "lfs", "notes":
				if w := firstWords(args[i+1:], 1); len(w) > 0 {
					return "git " + a + " " + w[0]
				}
			}
			return "git " + a
		}
	}
	return ""
}

// tagName is the tag a `git tag` call creates, "" when it lists or deletes.
func tagName(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-d" || a == "--delete" || a == "-l" || a == "--list" || a == "-v" || a == "--verify":
			return ""
		case a == "-m" || a == "-F" || a == "-u":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// interpreted names a run of an interpreter: by its script (the file's
// name, from whatever folder, whatever runs it), by its module (-m).
func interpreted(in string, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" && i+1 < len(args):
			return in + " -m " + args[i+1]
		case a == "-c" || a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-Command" || a == "-command":
			return "" // code given inline: no script to name it by
		case strings.HasPrefix(a, "-"):
		default:
			return "run " + program(a)
		}
	}
	return ""
}

// install names an installation; "" when the manager's subcommand is
// not one.
func install(prog string, args []string) string {
	sub := firstWords(args, 1)
	if len(sub) == 0 {
		if prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun" {
			return "install" // `yarn` alone installs
		}
		return ""
	}
	rest := args
	for len(rest) > 0 && rest[0] != sub[0] {
		rest = rest[1:]
	}
	rest = rest[1:]
	if prog == "pip" || prog == "pip3" || prog == "uv" && sub[0] == "pip" {
		if sub[0] == "pip" && len(rest) > 0 {
			sub, rest = rest[:1], rest[1:]
		}
	}
	if !installs()[sub[0]] {
		if prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun" {
			if sub[0] == "run" || sub[0] == "run-script" {
				if w := firstWords(rest, 1); len(w) > 0 {
					return prog + " run " + w[0]
				}
			}
			return prog + " run " + sub[0] // `pnpm build` runs the build script
		}
		return ""
	}
	if prog == "go" && sub[0] != "get" {
		return ""
	}
	if w := firstWords(rest, 1); len(w) > 0 && !strings.HasPrefix(w[0], ".") {
		return "install " + strings.TrimSuffix(strings.Split(w[0], "@")[0], ",")
	}
	return "install"
}

// firstWords are the first n arguments that are not options (nor the
// folder or file of -C and -f).
func firstWords(args []string, n int) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(out) == n {
			break
		}
		if a == "-C" || a == "-f" || a == "--file" || a == "--directory" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") || a == "" || strings.ContainsAny(a, "<> \t") {
			continue
		}
		out = append(out, a)
	}
	return out
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

// redirect is the file a step writes its output to ("" for none, or
// /dev/null).
func redirect(args []string) string {
	for i, a := range args {
		t := ""
		switch {
		case a == ">" || a == ">>":
			if i+1 < len(args) {
				t = args[i+1]
			}
		case strings.HasPrefix(a, ">>"):
			t = a[2:]
		case strings.HasPrefix(a, ">") && !strings.HasPrefix(a, ">&"):
			t = a[1:]
		}
		if t != "" && t != "/dev/null" && !strings.HasPrefix(t, "&") {
			return cleanPath(t)
		}
	}
	return ""
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

// host is the host of a URL, "" for text that is none.
func host(u string) string {
	for _, p := range []string{"https://", "http://"} {
		if rest, ok := strings.CutPrefix(u, p); ok {
			h, _, _ := strings.Cut(rest, "/")
			h, _, _ = strings.Cut(h, "?")
			if i := strings.LastIndexByte(h, '@'); i >= 0 {
				h = h[i+1:]
			}
			return strings.ToLower(h)
		}
	}
	return ""
}

// cleanPath is a file path as one intent names it: forward slashes,
// no leading "./".
func cleanPath(p string) string {
	p = strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

func scriptExt(prog string) bool {
	switch path.Ext(prog) {
	case ".sh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".ps1", ".bash":
		return true
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
