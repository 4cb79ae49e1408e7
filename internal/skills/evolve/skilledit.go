package evolve

import (
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// CommitEdit commits at once the edit a tool made to the file at path when
// it is a skill's, so every edit of a skill can be rolled back; ok is
// false for any other file. An edit of the memory instruction first takes
// the person's reference (the instruction before any edit) from the first
// committed versions of the plugin's copy (pluginRoot, asked only then,
// gives the plugin's folder or "") and of the file, when none was taken
// yet.
func (r Reference) CommitEdit(path, tool string, pluginRoot func() string, now time.Time) (ref skill.Ref, res skill.Result, ok bool, err error) {
	ref, ok = skill.Locate(path)
	if !ok {
		return ref, res, false, nil
	}
	if ref.Name == InstructionSkill {
		files := []string{path}
		if p := pluginRoot(); p != "" {
			files = append([]string{filepath.Join(p, "skills", filepath.FromSlash(InstructionName))}, files...)
		}
		r.EnsureInitial(files, now)
	}
	res, err = skill.Commit(ref, tool, now)
	return ref, res, true, err
}
