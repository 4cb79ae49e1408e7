package cli

import (
	"encoding/json"
	"io"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/recall/projectbox"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// boxProject is the project of dir as its black box opens it
// (internal/recall/projectbox).
func (f *Factory) boxProject(dir string) (projectbox.Project, error) {
	root, err := f.projectRoot(dir)
	if err != nil {
		return projectbox.Project{}, err
	}
	eff := f.Config(root)
	return projectbox.Project{
		Root: root, Config: eff, StateDir: f.Paths.State, IndexDir: f.Paths.Indexes(),
		Search: search.MemorySetup{Project: root, Config: eff, IndexDir: f.Paths.Indexes(), Desk: f.Paths.Home, Registry: f.Paths.Registry(), Getenv: f.Getenv},
		Getenv: f.Getenv, Environ: f.Environ, Now: f.Now, Executable: f.Executable,
	}, nil
}

// openBox opens the black box of dir's project behind the verbs.
func (f *Factory) openBox(dir string) (*blackbox.Box, func(), error) {
	p, err := f.boxProject(dir)
	if err != nil {
		return nil, nil, err
	}
	return projectbox.Open(p)
}

// printObject writes the answer object; on failure the object carries the
// error, so a calling model always reads one JSON object.
func printObject(w io.Writer, v any, err error) error {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(v); encErr != nil && err == nil {
		return encErr
	}
	return err
}

// printPartial is printObject for a verb that may have done part of its
// work: an answer that came with an error is printed as it is (its error
// field says what failed), and the error still ends the command.
func printPartial(w io.Writer, v any, err error) error {
	if err != nil && v != nil {
		printObject(w, v, nil)
		return err
	}
	return printObject(w, v, err)
}
