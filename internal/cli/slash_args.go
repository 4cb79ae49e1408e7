package cli

import (
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"
)

// slashFlag is how a slash command's user may set one option.
type slashFlag int

const (
	slashBool     slashFlag = iota // --name, no value
	slashValue                     // --name VALUE or --name=VALUE: one word, never a flag
	slashLoopback                  // a slashValue that must be a loopback host:port
)

// slashGrammar is what a person's words may be for the memhook command a
// slash command runs (keyed by its words without flags, as in the
// command's `!` block): the options they may set, and the sub-commands
// the first word may choose. Every other word is an argument, passed after
// "--": `/cerebro:ingest --project OTHER file` cannot write into another
// project, and `/cerebro:serve --addr 0.0.0.0:0` cannot bind every
// interface (a slash command may be invoked by the model with words taken
// from a file it read). A command missing here takes no option at all.
var slashGrammar = map[string]struct {
	flags map[string]slashFlag
	subs  []string
}{
	"org ingest": {flags: map[string]slashFlag{"case": slashValue, "redact": slashBool}},
	"rollup":     {flags: map[string]slashFlag{"with-git": slashBool, "now": slashValue}},
	"serve":      {flags: map[string]slashFlag{"addr": slashLoopback}},
	"flush":      {flags: map[string]slashFlag{"pending": slashBool}},
	"long":       {subs: []string{"on", "off", "status"}, flags: map[string]slashFlag{"json": slashBool}},
}

// slashArgs turns a person's words into the arguments of the command:
// a chosen sub-command first, then the options they may set, each with its
// one value, then "--" and every other word.
func slashArgs(command, words []string) ([]string, error) {
	var key []string
	for _, c := range command {
		if !strings.HasPrefix(c, "-") {
			key = append(key, c)
		}
	}
	name := strings.Join(key, " ")
	g := slashGrammar[name]
	var head, flags, rest []string
	if len(words) > 0 && slices.Contains(g.subs, words[0]) {
		head, words = words[:1], words[1:]
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			rest = append(rest, words[i+1:]...)
			break
		}
		if !isFlagWord(w) {
			rest = append(rest, w)
			continue
		}
		opt, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
		kind, ok := g.flags[opt]
		if !ok || !strings.HasPrefix(w, "--") {
			return nil, withHint(fmt.Errorf("slash: %s is not an option of memhook %s here", w, name), slashHint(g.flags))
		}
		if kind == slashBool {
			if hasVal {
				return nil, withHint(fmt.Errorf("slash: --%s takes no value", opt), slashHint(g.flags))
			}
			flags = append(flags, "--"+opt)
			continue
		}
		if !hasVal {
			if i+1 >= len(words) {
				return nil, withHint(fmt.Errorf("slash: --%s wants a value", opt), slashHint(g.flags))
			}
			i++
			val = words[i]
		}
		if kind == slashLoopback {
			if err := loopbackAddr(val); err != nil {
				return nil, withHint(fmt.Errorf("slash: --%s %q: %w", opt, val, err), "a slash command serves on this machine only: --addr 127.0.0.1:PORT")
			}
		}
		flags = append(flags, "--"+opt+"="+val) // one word, whatever it starts with
	}
	out := append(append(head, flags...), "--")
	return append(out, rest...), nil
}

// isFlagWord reports whether w would be read as an option: "-" then a
// letter or another "-" ("-1" and "-" stay arguments).
func isFlagWord(w string) bool {
	return len(w) > 1 && w[0] == '-' && (w[1] == '-' || w[1] >= 'a' && w[1] <= 'z' || w[1] >= 'A' && w[1] <= 'Z')
}

func slashHint(flags map[string]slashFlag) string {
	if len(flags) == 0 {
		return "this command takes no options; a file whose name starts with - is written ./-name"
	}
	var names []string
	for n := range flags {
		names = append(names, "--"+n)
	}
	sort.Strings(names)
	return "the options here are " + strings.Join(names, ", ") + "; a file whose name starts with - is written ./-name"
}

// loopbackAddr accepts host:port with a loopback host (127.0.0.0/8, ::1,
// localhost) and a numeric port.
func loopbackAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port")
	}
	if _, err := fmt.Sscanf(port, "%d", new(int)); err != nil || strings.Trim(port, "0123456789") != "" {
		return fmt.Errorf("the port %q is not a number", port)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s is not a loopback address", host)
}
