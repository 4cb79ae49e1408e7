package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cerebro-mem/cerebro/internal/cli"
	"github.com/cerebro-mem/cerebro/internal/factory"
)

// The user journeys in testdata/script run memhook as a person (or Claude
// Code's hooks) would: one process per command, a real project, HOME and
// the org desk in the script's own directory. The format is
// testscript's (https://pkg.go.dev/github.com/rogpeppe/go-internal/testscript).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memhook": func() { os.Exit(cli.Main(os.Args[1:], factory.OS())) },
	})
}

func TestJourneys(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			e.Setenv("HOME", home)
			e.Setenv("USERPROFILE", home)
			e.Setenv("CEREBRO_HOME", filepath.Join(home, "cerebro"))
			e.Setenv("CEREBRO_STATE_DIR", filepath.Join(e.WorkDir, "state"))
			// Claude Code's own variables from the machine running the
			// tests must not reach the journeys.
			for _, k := range []string{"CLAUDE_PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PROJECT_DIR", "CLAUDECODE"} {
				e.Setenv(k, "")
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// jsonget reads a field of a JSON file (a dotted path, list
			// indexes as numbers: items.0.id) into an environment
			// variable, so a later command can use what an earlier one
			// answered: `cp stdout a.json` then `jsonget a.json items.0.id ID`.
			"jsonget": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: jsonget file path var")
				}
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				var v any
				ts.Check(json.Unmarshal(data, &v))
				for _, k := range strings.Split(args[1], ".") {
					switch x := v.(type) {
					case map[string]any:
						v = x[k]
					case []any:
						i, err := strconv.Atoi(k)
						if err != nil || i < 0 || i >= len(x) {
							ts.Fatalf("jsonget: no item %s in %s", k, args[1])
						}
						v = x[i]
					default:
						ts.Fatalf("jsonget: %s is not in %s", args[1], args[0])
					}
				}
				s, ok := v.(string)
				if !ok {
					ts.Fatalf("jsonget: %s is %v, not a string", args[1], v)
				}
				ts.Setenv(args[2], s)
			},
			// expand rewrites $WORK in a file: hook inputs carry absolute
			// paths, which a script cannot know before it runs.
			"expand": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: expand file...")
				}
				for _, a := range args {
					p := ts.MkAbs(a)
					data, err := os.ReadFile(p)
					ts.Check(err)
					ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(string(data), "$WORK", ts.Getenv("WORK"))), 0o644))
				}
			},
		},
	})
}
