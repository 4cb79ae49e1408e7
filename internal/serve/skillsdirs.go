package serve

// SkillsDirsOf labels a project's skills folders for the skills page: the
// first is the project's own, evolving copy, the rest the plugin's;
// override, when set, is a folder named on the command line, shown alone.
func SkillsDirsOf(dirs []string, override string) []SkillsDir {
	if override != "" {
		return []SkillsDir{{Dir: override, Source: "folder"}}
	}
	var out []SkillsDir
	for i, d := range dirs {
		src := SourcePlugin
		if i == 0 {
			src = "project"
		}
		out = append(out, SkillsDir{Dir: d, Source: src})
	}
	return out
}
