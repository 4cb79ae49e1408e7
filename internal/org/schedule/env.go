package schedule

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// envKeys are passed to scheduler commands; nothing else of the
// environment is, and the PATH among them is the one commands are found on.
var envKeys = []string{"PATH", "HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
	"XDG_CONFIG_HOME", "LANG", "TMPDIR", "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "TEMP", "TMP"}

// NewExecutor is the executor of scheduler commands, with the part of
// the environment getenv gives that they may see.
func NewExecutor(getenv func(string) string) *Executor {
	ex := &Executor{}
	for _, k := range envKeys {
		if v := getenv(k); v != "" {
			ex.Env = append(ex.Env, k+"="+v)
		}
	}
	return ex
}

// ErrNoHome means neither HOME nor USERPROFILE names a home folder.
var ErrNoHome = errors.New("no home folder (HOME is not set)")

// UserTarget is the user's home and config folder, where every backend's
// entry lives.
func UserTarget(getenv func(string) string) (Target, error) {
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return Target{}, ErrNoHome
	}
	configHome := getenv("XDG_CONFIG_HOME")
	if configHome == "" {
		configHome = filepath.Join(home, ".config")
	}
	return Target{Home: home, ConfigHome: configHome}, nil
}

// WriteStatuses prints what each backend has installed, for a person.
func WriteStatuses(w io.Writer, sts []Status) {
	for _, st := range sts {
		if !st.Installed {
			fmt.Fprintf(w, "not installed (scheduler: %s)\n", st.Backend)
			if st.Detail != "" {
				fmt.Fprintf(w, "  %s\n", st.Detail)
			}
			continue
		}
		when := st.When
		if when == "" {
			when = "an unreadable time"
		}
		fmt.Fprintf(w, "installed: %s, daily at %s\n  %s\n", st.Backend, when, st.Where)
		if st.Detail != "" {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(st.Detail, "\n", "\n  "))
		}
	}
}
