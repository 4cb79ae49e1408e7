package cli

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/spf13/cobra"
)

// fill runs a command line through the command newCmd builds, with a runF
// that only keeps the options: what the line fills, nothing run.
func fill[T any](t *testing.T, newCmd func(*factory.Factory, func(*T) error) *cobra.Command, args ...string) *T {
	t.Helper()
	var got *T
	cmd := newCmd(&factory.Factory{}, func(o *T) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%s %s: %v", cmd.Name(), strings.Join(args, " "), err)
	}
	if got == nil {
		t.Fatalf("%s %s: runF not called", cmd.Name(), strings.Join(args, " "))
	}
	return got
}

// same fails unless got's fields named in want hold want's values.
func same[T any](t *testing.T, line string, got *T, want map[string]any) {
	t.Helper()
	v := reflect.ValueOf(got).Elem()
	for name, w := range want {
		if g := v.FieldByName(name).Interface(); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s = %#v, want %#v", line, name, g, w)
		}
	}
}

// What each command line fills: positional words, defaults and flags.
func TestCommandLinesFillTheirOptions(t *testing.T) {
	same(t, "forget", fill(t, newCmdForget, "daily/2026-11-30.md#aaaa1111"),
		map[string]any{"Target": "daily/2026-11-30.md#aaaa1111", "Project": ".", "JSON": false})
	same(t, "forget --json", fill(t, newCmdForget, "wiki/X.md", "--project", "/p", "--json"),
		map[string]any{"Target": "wiki/X.md", "Project": "/p", "JSON": true})

	same(t, "search", fill(t, newCmdSearch, "two", "words"),
		map[string]any{"Query": "two words", "Project": ".", "Scope": "all", "Limit": 10, "JSON": false})
	same(t, "search flags", fill(t, newCmdSearch, "--scope", "org", "--limit", "3", "--since", "2026-11-01", "--until", "2026-11-30", "--root", "/r", "x"),
		map[string]any{"Query": "x", "Scope": "org", "Limit": 3, "Since": "2026-11-01", "Until": "2026-11-30", "Root": "/r"})

	same(t, "get", fill(t, newCmdGet, "daily/2026-11-30.md", "--from", "5", "--lines", "9"),
		map[string]any{"Path": "daily/2026-11-30.md", "From": 5, "Lines": 9, "Project": "."})

	same(t, "lessons", fill(t, newCmdLessons), map[string]any{"Action": "", "Key": ""})
	same(t, "lessons pin", fill(t, newCmdLessons, "pin", "git push", "--json"),
		map[string]any{"Action": "pin", "Key": "git push", "JSON": true})

	same(t, "night forget", fill(t, newCmdNightForget, "2026-10-01", "--project", "/p"),
		map[string]any{"Day": "2026-10-01", "Project": "/p"})

	same(t, "org query", fill(t, newCmdOrgQuery, "who", "decided", "--no-links", "--json"),
		map[string]any{"Question": "who decided", "NoLinks": true, "JSON": true})

	same(t, "recall", fill(t, newCmdRecall, "the", "budget", "--chain", "--limit", "2"),
		map[string]any{"Args": []string{"the", "budget"}, "Chain": true, "Limit": 2, "Scope": "project"})
}

// A command line that cannot run fails before runF: the seam sees only
// lines cobra accepts.
func TestARefusedLineNeverReachesRunF(t *testing.T) {
	called := false
	cmd := newCmdLessons(&factory.Factory{}, func(*LessonsOptions) error { called = true; return nil })
	cmd.SetArgs([]string{"frobnicate", "x"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err == nil || called {
		t.Fatalf("lessons frobnicate x: err %v, runF called %v", err, called)
	}
}
