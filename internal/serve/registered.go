package serve

import (
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/registry"
)

// Registered are the desk's registered projects in the registry at path,
// the only others a server shows: an entry must name an absolute folder
// that is a directory (a registry that cannot be read lists none).
func Registered(path string) []Project {
	reg, err := registry.Read(path)
	if err != nil {
		return nil
	}
	var out []Project
	for _, e := range reg.Projects {
		if e.ID == "" || !filepath.IsAbs(e.Path) {
			continue
		}
		if st, err := os.Stat(e.Path); err != nil || !st.IsDir() {
			continue
		}
		name := e.Name
		if name == "" {
			name = filepath.Base(e.Path)
		}
		out = append(out, Project{ID: e.ID, Name: name, Root: filepath.Clean(e.Path)})
	}
	return out
}
