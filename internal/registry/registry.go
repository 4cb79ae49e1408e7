// Package registry keeps the org desk's list of projects whose long-term
// memory is active: registry.json in the desk's private short-term folder.
// A project is added only by a person's act — `memhook long on`,
// `memhook register`, `registry add`, or their own trust_project_config
// naming it — never because its files say so (a clone may carry
// .claude/memory_long/); SessionStart touches the projects listed, `long
// off` removes one, and the rollup, the dashboard and the searches across
// projects read the list.
//
// Every change is a locked read-modify-write with an atomic replace. A
// registry that does not parse is never overwritten: it is reported as
// [ErrCorrupt], and [Repair] moves it aside to a timestamped backup first.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Project is one registered project.
type Project struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Path       string `json:"path"`
	Registered string `json:"registered"` // RFC 3339
	LastSeen   string `json:"last_seen"`  // RFC 3339
}

// File is the registry as stored.
type File struct {
	Projects []Project `json:"projects"`
}

// ErrCorrupt marks a registry file that cannot be read as a registry.
var ErrCorrupt = errors.New("registry is corrupt")

// Problem is one invalid entry of an otherwise readable registry.
type Problem struct {
	Index   int    `json:"index"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// Read loads the registry at path; a missing file is an empty registry.
func Read(path string) (*File, error) {
	data, err := safefs.ReadNote(path, safefs.DefaultNoteBytes) // cerebro's own file, not a repository's
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Projects: []Project{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read registry %s: %w", path, err)
	}
	var f File
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("read registry %s: %w: %w", path, ErrCorrupt, err)
	}
	if f.Projects == nil {
		f.Projects = []Project{}
	}
	return &f, nil
}

// Validate lists entries that break the format: missing id or path, a
// relative path, a bad date, a duplicate id or path.
func (f *File) Validate() []Problem {
	var out []Problem
	ids, paths := map[string]bool{}, map[string]bool{}
	for i, p := range f.Projects {
		bad := func(msg string) { out = append(out, Problem{Index: i, ID: p.ID, Message: msg}) }
		if p.ID == "" {
			bad("no id")
		}
		if p.Path == "" {
			bad("no path")
		} else if !filepath.IsAbs(p.Path) {
			bad(fmt.Sprintf("path %q is not absolute", p.Path))
		}
		for field, v := range map[string]string{"registered": p.Registered, "last_seen": p.LastSeen} {
			if v != "" {
				if _, err := time.Parse(time.RFC3339, v); err != nil {
					bad(fmt.Sprintf("%s %q is not an RFC 3339 time", field, v))
				}
			}
		}
		if p.ID != "" && ids[p.ID] {
			bad("duplicate id")
		}
		if p.Path != "" && paths[p.Path] {
			bad("duplicate path")
		}
		ids[p.ID], paths[p.Path] = true, true
	}
	return out
}

// Find returns the entry with the given id or path.
func (f *File) Find(idOrPath string) *Project {
	for i := range f.Projects {
		if f.Projects[i].ID == idOrPath || f.Projects[i].Path == idOrPath {
			return &f.Projects[i]
		}
	}
	return nil
}

// Update runs fn on the registry under its lock and writes the result
// atomically. A corrupt registry stops it with [ErrCorrupt]: nothing is
// written over a file a person may still want to recover.
func Update(path string, fn func(*File) error) error {
	return atomicfile.WithLock(path, func() error {
		f, err := Read(path)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			return err
		}
		sort.SliceStable(f.Projects, func(i, j int) bool { return f.Projects[i].ID < f.Projects[j].ID })
		data, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			return fmt.Errorf("encode registry: %w", err)
		}
		return atomicfile.Write(path, append(data, '\n'), 0o644)
	})
}

// Touch registers the project (id, name, path) or, when it is there,
// updates its last-seen time.
func Touch(path string, p Project, now time.Time) error {
	ts := now.UTC().Format(time.RFC3339)
	return Update(path, func(f *File) error {
		for i := range f.Projects {
			if f.Projects[i].ID == p.ID || f.Projects[i].Path == p.Path {
				f.Projects[i].LastSeen = ts
				f.Projects[i].Path = p.Path
				if f.Projects[i].Registered == "" {
					f.Projects[i].Registered = ts
				}
				return nil
			}
		}
		p.Registered, p.LastSeen = ts, ts
		f.Projects = append(f.Projects, p)
		return nil
	})
}

// Seen updates the last-seen time of the project when it is registered
// (by id or path) and reports whether it is; a project that is not
// registered is left out, and the registry is not written.
func Seen(path string, p Project, now time.Time) (bool, error) {
	f, err := Read(path)
	if err != nil {
		return false, err
	}
	if f.Find(p.ID) == nil && f.Find(p.Path) == nil {
		return false, nil
	}
	return true, Touch(path, p, now)
}

// Remove drops the entry with the given id or path; it reports whether one
// was there.
func Remove(path, idOrPath string) (bool, error) {
	found := false
	err := Update(path, func(f *File) error {
		kept := f.Projects[:0]
		for _, p := range f.Projects {
			if p.ID == idOrPath || p.Path == idOrPath {
				found = true
				continue
			}
			kept = append(kept, p)
		}
		f.Projects = kept
		return nil
	})
	return found, err
}

// Repair moves a corrupt registry aside (registry.json.corrupt-<time>) so
// that a new one can be started, and returns the backup's path.
func Repair(path string, now time.Time) (string, error) {
	var backup string
	err := atomicfile.WithLock(path, func() error {
		if _, err := Read(path); !errors.Is(err, ErrCorrupt) {
			return fmt.Errorf("repair registry %s: not corrupt", path)
		}
		backup = path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
		if err := safefs.Rename(path, backup); err != nil {
			return fmt.Errorf("back up registry %s: %w", path, err)
		}
		return nil
	})
	return backup, err
}
