package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/cerebro-mem/cerebro/internal/org/registry"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/spf13/cobra"
)

// RegistryOptions are the inputs of `memhook registry ...`.
type RegistryOptions struct {
	*Factory
	Action string // list, add, remove, repair
	Target string // add: a directory; remove: an id or a path
	Name   string // add: display name (default: the folder's name)
	JSON   bool
}

const repairHint = "run `memhook registry repair`: it moves the broken file aside to registry.json.corrupt-<time> and starts a new one"

func newCmdRegistry(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "List, add and remove the projects the org rollup reads",
		Long: `The registry (registry.json in the desk's .claude/memory_short/) lists the
projects whose long-term memory is active; the rollup reads exactly these.
Switching long-term memory on registers a project; these commands do it by hand.`,
	}
	sub := func(action, use, short string, args cobra.PositionalArgs, flags func(*cobra.Command, *RegistryOptions)) *cobra.Command {
		opts := &RegistryOptions{Factory: f, Action: action}
		c := &cobra.Command{
			Use: use, Short: short, Args: args,
			RunE: func(cmd *cobra.Command, a []string) error {
				if len(a) > 0 {
					opts.Target = a[0]
				}
				return registryRun(opts)
			},
		}
		c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		if flags != nil {
			flags(c, opts)
		}
		return c
	}
	cmd.AddCommand(
		sub("list", "list", "List the registered projects and any invalid entries", cobra.NoArgs, nil),
		sub("add", "add <dir>", "Register the project holding <dir>", cobra.ExactArgs(1), func(c *cobra.Command, o *RegistryOptions) {
			c.Flags().StringVar(&o.Name, "name", "", "display name (default: the project folder's name)")
		}),
		sub("remove", "remove <id|path>", "Unregister a project (its files are not touched)", cobra.ExactArgs(1), nil),
		sub("repair", "repair", "Move a corrupt registry aside to a backup and start a new one", cobra.NoArgs, nil),
	)
	return cmd
}

func registryRun(opts *RegistryOptions) error {
	path := opts.Paths.Registry()
	switch opts.Action {
	case "list":
		return registryList(opts, path)
	case "add":
		return registryAdd(opts, path)
	case "remove":
		return registryRemove(opts, path)
	case "repair":
		backup, err := registry.Repair(path, opts.Now())
		if err != nil {
			return withHint(err, "only a registry that does not parse needs repair; see `memhook registry list`")
		}
		return registryReport(opts, map[string]any{"action": "repair", "backup": backup, "registry": path},
			fmt.Sprintf("moved the corrupt registry to %s; a new one starts empty (re-add projects with `memhook registry add`)", backup))
	}
	return fmt.Errorf("registry: unknown action %q", opts.Action)
}

func readRegistry(path string) (*registry.File, error) {
	f, err := registry.Read(path)
	if errors.Is(err, registry.ErrCorrupt) {
		return nil, withHint(err, repairHint)
	}
	return f, err
}

func registryList(opts *RegistryOptions, path string) error {
	f, err := readRegistry(path)
	if err != nil {
		return err
	}
	probs := f.Validate()
	if opts.JSON {
		return writeDeskJSON(opts.Out, map[string]any{"registry": path, "projects": f.Projects, "problems": nonNilProblems(probs)})
	}
	if len(f.Projects) == 0 {
		fmt.Fprintf(opts.Out, "no projects registered in %s\n", path)
		return nil
	}
	tw := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPATH\tLAST SEEN")
	for _, p := range f.Projects {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Path, p.LastSeen)
	}
	tw.Flush()
	for _, p := range probs {
		fmt.Fprintf(opts.Err, "memhook: warning: entry %d (%s): %s\n", p.Index+1, p.ID, p.Message)
	}
	return nil
}

func registryAdd(opts *RegistryOptions, path string) error {
	abs, err := filepath.Abs(opts.Target)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", opts.Target, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return withHint(fmt.Errorf("add %s: not an existing directory", abs), "pass the folder of a project")
	}
	root, err := opts.projectRoot(abs)
	if err != nil {
		return err
	}
	if desk, err := filepath.EvalSymlinks(opts.Paths.Home); err == nil && desk == root || root == filepath.Clean(opts.Paths.Home) {
		return withHint(fmt.Errorf("add %s: this is the org desk itself, not a project", root), "the desk keeps its own memory; register the projects it oversees")
	}
	if _, err := readRegistry(path); err != nil {
		return err
	}
	name := opts.Name
	if name == "" {
		name = filepath.Base(root)
	}
	p := registry.Project{ID: project.ID(root), Name: name, Path: root}
	if err := registry.Touch(path, p, opts.Now()); err != nil {
		return fmt.Errorf("register %s: %w", root, err)
	}
	msg := fmt.Sprintf("registered %s as %s (%s)", root, p.ID, name)
	if root != abs {
		msg += fmt.Sprintf("; %s belongs to that project", abs)
	}
	return registryReport(opts, map[string]any{"action": "add", "project": p, "registry": path}, msg)
}

func registryRemove(opts *RegistryOptions, path string) error {
	f, err := readRegistry(path)
	if err != nil {
		return err
	}
	target := opts.Target
	if f.Find(target) == nil {
		if abs, err := filepath.Abs(target); err == nil && f.Find(abs) != nil {
			target = abs
		}
	}
	found, err := registry.Remove(path, target)
	if err != nil {
		return fmt.Errorf("unregister %s: %w", target, err)
	}
	if !found {
		return withHint(fmt.Errorf("unregister %s: no such project in %s", opts.Target, path), "see the ids with `memhook registry list`")
	}
	return registryReport(opts, map[string]any{"action": "remove", "removed": target, "registry": path},
		fmt.Sprintf("unregistered %s (its files are untouched)", target))
}

func registryReport(opts *RegistryOptions, v map[string]any, text string) error {
	if opts.JSON {
		return writeDeskJSON(opts.Out, v)
	}
	fmt.Fprintln(opts.Out, text)
	return nil
}

func writeDeskJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func nonNilProblems(s []registry.Problem) []registry.Problem {
	if s == nil {
		return []registry.Problem{}
	}
	return s
}
