package factory

import (
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/doctor"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/longterm"
)

// DoctorEnv is what doctor checks the project around dir with: this
// process's paths, settings, plugin checkout and executable. The caller
// adds what only the front end knows (Version, ShortCommands).
func (f *Factory) DoctorEnv(dir string) doctor.Env {
	return doctor.Env{
		Paths: f.Paths, Getenv: f.Getenv, Environ: f.Environ, Config: f.Config, Now: f.Now(),
		Project: dir, ProjectRoot: f.ProjectRoot, PluginRoot: f.PluginRoot(),
		Executable: f.Executable, ClaudeDir: config.ClaudeDir(f.Getenv), LongRemoteFor: LongRemoteFor,
	}
}

// LongRemoteFor expands the user's long.remote for the project at root.
func LongRemoteFor(remote, root string) (string, error) {
	url, err := longterm.RemoteFor(remote, root)
	if err != nil {
		return "", hint.Wrap(err, `put {project} where the project's folder name goes, e.g. long.remote = "git@git.example.com:me/{project}-memory.git"`)
	}
	return url, nil
}
