package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/org/schedule"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// checkRemotes says where memory is pushed and how its last sync ended:
// the project's long.remote and the desk's org.remote, from the user's
// settings only (a project file that names one is reported with the
// other ignored keys, checkTrust).
func checkRemotes(rep *Report, env *Env) {
	user := env.Config("")
	longRemote, orgRemote := strings.TrimSpace(user.Long.Remote), strings.TrimSpace(user.Org.Remote)
	if env.root != "" && (project.Layout{Root: env.root}).LongActive() {
		switch {
		case longRemote == "":
			rep.Add("ok", "", "long-term memory remote: none (long.remote; memory is committed locally only)")
		default:
			url, err := env.LongRemoteFor(longRemote, env.root)
			if err != nil {
				rep.Add("warn", `put {project} where the project's folder name goes`, "long.remote: %v", err)
				break
			}
			reportSync(rep, "long-term memory", url, longterm.New(env.root).LastSync(), filepath.Join(env.root, ".claude", "memory_long"), "memhook long sync --project "+env.root)
		}
	}
	if orgRemote == "" {
		rep.Add("ok", "", "org vault remote: none (org.remote; share the vault by setting it)")
		return
	}
	reportSync(rep, "org vault", orgRemote, orgvault.LastSync(env.Paths.Home), env.Paths.Home, "memhook org sync")
}

func reportSync(rep *Report, what, url string, rec *gitrepo.SyncRecord, dir, command string) {
	if err := gitrepo.CheckURL(url); err != nil {
		rep.Add("warn", "cerebro stores no credential: use ssh with your agent, or a file:// path", "%s remote: %v", what, err)
		return
	}
	switch {
	case rec == nil:
		rep.Add("warn", "run `"+command+"` (the daily schedule does it after the night)", "%s remote %s: never synced", what, url)
	case rec.State == gitrepo.SyncDiverged:
		rep.Add("warn", fmt.Sprintf("merge the two by hand with your git in %s (git pull), then run `%s`", dir, command),
			"%s: diverged, run `%s` (%s changed on both sides; last sync %s)", what, command, strings.Join(rec.Conflicts, ", "), rec.Time.Local().Format("2006-01-02 15:04"))
	case rec.State == gitrepo.SyncBlocked:
		rep.Add("warn", fmt.Sprintf("commit or undo those edits in %s, then run `%s`", dir, command),
			"%s: not synced, uncommitted edits stand where the remote's changes go: %s", what, strings.Join(rec.Blocked, ", "))
	case rec.Error != "":
		rep.Add("warn", "check the URL and your ssh agent (ssh-add -l), then run `"+command+"`", "%s: the last sync failed: %s", what, rec.Error)
	default:
		rep.Add("ok", "", "%s remote %s: %s at %s", what, rec.URL, rec.State, rec.Time.Local().Format("2006-01-02 15:04"))
	}
	if rec != nil && len(rec.Refused) > 0 {
		rep.Add("warn", gitrepo.RefusedHint, "%s", gitrepo.RefusedText(what, rec.URL, rec.Refused))
	}
}

// checkNightTime shows when the daily entry runs the night (and the
// maintenance after it): the time in force, read from the installed
// entry's file, and night.time when an install is still to move it.
func checkNightTime(rep *Report, env *Env) {
	eff := env.Config("")
	want, src := schedule.NightTime(eff)
	target, _ := schedule.UserTarget(env.Getenv)
	when, _, ok := schedule.EntryTime(target)
	switch {
	case !ok:
		rep.Add("ok", "", "daily schedule: the night at %s (%s), then maintenance; no timer or agent file installed (`memhook schedule status` shows a crontab entry, `memhook schedule install` installs one)", want, src)
	case when != want:
		rep.Add("warn", "run `memhook schedule install` to move it", "daily schedule: the installed entry runs at %s, night.time says %s (%s): the new time waits for an install", when, want, src)
	default:
		rep.Add("ok", "", "daily schedule: the night at %s (%s), installed at %s, then maintenance", want, src, when)
	}
}
