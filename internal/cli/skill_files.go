package cli

import (
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
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

// skillDirs are the skills folders of a project, the evolving copy first
// (evolve.Project.Dirs).
func (f *Factory) skillDirs(root string) []string {
	return evolve.Project{Root: root, PluginRoot: f.pluginRoot()}.Dirs()
}

// skillFile is the file Claude Code loads for the skill, the evolving copy
// first; "" when there is none.
func (f *Factory) skillFile(root, name string) string {
	return evolve.Project{Root: root, PluginRoot: f.pluginRoot()}.SkillFile(name)
}
