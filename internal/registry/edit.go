package registry

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// Listing is the registry as `memhook registry list` shows it.
type Listing struct {
	Problems []Problem `json:"problems"` // never nil: JSON shows []
	Projects []Project `json:"projects"`
	Registry string    `json:"registry"`
}

// List reads the registry at path with the problems of its entries.
func List(path string) (Listing, error) {
	f, err := Read(path)
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Problems: f.Validate(), Projects: f.Projects, Registry: path}
	if l.Problems == nil {
		l.Problems = []Problem{}
	}
	return l, nil
}

// WriteText prints the projects as a table on w and each problem as a
// warning on warn.
func (l Listing) WriteText(w, warn io.Writer) {
	if len(l.Projects) == 0 {
		fmt.Fprintf(w, "no projects registered in %s\n", l.Registry)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPATH\tLAST SEEN")
	for _, p := range l.Projects {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Path, p.LastSeen)
	}
	tw.Flush()
	for _, p := range l.Problems {
		fmt.Fprintf(warn, "memhook: warning: entry %d (%s): %s\n", p.Index+1, p.ID, p.Message)
	}
}

// ErrNotDir and ErrDesk are why [Add] refuses a directory.
var (
	ErrNotDir = errors.New("not an existing directory")
	ErrDesk   = errors.New("this is the org desk itself, not a project")
)

// Added is what [Add] registered.
type Added struct {
	Project Project `json:"project"`
	Dir     string  `json:"-"` // the directory given, made absolute
}

// Message says what was registered, for a person.
func (a Added) Message() string {
	msg := fmt.Sprintf("registered %s as %s (%s)", a.Project.Path, a.Project.ID, a.Project.Name)
	if a.Project.Path != a.Dir {
		msg += fmt.Sprintf("; %s belongs to that project", a.Dir)
	}
	return msg
}

// Add registers the project holding dir in the registry at path, named
// name (default its folder's name). root maps a directory to its project
// root; desk is the org desk, which is never registered.
func Add(path, dir, name, desk string, root func(string) (string, error), now time.Time) (Added, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Added{}, fmt.Errorf("resolve %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return Added{}, fmt.Errorf("add %s: %w", abs, ErrNotDir)
	}
	r, err := root(abs)
	if err != nil {
		return Added{}, err
	}
	if d, err := filepath.EvalSymlinks(desk); err == nil && d == r || r == filepath.Clean(desk) {
		return Added{}, fmt.Errorf("add %s: %w", r, ErrDesk)
	}
	if _, err := Read(path); err != nil {
		return Added{}, err
	}
	if name == "" {
		name = filepath.Base(r)
	}
	p := Project{ID: project.ID(r), Name: name, Path: r}
	if err := Touch(path, p, now); err != nil {
		return Added{}, fmt.Errorf("register %s: %w", r, err)
	}
	return Added{Project: p, Dir: abs}, nil
}

// ErrNotRegistered means [Unregister] found no such project.
var ErrNotRegistered = errors.New("no such project")

// Unregister removes the project target names — an id, a path, or a
// relative path of a registered project — from the registry at path and
// returns the id or path it removed. Its files are not touched.
func Unregister(path, target string) (string, error) {
	f, err := Read(path)
	if err != nil {
		return "", err
	}
	name := target
	if f.Find(name) == nil {
		if abs, err := filepath.Abs(target); err == nil && f.Find(abs) != nil {
			name = abs
		}
	}
	found, err := Remove(path, name)
	if err != nil {
		return "", fmt.Errorf("unregister %s: %w", name, err)
	}
	if !found {
		return "", fmt.Errorf("unregister %s: %w in %s", target, ErrNotRegistered, path)
	}
	return name, nil
}

// Roots are the registered projects' folders, in the registry's order.
func (f *File) Roots() []string {
	var roots []string
	for _, p := range f.Projects {
		roots = append(roots, p.Path)
	}
	return roots
}
