// Package slash turns the words a slash command hands memhook into the
// arguments of the memhook command it runs, so that nothing a person or a
// model types after /org_ingest can run in the shell or reach an option
// the command does not let them set. Claude Code pastes a command's
// $ARGUMENTS into its shell line unquoted; the plugin's commands put them
// in a quoted here-document instead, and memhook reads them here.
//
// Use it as:
//
//	data, err := slash.Read(stdin)
//	words, err := slash.Words(data, textMode, []string{"org", "ingest"})
//	// then run memhook org ingest words...
//
// [Split] splits like a POSIX shell without any expansion; [Args] applies
// the per-command grammar. Errors carry a hint (a Hint method) for the
// person.
package slash

import (
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// MaxBytes bounds what a slash command may hand memhook on stdin: a file
// name, a question, a few flags.
const MaxBytes = 64 << 10

// Read reads the arguments a slash command put on stdin, at most
// [MaxBytes] of them.
func Read(in io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(in, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("slash: read the arguments from stdin: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("slash: the arguments exceed %d bytes", MaxBytes)
	}
	return data, nil
}

// Words makes the arguments read from stdin the words to append to
// command: with text, the whole of them is one argument (a question,
// where an apostrophe is not a quote); otherwise split by [Split] and
// checked by [Args].
func Words(data []byte, text bool, command []string) ([]string, error) {
	if text {
		// Claude Code writes an argument's "!" as "\!" (so it cannot start
		// a shell block of its own); a question wants it back.
		if t := strings.TrimSpace(strings.ReplaceAll(string(data), `\!`, "!")); t != "" {
			return []string{"--", t}, nil
		}
		return nil, nil
	}
	words, err := Split(string(data))
	if err != nil {
		return nil, hint.Wrap(fmt.Errorf("slash: %w", err), "close the quote, or escape it with a backslash")
	}
	return Args(command, words)
}

// Split splits s into words the way a POSIX shell splits a command
// line, without any expansion: blanks separate; '…' keeps everything;
// "…" keeps everything but lets \" and \\ through; outside quotes a
// backslash takes the next character literally (Claude Code writes an
// argument's "!" as "\!").
func Split(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\\':
			inWord = true
			if i+1 < len(rs) {
				i++
				if rs[i] != '\n' {
					cur.WriteRune(rs[i])
				}
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return nil, errors.New("unterminated ' in the arguments")
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && (rs[j+1] == '"' || rs[j+1] == '\\') {
					j++
				}
				cur.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, errors.New(`unterminated " in the arguments`)
			}
			i = j
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

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

// TakesOptions reports whether a person may set any option, or choose a
// sub-command, for command (its words as in the command's `!` block). A
// slash command whose memhook command takes neither, nor any argument,
// hands memhook no words at all: its block holds no $ARGUMENTS, so it
// needs no here-document.
func TakesOptions(command []string) bool {
	g := slashGrammar[grammarKey(command)]
	return len(g.flags) > 0 || len(g.subs) > 0
}

// grammarKey is command's words without its flags: the key of slashGrammar.
func grammarKey(command []string) string {
	var key []string
	for _, c := range command {
		if !strings.HasPrefix(c, "-") {
			key = append(key, c)
		}
	}
	return strings.Join(key, " ")
}

// Args turns a person's words into the arguments of the command:
// a chosen sub-command first, then the options they may set, each with its
// one value, then "--" and every other word.
func Args(command, words []string) ([]string, error) {
	name := grammarKey(command)
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
			return nil, hint.Wrap(fmt.Errorf("slash: %s is not an option of memhook %s here", w, name), slashHint(g.flags))
		}
		if kind == slashBool {
			if hasVal {
				return nil, hint.Wrap(fmt.Errorf("slash: --%s takes no value", opt), slashHint(g.flags))
			}
			flags = append(flags, "--"+opt)
			continue
		}
		if !hasVal {
			if i+1 >= len(words) {
				return nil, hint.Wrap(fmt.Errorf("slash: --%s wants a value", opt), slashHint(g.flags))
			}
			i++
			val = words[i]
		}
		if kind == slashLoopback {
			if err := loopbackAddr(val); err != nil {
				return nil, hint.Wrap(fmt.Errorf("slash: --%s %q: %w", opt, val, err), "a slash command serves on this machine only: --addr 127.0.0.1:PORT")
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

// Options are memhook slash's own options, before the command it runs.
type Options struct {
	StateDir string
	Text     bool // the whole of stdin is one argument (a question)
	Command  []string
}

// ParseArgs reads memhook slash's options, up to the first word that is
// not one: the command to run.
func ParseArgs(args []string) (Options, error) {
	var o Options
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--text":
			o.Text = true
			args = args[1:]
		case a == "--state-dir" && len(args) > 1:
			o.StateDir, args = args[1], args[2:]
		case strings.HasPrefix(a, "--state-dir="):
			o.StateDir, args = strings.TrimPrefix(a, "--state-dir="), args[1:]
		case strings.HasPrefix(a, "-"):
			return o, fmt.Errorf("slash: unknown option %q before the command", a)
		default:
			o.Command = args
			return o, nil
		}
	}
	return o, errors.New("slash: name the memhook command to run")
}
