package evolve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// InstructionSkill is the skill holding the memory instruction.
const InstructionSkill = "use-memory"

// Reference is the person's copy of the first memory instruction, kept in
// the state dir, outside every folder Claude Code loads or the model is
// pointed at, read-only on disk. Only a person replaces it.
type Reference struct {
	Dir string // <state>/instruction
}

// Manifest lists the reference's files with their hashes.
type Manifest struct {
	Taken  time.Time  `json:"taken"`
	Source string     `json:"source"` // where it was taken from
	Files  []RefEntry `json:"files"`
}

// RefEntry is one file of the instruction: its path inside a skills folder.
type RefEntry struct {
	Name   string `json:"name"` // e.g. use-memory/SKILL.md
	SHA256 string `json:"sha256"`
	Size   int    `json:"size"`
}

func (r Reference) manifestPath() string { return filepath.Join(r.Dir, "manifest.json") }
func (r Reference) filePath(name string) string {
	return filepath.Join(r.Dir, "files", filepath.FromSlash(name))
}

// ErrNoReference means no reference was ever taken.
var ErrNoReference = errors.New("no reference copy of the instruction")

// Load reads the manifest and checks every stored file against its hash.
func (r Reference) Load() (Manifest, map[string][]byte, error) {
	var m Manifest
	b, err := safefs.ReadFile(r.manifestPath(), 4<<20)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil, ErrNoReference
	}
	if err != nil {
		return m, nil, fmt.Errorf("read reference: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, nil, fmt.Errorf("read reference %s: %w", r.manifestPath(), err)
	}
	files := map[string][]byte{}
	for _, e := range m.Files {
		data, err := ReadSkill(r.filePath(e.Name))
		if err != nil {
			return m, nil, fmt.Errorf("read reference file %s: %w", e.Name, err)
		}
		if sum(data) != e.SHA256 {
			return m, nil, fmt.Errorf("reference file %s does not match its hash: it was changed outside memhook", e.Name)
		}
		files[e.Name] = data
	}
	return m, files, nil
}

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// Set replaces the reference with files (name -> content).
func (r Reference) Set(files map[string][]byte, source string, now time.Time) (Manifest, error) {
	m := Manifest{Taken: now, Source: source}
	if err := safefs.MkdirAllMode(r.Dir, 0o700); err != nil {
		return m, fmt.Errorf("set reference: %w", err)
	}
	for name, data := range files {
		p := r.filePath(name)
		safefs.Chmod(p, 0o600) // a read-only file cannot be replaced everywhere
		if err := atomicfile.Write(p, data, 0o400); err != nil {
			return m, fmt.Errorf("set reference: %w", err)
		}
		m.Files = append(m.Files, RefEntry{Name: name, SHA256: sum(data), Size: len(data)})
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	safefs.Chmod(r.manifestPath(), 0o600)
	if err := atomicfile.Write(r.manifestPath(), append(b, '\n'), 0o400); err != nil {
		return m, fmt.Errorf("set reference: %w", err)
	}
	return m, nil
}

// InstructionName is the reference name of a skills folder's instruction
// file.
const InstructionName = InstructionSkill + "/SKILL.md"

// EnsureInitial takes the reference when none exists: from the committed
// version (at HEAD) of the first instruction file in files (the shipped
// plugin's first), else its current content. It is taken before any edit
// of cerebro's is committed (every commit of the instruction first ensures
// it), so HEAD still holds the instruction as shipped; an edit the tool
// just made on disk is not yet committed and not taken. It reports
// whether it took one.
func (r Reference) EnsureInitial(files []string, now time.Time) (bool, error) {
	if _, err := os.Stat(r.manifestPath()); err == nil {
		return false, nil
	}
	for _, f := range files {
		if data, ok := skill.CommittedVersion(f); ok && len(data) > 0 {
			_, err := r.Set(map[string][]byte{InstructionName: data}, f+" (committed)", now)
			return err == nil, err
		}
		if data, err := ReadSkill(f); err == nil {
			_, err := r.Set(map[string][]byte{InstructionName: data}, f, now)
			return err == nil, err
		}
	}
	return false, nil
}

// Restored is what a reset did to one file.
type Restored struct {
	File    string `json:"file"`
	Changed bool   `json:"changed"`
	Commit  string `json:"commit,omitempty"`
}

// Reset writes the reference's instruction into each file (each a
// <skills>/use-memory/SKILL.md) and commits it, one commit per file, touching
// nothing else: no candidate, no other skill, no data.
func (r Reference) Reset(files []string, now time.Time) ([]Restored, error) {
	_, ref, err := r.Load()
	if err != nil {
		return nil, err
	}
	want, ok := ref[InstructionName]
	if !ok {
		return nil, fmt.Errorf("the reference holds no %s", InstructionName)
	}
	var out []Restored
	for _, f := range files {
		cur, _ := ReadSkill(f)
		res := Restored{File: f}
		if !bytes.Equal(cur, want) {
			if err := atomicfile.Write(f, want, 0o644); err != nil {
				return out, fmt.Errorf("restore %s: %w", f, err)
			}
			res.Changed = true
		}
		sref, ok := skill.Locate(f)
		if !ok {
			return out, fmt.Errorf("restore %s: not inside a skills folder", f)
		}
		c, err := skill.CommitFiles(sref, []string{f}, fmt.Sprintf("skill %s: restore the first instruction", sref.Name), now)
		if err != nil {
			return out, err
		}
		res.Commit = c.Commit
		out = append(out, res)
	}
	return out, nil
}
