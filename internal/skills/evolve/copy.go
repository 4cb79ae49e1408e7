package evolve

import (
	"fmt"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
)

// EvolvingCopy is where a candidate of ref goes: ref itself when it lives
// in the project's own skills folder own, else a copy of its active text
// made there (a skill found only in the plugin is a cache a plugin update
// replaces). made names the file written, to commit with the candidate.
func EvolvingCopy(ref skill.Ref, own string) (copyRef skill.Ref, made []string, err error) {
	if ref.Root == own {
		return ref, nil, nil
	}
	active, err := ReadSkill(ref.File)
	if err != nil {
		return ref, nil, fmt.Errorf("read the active version: %w", err)
	}
	copyRef = skill.Ref{Root: own, Name: ref.Name, File: filepath.Join(own, ref.Name, "SKILL.md")}
	if err := atomicfile.Write(copyRef.File, active, 0o644); err != nil {
		return ref, nil, fmt.Errorf("make the evolving copy: %w", err)
	}
	return copyRef, []string{copyRef.File}, nil
}
