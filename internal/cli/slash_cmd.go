package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/slash"
	"github.com/cerebro-mem/cerebro/internal/text/inert"
	"github.com/spf13/cobra"
)

// newCmdSlash is how the slash commands run memhook. Claude Code pastes a
// command's $ARGUMENTS into its shell line as text, unquoted, so any `;`,
// `$(…)` or backquote in them would run in the user's shell. The commands
// therefore put $ARGUMENTS in a quoted here-document (which the shell
// never expands) and memhook splits the words itself: quotes group, a
// backslash escapes, nothing is ever expanded or run.
func newCmdSlash(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "slash [--state-dir DIR] [--text] COMMAND... < ARGUMENTS",
		Short: "Run a memhook command with the arguments of a slash command read from stdin",
		Long: `Run COMMAND... (e.g. "org ingest") with the words read from stdin appended,
split like a shell would split them (quotes group words, a backslash escapes
the next character) but never expanded: no variables, no command
substitution, no globbing. The slash commands use it so that what a person
or a model types after /org_ingest can never run in the shell.

--text passes the whole of stdin as one argument (a question, where an
apostrophe is not a quote). It always exits 0 and prints errors and the
exit status on stdout: Claude Code drops a slash command whose shell line
fails.

--state-dir is the state dir the plugin's hooks use (CLAUDE_PLUGIN_DATA,
which Claude Code substitutes into a command's text but does not export).`,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return slashRun(f, args)
		},
	}
}

// slashRun runs the command and always exits 0 with what happened on
// stdout: Claude Code drops a slash command whose shell line fails, and
// the model should see the error and its hint instead.
func slashRun(f *factory.Factory, args []string) error {
	o, err := slash.ParseArgs(args)
	if err != nil {
		return usageErr(err, "e.g. memhook slash --state-dir DIR org ingest <<'EOF'")
	}
	// An empty --state-dir is Claude Code without a plugin data dir (a
	// user-level command): the terminal's state dir applies.
	if o.StateDir != "" {
		f.UseStateDir(o.StateDir, "--state-dir (the plugin's CLAUDE_PLUGIN_DATA, given by the slash command)")
	}
	data, err := slash.Read(f.In)
	if err != nil {
		return err
	}
	words, err := slash.Words(data, o.Text, o.Command)
	if err != nil {
		return slashReport(f, err)
	}
	// What the command prints reaches the model inside the user's turn:
	// memory text in it is made inert like the inject's.
	out := f.Out
	var buf bytes.Buffer
	f.Out = &buf
	defer func() { io.WriteString(out, inert.Text(buf.String())) }()
	f.In = strings.NewReader("")
	f.Err = f.Out // one stream, in order, for the model to read
	return slashReport(f, runAgain(f, append(append([]string{}, o.Command...), words...)))
}

// slashReport prints err the way Main does, plus the exit status, on stdout.
func slashReport(f *factory.Factory, err error) error {
	if err == nil {
		return nil
	}
	w := f.Out
	if errors.As(err, new(shownError)) {
		w = io.Discard // its JSON on stdout says it already
	}
	code := printError(w, err)
	if code == 1 && errors.As(err, new(*usageError)) {
		code = 2 // as Main exits
	}
	fmt.Fprintf(f.Out, "(memhook exited with status %d)\n", code)
	return nil
}
