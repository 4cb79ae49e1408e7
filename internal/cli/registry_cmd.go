package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/spf13/cobra"
)

// RegistryOptions are the inputs of `memhook registry ...`.
type RegistryOptions struct {
	Out, Err    io.Writer
	Now         func() time.Time
	ProjectRoot func(dir string) (string, error)
	Paths       config.Paths
	Action      string // list, add, remove, repair
	Target      string // add: a directory; remove: an id or a path
	Name        string // add: display name (default: the folder's name)
	JSON        bool
}

func registryOptions(f *factory.Factory) *RegistryOptions {
	return &RegistryOptions{Out: f.Out, Err: f.Err, Now: f.Now, ProjectRoot: f.ProjectRoot, Paths: f.Paths}
}

func newCmdRegistry(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "List, add and remove the projects the org rollup reads",
		Long: `The registry (registry.json in the desk's .claude/memory_short/) lists the
projects whose long-term memory is active; the rollup reads exactly these.
Switching long-term memory on registers a project; these commands do it by hand.`,
	}
	opts := registryOptions(f)
	return addVerbs(cmd, []verb{
		{"list", "List the registered projects and any invalid entries", nil},
		{"add <dir>", "Register the project holding <dir>", cobra.ExactArgs(1)},
		{"remove <id|path>", "Unregister a project (its files are not touched)", cobra.ExactArgs(1)},
		{"repair", "Move a corrupt registry aside to a backup and start a new one", nil},
	}, func(c *cobra.Command, name string) {
		c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		if name == "add" {
			c.Flags().StringVar(&opts.Name, "name", "", "display name (default: the project folder's name)")
		}
	}, func(name string, args []string) error {
		opts.Action = name
		if len(args) > 0 {
			opts.Target = args[0]
		}
		return registryRun(opts)
	})
}

// newCmdRegister is `memhook register [dir]`: `registry add` for the
// project a person works in, the act that admits a project to the desk
// (a clone carrying .claude/memory_long/ is not admitted by its files).
func newCmdRegister(f *factory.Factory, runF func(*RegistryOptions) error) *cobra.Command {
	opts := registryOptions(f)
	opts.Action, opts.Target = "add", "."
	cmd := &cobra.Command{
		Use:   "register [dir]",
		Short: "Admit the project holding dir (default: the current one) to the desk",
		Long: `register adds the project holding dir (default: the current folder) to the
desk's registry, as "registry add" does: the rollup, the dashboard, search across
projects (--scope projects) and recall across projects read the projects listed
there. A project is listed only by your act (this command, "long on" or
/memory_long_active on), never because a clone carries .claude/memory_long/.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Target = args[0]
			}
			return runWith(runF, registryRun, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "display name (default: the project folder's name)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func registryRun(opts *RegistryOptions) error {
	path := opts.Paths.Registry()
	switch opts.Action {
	case "list":
		l, err := registry.List(path)
		if err != nil {
			return hint.Match(err, registryHints...)
		}
		return printResult(opts.Out, opts.JSON, l, func(w io.Writer) { l.WriteText(w, opts.Err) })
	case "add":
		a, err := registry.Add(path, opts.Target, opts.Name, opts.Paths.Home, opts.ProjectRoot, opts.Now())
		if err != nil {
			return hint.Match(err, registryHints...)
		}
		return registryReport(opts, map[string]any{"action": "add", "project": a.Project, "registry": path}, a.Message())
	case "remove":
		target, err := registry.Unregister(path, opts.Target)
		if err != nil {
			return hint.Match(err, registryHints...)
		}
		return registryReport(opts, map[string]any{"action": "remove", "removed": target, "registry": path},
			fmt.Sprintf("unregistered %s (its files are untouched)", target))
	case "repair":
		backup, err := registry.Repair(path, opts.Now())
		if err != nil {
			return hint.Wrap(err, "only a registry that does not parse needs repair; see `memhook registry list`")
		}
		return registryReport(opts, map[string]any{"action": "repair", "backup": backup, "registry": path},
			fmt.Sprintf("moved the corrupt registry to %s; a new one starts empty (re-add projects with `memhook registry add`)", backup))
	}
	return fmt.Errorf("registry: unknown action %q", opts.Action)
}

// registryHints say what the person can do about a registry error.
var registryHints = []hint.On{
	{Err: registry.ErrCorrupt, Hint: factory.RepairHint},
	{Err: registry.ErrNotDir, Hint: "pass the folder of a project"},
	{Err: registry.ErrDesk, Hint: "the desk keeps its own memory; register the projects it oversees"},
	{Err: registry.ErrNotRegistered, Hint: "see the ids with `memhook registry list`"},
}

func registryReport(opts *RegistryOptions, v map[string]any, text string) error {
	return printResult(opts.Out, opts.JSON, v, func(w io.Writer) { fmt.Fprintln(w, text) })
}
