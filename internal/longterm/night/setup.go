package night

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/longterm"
)

// OptionsFor is a project's night by its own settings eff (the model
// choice may differ per project); store is its long-term memory, env the
// model process's environment and guard the secret guard of every prompt
// (short.scan_secrets). Inside cerebro's own claude run model steps are skipped, with a
// warning: a model call from there would recurse.
func OptionsFor(eff *config.Effective, store *longterm.Store, env []string, guard func(string) string, warn io.Writer) (Options, error) {
	// A project may narrow step 4 (propose, off), never switch off the
	// person's review of CORE.md: config.Policy keeps "apply" the user's.
	o := Options{Store: store, CoreMaxChars: eff.Long.CoreMaxChars, CompileAfterDays: eff.Night.CompileAfterDays,
		GitMode: eff.Long.Git, MaxDayChars: eff.Night.MaxDayChars, Core: eff.Night.Core}
	switch eff.Night.Model {
	case "":
	case "claude":
		if claude.Nested(env) {
			fmt.Fprintln(warn, "memhook: warning: night: inside a nested claude run, model steps are skipped")
			break
		}
		o.Model = Claude{Model: eff.Night.ClaudeModel, Runner: claude.Runner{
			Command: eff.Night.Command, Timeout: time.Duration(eff.Night.TimeoutSeconds) * time.Second,
			Env: env, Dir: store.Project, Guard: guard,
		}}
	default:
		return o, fmt.Errorf("night.model = %q: want \"\" or \"claude\"", eff.Night.Model)
	}
	return o, nil
}
