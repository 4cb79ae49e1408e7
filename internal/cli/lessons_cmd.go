package cli

import (
	"io"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
	"github.com/spf13/cobra"
)

// LessonsOptions are the inputs of `memhook lessons`.
type LessonsOptions struct {
	Out         io.Writer
	ProjectRoot func(dir string) (string, error)
	Config      func(root string) *config.Effective
	State       string
	Project     string
	JSON        bool
	Action      string // "", pin, unpin, rm
	Key         string
}

func newCmdLessons(f *factory.Factory, runF func(*LessonsOptions) error) *cobra.Command {
	opts := &LessonsOptions{Out: f.Out, ProjectRoot: f.ProjectRoot, Config: f.Config, State: f.Paths.State}
	cmd := &cobra.Command{
		Use:   "lessons [pin|unpin|rm KEY]",
		Short: "List what the project's sessions learnt about their tool calls, with what each reminder did; pin, unpin or remove one",
		Long: `The lessons are .claude/memory_short/lessons.md, one a line: a call that
failed and the form that worked, a failure with no fix known, a call
refused. Before a tool call of the same form the hook reminds the model of
it in one cited line (docs/lessons.md). With no argument this lists them
with their record: how often each was reminded, heeded, repeated anyway;
a lesson never heeded in lessons.retire_after reminders, or whose fix
failed, is retired. "pin KEY" keeps a lesson from being replaced or
retired, "unpin KEY" undoes it, "rm KEY" removes it. The file is yours to
edit by hand as well. Enforcing a lesson (deny or ask) is a setting of
yours only: lessons.enforce in your config.toml.`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				if len(args) != 2 || args[0] != "pin" && args[0] != "unpin" && args[0] != "rm" {
					return usagef("memhook lessons lists the keys; quote a key of several words: memhook lessons pin \"git push\"",
						"lessons: want no argument, or pin|unpin|rm KEY, got %q", strings.Join(args, " "))
				}
				opts.Action, opts.Key = args[0], args[1]
			}
			return runWith(runF, lessonsRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func lessonsRun(opts *LessonsOptions) error {
	root, err := opts.ProjectRoot(opts.Project)
	if err != nil {
		return err
	}
	if opts.Action != "" {
		if err := lessons.Edit(root, opts.Key, opts.Action); err != nil {
			return err
		}
	}
	cfg := opts.Config(root)
	l, err := lessons.List(root, lessons.RecordFor(opts.State, project.ID(root)), cfg.Lessons.RetireAfter, cfg.Lessons.Enforce)
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, l, l.WriteText)
}
