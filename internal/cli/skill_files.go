package cli

import (
	"os"
	"path/filepath"
)

// pluginRoot is the plugin's folder, the one owner of that answer
// (doctor, commands, evolve, the skills and serve ask it): the checkout
// holding this memhook (bin/memhook's parent, links resolved), else
// CLAUDE_PLUGIN_ROOT; either only when it holds the plugin manifest. ""
// when neither does.
func (f *Factory) pluginRoot() string {
	var candidates []string
	if f.Executable != "" {
		if exe, err := filepath.EvalSymlinks(f.Executable); err == nil {
			candidates = append(candidates, filepath.Dir(filepath.Dir(exe)))
		}
	}
	if r := f.Getenv("CLAUDE_PLUGIN_ROOT"); r != "" {
		candidates = append(candidates, filepath.Clean(r))
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, ".claude-plugin", "plugin.json")); err == nil {
			return c
		}
	}
	return ""
}

// skillDirs are the skills folders of a project, the evolving copy first:
// <project>/.claude/skills (a plugin update never touches it), then the
// plugin's own (a cache Claude Code may replace).
func (f *Factory) skillDirs(root string) []string {
	dirs := []string{filepath.Join(root, ".claude", "skills")}
	if p := f.pluginRoot(); p != "" {
		dirs = append(dirs, filepath.Join(p, "skills"))
	}
	return dirs
}

// skillFile is the file Claude Code loads for the skill, the evolving copy
// first; "" when there is none.
func (f *Factory) skillFile(root, name string) string {
	for _, d := range f.skillDirs(root) {
		p := filepath.Join(d, name, "SKILL.md")
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}
