package cli

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"
)

// printResult is every command's one printer: v as JSON with --json,
// else the text that text writes for a person.
func printResult(w io.Writer, asJSON bool, v any, text func(io.Writer)) error {
	if asJSON {
		return writeJSON(w, v)
	}
	text(w)
	return nil
}

// writeJSON is every command's one JSON encoding: v indented, its text as
// it is (no HTML escaping: "<" in a note stays "<").
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// runWith is the runF seam of a command constructor (cli/cli's): a test
// passes runF to get the options its command line filled, without running
// anything; nil (every command memhook builds) calls the run function.
func runWith[T any](runF, run func(*T) error, opts *T) error {
	if runF != nil {
		return runF(opts)
	}
	return run(opts)
}

// exitIf ends a checker's command with exit 1 when failed, once its
// findings are printed (err is the printing's): a lint or a sync reports
// everything it found and still fails a script that runs it.
func exitIf(err error, failed bool) error {
	if err == nil && failed {
		return &exitError{code: 1}
	}
	return err
}

// addWithProject adds subs to parent, each with --project bound to dir:
// the sub-commands of one long-term family share one options value.
func addWithProject(parent *cobra.Command, dir *string, subs ...*cobra.Command) {
	for _, c := range subs {
		c.Flags().StringVar(dir, "project", ".", "a directory inside the project")
		parent.AddCommand(c)
	}
}

// printObject writes the answer object; on failure the object carries the
// error, so a calling model always reads one JSON object.
func printObject(w io.Writer, v any, err error) error {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	if encErr := writeJSON(w, v); encErr != nil && err == nil {
		return encErr
	}
	if err != nil {
		return shownError{err}
	}
	return nil
}

// shownError is an error a command has printed already, as the "error"
// of its JSON on stdout. Main still says it on stderr (a separate
// stream); a slash command, whose one stream is stdout, does not say it
// twice.
type shownError struct{ error }

func (e shownError) Unwrap() error { return e.error }

// printPartial is printObject for a verb that may have done part of its
// work: an answer that came with an error is printed as it is (its error
// field says what failed), and the error still ends the command.
func printPartial(w io.Writer, v any, err error) error {
	if err != nil && v != nil {
		writeJSON(w, v)
		return err
	}
	return printObject(w, v, err)
}

// action is a sub-command that takes no arguments and only selects what
// its parent's run function does.
type action struct{ name, short string }

// actionCommands makes one sub-command per action, each with the --project
// flag bound to dir; running one calls run with the action's name.
func actionCommands(actions []action, dir *string, run func(action string) error) []*cobra.Command {
	cmds := make([]*cobra.Command, 0, len(actions))
	for _, a := range actions {
		name := a.name
		cmds = append(cmds, &cobra.Command{
			Use: name, Short: a.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error { return run(name) },
		})
		cmds[len(cmds)-1].Flags().StringVar(dir, "project", ".", "a directory inside the project")
	}
	return cmds
}
