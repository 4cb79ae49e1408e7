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
	"slices"
	"strings"
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
			if len(rest) == 0 || !slices.Contains(vs, rest[0]) {
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
