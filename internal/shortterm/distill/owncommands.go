package distill

import "strings"

// cerebro's own commands: housekeeping of the memory, never a request.
// The short forms are how the commands show in Claude Code's menu.
var cerebroShort = map[string]bool{
	"/recall": true, "/flush": true, "/memory_long_active": true, "/ingest": true, "/compile": true,
	"/doctor": true, "/remember": true, "/relearn": true,
}

// cerebroChanges are the commands whose outcome is worth one line: they
// change the memory (on, off, a file ingested, days compiled).
var cerebroChanges = map[string]bool{
	"memory_long_active": true, "ingest": true, "org_ingest": true, "compile": true, "org_init": true,
	"remember": true, "relearn": true, "core": true,
}

// cerebroCommand reports whether a prompt is one of cerebro's commands
// (`/cerebro:x`, a short form, a memhook call) and returns its name
// without prefix and its arguments.
func cerebroCommand(text string) (name, args string, ok bool) {
	s := strings.TrimSpace(text)
	s = strings.TrimPrefix(s, "! ")
	head, rest, _ := strings.Cut(s, " ")
	lower := strings.ToLower(head)
	switch {
	case strings.HasPrefix(lower, "/cerebro:"):
		return strings.TrimPrefix(lower, "/cerebro:"), strings.TrimSpace(rest), true
	case strings.HasPrefix(lower, "/org_"), cerebroShort[lower] && lower != "/doctor":
		return strings.TrimPrefix(lower, "/"), strings.TrimSpace(rest), true
	case isMemhook(lower):
		sub, more, _ := strings.Cut(strings.TrimSpace(rest), " ")
		return sub, strings.TrimSpace(more), true
	}
	return "", "", false
}

func isMemhook(word string) bool {
	return word == "memhook" || strings.HasSuffix(word, "/memhook")
}

// housekeeping reports whether a prompt steers the client or the memory
// rather than asks for work.
func housekeeping(text string) bool {
	s := strings.TrimSpace(text)
	if _, _, ok := cerebroCommand(s); ok {
		return true
	}
	if strings.HasPrefix(s, "/") {
		name, _, _ := strings.Cut(s, " ")
		return sessionCommands[strings.ToLower(name)]
	}
	return false
}

// deskWork reports whether a prompt is one of the desk's own commands
// (/org_*, /cerebro:org_*, memhook org …): in the desk, reviewing projects,
// filing cases and deciding about them is the operator's work, and its
// turns are kept like any request.
func deskWork(text string) bool {
	name, _, ok := cerebroCommand(text)
	return ok && (strings.HasPrefix(name, "org_") || name == "org" || name == "rollup")
}
