package intent

import (
	"sync"
)

// The programs and words the intents are read by.

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

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
