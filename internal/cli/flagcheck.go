package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/suggest"
)

// A command line memhook cannot run — an unknown command or flag, a wrong
// number of arguments, a flag value out of its set or form — is a usage
// error: Main prints it on one line with a hint (a did-you-mean when a
// name is close) and exits 2, as POSIX tools do, so that a caller tells
// "you asked wrong" (2) from "it failed" (1). Each command checks its flag
// values in its options' validate step, first thing in its run function,
// before it opens or creates anything.

// usageError is a command line that cannot run; its error carries the
// hint.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usageErr is err with a hint, as a usage error.
func usageErr(err error, h string) error {
	return &usageError{hint.Wrap(err, h)}
}

// usagef formats a usage error.
func usagef(h, format string, args ...any) error {
	return usageErr(fmt.Errorf(format, args...), h)
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
	if n := suggest.Nearest(value, allowed); n != "" {
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
	if n := suggest.Nearest(value, allowed); n != "" {
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

// checkScopeFlag checks --scope (unused with --root) before any index is
// opened.
func checkScopeFlag(cmdName, root, scope string) error {
	if root != "" {
		return nil
	}
	scopes := []string{string(search.ScopeProject), string(search.ScopeOrg), string(search.ScopeAll)}
	if cmdName == "search" {
		// Only a search reaches the desk's other projects; their indexes
		// are theirs to bring up to date.
		scopes = append(scopes, string(search.ScopeProjects), string(search.ScopeEverything))
	}
	return checkChoice(cmdName, "scope", scope, scopes)
}
