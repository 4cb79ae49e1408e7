package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

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
	// The root's errors are printed after "memhook: error: " already.
	prefix := name + ": "
	if !c.HasParent() {
		prefix = ""
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
		if n := suggest.Nearest(flag, names); n != "" {
			hint = "did you mean --" + n + "?"
		} else if a := flagAlias(flag); a != "" && c.Flags().Lookup(a) != nil {
			usage, _, _ := strings.Cut(c.Flags().Lookup(a).Usage, " (")
			hint = "did you mean --" + a + "? (" + usage + ")"
		}
		return usagef(hint, "%sunknown flag --%s", prefix, flag)
	case unknownShort.MatchString(msg):
		return usagef(listed, "%sunknown flag -%s", prefix, unknownShort.FindStringSubmatch(msg)[1])
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
		return usagef("see `"+c.CommandPath()+" --help`", "%s--%s %q: want %s", prefix, m[2], m[1], want)
	}
	return usageErr(fmt.Errorf("%s%w", prefix, err), "see `"+c.CommandPath()+" --help`")
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
	if n := suggest.Nearest(arg, subs); n != "" {
		hint = "did you mean `" + c.CommandPath() + " " + n + "`?"
	}
	if !c.HasParent() {
		return usageErr(fmt.Errorf("unknown command %q", arg), hint)
	}
	return usageErr(fmt.Errorf("%s: unknown command %q (one of: %s)", commandName(c), arg, strings.Join(subs, ", ")), hint)
}

var (
	unknownFlag  = lazyregexp.New(`^unknown flag: --([^ =]+)`)
	unknownShort = lazyregexp.New(`^unknown shorthand flag: '(.)'`)
	badValue     = lazyregexp.New(`^invalid argument "(.*)" for "(?:-., )?--([^"]+)" flag: (.*)$`)
)
