package cli

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A command line memhook cannot run — an unknown command or flag, a wrong
// number of arguments, a flag value out of its set or form — is a usage
// error: Main prints it on one line with a hint (a did-you-mean when a
// name is close) and exits 2, as POSIX tools do, so that a caller tells
// "you asked wrong" (2) from "it failed" (1). Each command checks its flag
// values in its options' validate step, first thing in its run function,
// before it opens or creates anything.

// usageError is a command line that cannot run.
type usageError struct{ userError }

// usageErr is err with a hint, as a usage error.
func usageErr(err error, hint string) error {
	return &usageError{userError{err: err, hint: hint}}
}

// usagef formats a usage error.
func usagef(hint, format string, args ...any) error {
	return usageErr(fmt.Errorf(format, args...), hint)
}

// nearest is the option closest to word — a prefix of it, or at most two
// edits away (a third of the word's length for long words) — or "".
func nearest(word string, options []string) string {
	w := strings.ToLower(word)
	best, bestD := "", 1<<30
	limit := max(2, len([]rune(w))/3)
	for _, o := range options {
		lo := strings.ToLower(o)
		d := editDistance(w, lo)
		if len(w) >= 2 && strings.HasPrefix(lo, w) {
			d = min(d, 1)
		}
		// A suggestion keeps some of the word: "3" is not a typo of "1".
		if d <= limit && (d < len([]rune(w)) || lo == w) && d < bestD && o != word {
			best, bestD = o, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// orList joins values as "a, b or c".
func orList(values []string) string {
	switch len(values) {
	case 0:
		return ""
	case 1:
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// checkChoice is the usage error of a flag whose value is not one of
// allowed, or nil. The hint suggests the nearest value.
func checkChoice(cmdName, flag, value string, allowed []string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	hint := "use --" + flag + " " + strings.Join(allowed, "|")
	if n := nearest(value, allowed); n != "" {
		hint = "did you mean --" + flag + " " + n + "?"
	}
	return usagef(hint, "%s: --%s %q: want %s", cmdName, flag, value, orList(allowed))
}

// checkArgChoice is checkChoice for a positional argument named what.
func checkArgChoice(cmdName, what, value string, allowed []string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	hint := "use " + strings.Join(allowed, " or ")
	if n := nearest(value, allowed); n != "" {
		hint = "did you mean " + n + "?"
	}
	return usagef(hint, "%s %q: want %s", cmdName, value, orList(allowed))
}

// parseDateFlag reads a YYYY-MM-DD flag value in the local zone.
func parseDateFlag(cmdName, flag, value string) (time.Time, error) {
	t, err := time.ParseInLocation(time.DateOnly, value, time.Local)
	if err != nil {
		return time.Time{}, usagef("for example --"+flag+" 2026-11-30", "%s: --%s %q: want a date YYYY-MM-DD", cmdName, flag, value)
	}
	return t, nil
}

var clockForm = lazyregexp.New(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// checkClockFlag checks an HH:MM flag value.
func checkClockFlag(cmdName, flag, value string) error {
	if value == "" || clockForm.MatchString(value) {
		return nil
	}
	return usagef("for example --"+flag+" 07:30", "%s: --%s %q: want a time of day HH:MM", cmdName, flag, value)
}

// checkMinFlag checks a whole-number flag against its least value.
func checkMinFlag(cmdName, flag string, value, least int) error {
	if value >= least {
		return nil
	}
	what := "a whole number from " + fmt.Sprint(least)
	switch least {
	case 0:
		what = "0 or more"
	case 1:
		what = "1 or more"
	}
	return usagef(fmt.Sprintf("for example --%s %d", flag, max(least, 5)), "%s: --%s %d: want %s", cmdName, flag, value, what)
}

// flagNames are the long names a command takes (its own and inherited),
// without the hidden ones.
func flagNames(c *cobra.Command) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f *pflag.Flag) {
		if !f.Hidden && !seen[f.Name] && f.Name != "help" {
			seen[f.Name] = true
			out = append(out, f.Name)
		}
	}
	c.LocalFlags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	sort.Strings(out)
	return out
}

// flagAlias is the flag that goes by another name people try.
func flagAlias(name string) string {
	switch name {
	case "port", "host":
		return "addr"
	case "dir":
		return "project"
	case "date", "today":
		return "now"
	}
	return ""
}

var (
	unknownFlag  = lazyregexp.New(`^unknown flag: --([^ =]+)`)
	unknownShort = lazyregexp.New(`^unknown shorthand flag: '(.)'`)
	badValue     = lazyregexp.New(`^invalid argument "(.*)" for "(?:-., )?--([^"]+)" flag: (.*)$`)
)

// flagError turns pflag's parse error into one line that names the
// command, with a did-you-mean for a near flag name, or the flags the
// command takes. On the root, an unknown flag after an unknown command is
// the command's mistake: `memhook serv --port 1` is told about `serve`.
func flagError(c *cobra.Command, err error) error {
	name := commandName(c)
	if !c.HasParent() {
		if args := c.Flags().Args(); len(args) > 0 {
			return unknownCommand(c, args[0])
		}
	}
	names := flagNames(c)
	listed := "see `" + c.CommandPath() + " --help`"
	if len(names) > 0 {
		listed = c.CommandPath() + " takes --" + strings.Join(names, ", --")
	}
	msg := err.Error()
	switch {
	case unknownFlag.MatchString(msg):
		flag := unknownFlag.FindStringSubmatch(msg)[1]
		hint := listed
		if n := nearest(flag, names); n != "" {
			hint = "did you mean --" + n + "?"
		} else if a := flagAlias(flag); a != "" && c.Flags().Lookup(a) != nil {
			usage, _, _ := strings.Cut(c.Flags().Lookup(a).Usage, " (")
			hint = "did you mean --" + a + "? (" + usage + ")"
		}
		return usagef(hint, "%s: unknown flag --%s", name, flag)
	case unknownShort.MatchString(msg):
		return usagef(listed, "%s: unknown flag -%s", name, unknownShort.FindStringSubmatch(msg)[1])
	case badValue.MatchString(msg):
		m := badValue.FindStringSubmatch(msg)
		want := "a valid value"
		if f := c.Flags().Lookup(m[2]); f != nil {
			switch f.Value.Type() {
			case "int", "int64", "uint", "int32":
				want = "a whole number"
			case "float64", "float32":
				want = "a number"
			case "bool":
				want = "true or false"
			case "duration":
				want = "a duration such as 30s or 5m"
			}
		}
		return usagef("see `"+c.CommandPath()+" --help`", "%s: --%s %q: want %s", name, m[2], m[1], want)
	}
	return usageErr(fmt.Errorf("%s: %w", name, err), "see `"+c.CommandPath()+" --help`")
}

var requiredFlag = lazyregexp.New(`^required flag\(s\) (.*) not set$`)

// requiredFlagError is cobra's error for a required flag left out (which
// no flag error hook sees) as a usage error naming the command.
func requiredFlagError(c *cobra.Command, err error) error {
	m := requiredFlag.FindStringSubmatch(err.Error())
	if m == nil || c == nil {
		return err
	}
	names := strings.ReplaceAll(strings.ReplaceAll(m[1], `"`, ""), ", ", ", --")
	return usagef("usage: "+c.UseLine(), "%s: --%s is required", commandName(c), names)
}

// unknownCommand is the usage error of a command name c does not have.
func unknownCommand(c *cobra.Command, arg string) error {
	var subs []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() || sub.Name() == "help" {
			subs = append(subs, sub.Name())
		}
	}
	hint := "see `" + c.CommandPath() + " --help`"
	if n := nearest(arg, subs); n != "" {
		hint = "did you mean `" + c.CommandPath() + " " + n + "`?"
	}
	if !c.HasParent() {
		return usageErr(fmt.Errorf("unknown command %q", arg), hint)
	}
	return usageErr(fmt.Errorf("%s: unknown command %q (one of: %s)", commandName(c), arg, strings.Join(subs, ", ")), hint)
}
