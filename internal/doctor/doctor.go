// Package doctor runs the checks of `memhook doctor` and returns a report:
// one finding per line (ok, warn or broken, with a hint where the person
// can act) and the hook timings of the log. It reads; the only thing it
// writes is a probe file in the state dir, removed at once.
//
// Use it as
//
//	rep := doctor.Run(doctor.Env{Paths: paths, Getenv: getenv, Config: cfg, Now: now, Project: ".", ...})
//	for _, f := range rep.Findings { fmt.Println(f.Level, f.What, f.Hint) }
//	if rep.Broken() { os.Exit(1) }
//
// A new check is one function added to [checks].
package doctor

import (
	"fmt"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/runlog"
)

// Finding is one line of the report.
type Finding struct {
	Level string // ok, warn, broken
	What  string
	Hint  string
}

// Report is what the checks found, in their order, and the hook timings
// per event from the log.
type Report struct {
	Findings []Finding
	Timings  []runlog.Timing
}

// Add appends a finding.
func (r *Report) Add(level, hint, format string, args ...any) {
	r.Findings = append(r.Findings, Finding{Level: level, What: fmt.Sprintf(format, args...), Hint: hint})
}

// Broken reports whether a finding is broken: doctor then exits 1.
func (r *Report) Broken() bool {
	for _, f := range r.Findings {
		if f.Level == "broken" {
			return true
		}
	}
	return false
}

// Env is what the checks read, given by the command: no check reads the
// process's environment or clock itself.
type Env struct {
	Paths   config.Paths
	Getenv  func(string) string
	Environ func() []string
	Config  func(root string) *config.Effective
	Now     time.Time
	// Project is the folder doctor checks; ProjectRoot maps it to its
	// project (the desk is its own, wherever it sits).
	Project     string
	ProjectRoot func(dir string) (string, error)
	PluginRoot  string // the plugin checkout this memhook runs for, "" when unknown
	Executable  string // this memhook, "" when unknown
	Version     string // this memhook's version
	ClaudeDir   string // ~/.claude or $CLAUDE_CONFIG_DIR
	// ShortCommands are the short slash commands install writes.
	ShortCommands []string
	// LongRemoteFor expands long.remote for a project root.
	LongRemoteFor func(remote, root string) (string, error)

	root string // the project root, "" when it could not be resolved
}

// check is one check of the report: it adds its findings to rep.
type check func(rep *Report, env *Env)

func checks() []check {
	return []check{
		checkProject, checkConfig, checkTrust,
		func(rep *Report, env *Env) { checkMemoryInGit(rep, env.root) },
		checkContainment,
		func(rep *Report, env *Env) { checkStateDir(rep, env.Paths) },
		checkOtherStateDirs,
		func(rep *Report, env *Env) { checkDesk(rep, env.Paths) },
		func(rep *Report, env *Env) { checkRegistry(rep, env.Paths.Registry()) },
		func(rep *Report, env *Env) { checkOrgVault(rep, env.Paths.Home) },
		checkRemotes, checkNightTime, checkVersion,
		func(rep *Report, env *Env) { checkHotBinary(rep, env.Executable) },
		checkClaudeOnPath, checkPluginCopy, checkOnPath, checkShortCommands, checkMCP, checkModelCalls,
		func(rep *Report, env *Env) { rep.Timings = checkHookLog(rep, env.Paths.Logs(), env.Now) },
		func(rep *Report, env *Env) { checkPending(rep, env.Paths.Sessions(), env.Now) },
		checkImport,
	}
}

// Run runs every check.
func Run(env Env) *Report {
	rep := &Report{}
	for _, c := range checks() {
		c(rep, &env)
	}
	return rep
}
