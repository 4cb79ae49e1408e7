package doctor

import "fmt"

// checkTrust names every key the project file set that the trust policy
// refused (a repository may only narrow the user's settings), and says
// when the user trusts the project's file instead.
func checkTrust(rep *Report, env *Env) {
	if env.root == "" {
		return
	}
	cfg := env.Config(env.root)
	if cfg.Trusted {
		rep.Add("ok", "", "project file %s: trusted (trust_project_config in %s names this project; every key applies)", cfg.ProjectFile, cfg.UserFile)
		return
	}
	hint := fmt.Sprintf("a repository's .claude/cerebro.toml may only narrow your settings; set the key in %s, or trust this project with trust_project_config = [%q] there", cfg.UserFile, env.root)
	for _, w := range cfg.Ignored {
		rep.Add("warn", hint, "configuration: %s", w)
	}
}
