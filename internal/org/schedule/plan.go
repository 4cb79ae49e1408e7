// Package schedule installs, removes and reports the one daily entry in the
// operating system's scheduler that runs `memhook schedule run`, which runs
// each of [Jobs] in turn (the night pass, then the org rollup): a systemd user
// timer (or, without a usable user manager, a crontab line) on Linux, a
// launchd agent on macOS, a Task Scheduler task on Windows.
//
// Everything the package would do is first a [Plan]: files to write or
// remove and commands to run, built purely from a [Target] (OS, backend,
// paths, time). [Plan.Describe] prints it for --dry-run; an [Executor]
// applies it. The executor finds commands on the PATH of the environment it
// is given, never the process's own, so tests point it at stand-in
// executables and a temporary HOME and cannot reach the real scheduler.
package schedule

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Names of the entry in every backend.
const (
	Name       = "cerebro-rollup"         // systemd unit, Task Scheduler task, crontab marker
	Label      = "com.cerebro-mem.rollup" // launchd label
	cronMarker = "# " + Name
)

// Backend is the scheduler used.
type Backend string

// The supported backends.
const (
	Systemd  Backend = "systemd"
	Cron     Backend = "cron"
	Launchd  Backend = "launchd"
	Schtasks Backend = "schtasks"
)

// Target is what a plan is built from.
type Target struct {
	Backend    Backend
	Home       string   // the user's home folder (launchd agents live under it)
	ConfigHome string   // $XDG_CONFIG_HOME or ~/.config (systemd user units live under it)
	Command    []string // the absolute executable, then its arguments
	Hour       int
	Minute     int
}

// StepKind is what one step does.
type StepKind int

// The kinds of step.
const (
	WriteFile   StepKind = iota // write Content to Path
	RemoveFile                  // remove Path if it is there
	Run                         // run Argv
	EditCrontab                 // replace the marked crontab line with CronLine ("" removes it)
)

// Step is one action of a plan.
type Step struct {
	Kind     StepKind
	Path     string
	Content  string
	Mode     fs.FileMode
	Argv     []string
	CronLine string
	MayFail  bool // a failure is expected when nothing was installed before
}

// Plan is everything install or remove would do, in order.
type Plan struct {
	Backend Backend
	Steps   []Step
}

// BackendFor picks the backend of an operating system (runtime.GOOS
// values); on Linux the caller says whether systemd's user manager is
// usable.
func BackendFor(goos string, systemdUsable bool) (Backend, error) {
	switch goos {
	case "linux":
		if systemdUsable {
			return Systemd, nil
		}
		return Cron, nil
	case "darwin":
		return Launchd, nil
	case "windows":
		return Schtasks, nil
	case "freebsd", "openbsd", "netbsd", "dragonfly", "solaris", "illumos":
		return Cron, nil
	}
	return "", fmt.Errorf("schedule: no known scheduler on %s", goos)
}

// InstallPlan is what install does: write the entry (replacing any earlier
// one, so there is never a second) and activate it.
func InstallPlan(t Target) (Plan, error) {
	if len(t.Command) == 0 || !filepath.IsAbs(t.Command[0]) {
		return Plan{}, fmt.Errorf("schedule: the command must start with an absolute executable path")
	}
	if t.Hour < 0 || t.Hour > 23 || t.Minute < 0 || t.Minute > 59 {
		return Plan{}, fmt.Errorf("schedule: %02d:%02d is not a time of day", t.Hour, t.Minute)
	}
	p := Plan{Backend: t.Backend}
	switch t.Backend {
	case Systemd:
		service, timer := systemdPaths(t)
		p.Steps = []Step{
			{Kind: WriteFile, Path: service, Content: systemdService(t), Mode: 0o644},
			{Kind: WriteFile, Path: timer, Content: systemdTimer(t), Mode: 0o644},
			{Kind: Run, Argv: []string{"systemctl", "--user", "daemon-reload"}},
			{Kind: Run, Argv: []string{"systemctl", "--user", "enable", "--now", Name + ".timer"}},
		}
	case Cron:
		p.Steps = []Step{{Kind: EditCrontab, CronLine: cronLine(t)}}
	case Launchd:
		plist := launchdPath(t)
		p.Steps = []Step{
			{Kind: Run, Argv: []string{"launchctl", "unload", "-w", plist}, MayFail: true},
			{Kind: WriteFile, Path: plist, Content: launchdPlist(t), Mode: 0o644},
			{Kind: Run, Argv: []string{"launchctl", "load", "-w", plist}},
		}
	case Schtasks:
		p.Steps = []Step{{Kind: Run, Argv: []string{"schtasks", "/Create", "/F", "/SC", "DAILY",
			"/ST", fmt.Sprintf("%02d:%02d", t.Hour, t.Minute), "/TN", Name, "/TR", windowsCommandLine(t.Command)}}}
	default:
		return Plan{}, fmt.Errorf("schedule: unknown backend %q", t.Backend)
	}
	return p, nil
}

// RemovePlan is what remove does: deactivate and delete the entry. Steps
// that fail when nothing is installed are marked so.
func RemovePlan(t Target) Plan {
	p := Plan{Backend: t.Backend}
	switch t.Backend {
	case Systemd:
		service, timer := systemdPaths(t)
		p.Steps = []Step{
			{Kind: Run, Argv: []string{"systemctl", "--user", "disable", "--now", Name + ".timer"}, MayFail: true},
			{Kind: RemoveFile, Path: timer},
			{Kind: RemoveFile, Path: service},
			{Kind: Run, Argv: []string{"systemctl", "--user", "daemon-reload"}, MayFail: true},
		}
	case Cron:
		p.Steps = []Step{{Kind: EditCrontab}}
	case Launchd:
		plist := launchdPath(t)
		p.Steps = []Step{
			{Kind: Run, Argv: []string{"launchctl", "unload", "-w", plist}, MayFail: true},
			{Kind: RemoveFile, Path: plist},
		}
	case Schtasks:
		p.Steps = []Step{{Kind: Run, Argv: []string{"schtasks", "/Delete", "/F", "/TN", Name}, MayFail: true}}
	}
	return p
}

// Describe prints the plan exactly: every file with its full content, every
// command with its arguments.
func (p Plan) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scheduler: %s\n", p.Backend)
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "\n%d. ", i+1)
		switch s.Kind {
		case WriteFile:
			fmt.Fprintf(&b, "write %s (mode %04o):\n", s.Path, s.Mode.Perm())
			for _, line := range strings.SplitAfter(strings.TrimSuffix(s.Content, "\n"), "\n") {
				fmt.Fprintf(&b, "   | %s", strings.TrimSuffix(line, "\n")+"\n")
			}
		case RemoveFile:
			fmt.Fprintf(&b, "remove %s (if present)\n", s.Path)
		case Run:
			fmt.Fprintf(&b, "run: %s", shellJoin(s.Argv))
			if s.MayFail {
				b.WriteString("   (a failure here is ignored: nothing may be installed yet)")
			}
			b.WriteString("\n")
		case EditCrontab:
			b.WriteString("edit the crontab: crontab -l, drop every line ending in \"" + cronMarker + "\"")
			if s.CronLine != "" {
				b.WriteString(", add the line\n   | " + s.CronLine + "\n   then")
			} else {
				b.WriteString(",")
			}
			b.WriteString(" write it back with crontab -\n")
		}
	}
	return b.String()
}

// EditCrontabText returns the crontab with every line of ours removed and,
// when line is not empty, line added at the end: installing twice leaves
// one entry, removing leaves everything else as it was.
func EditCrontabText(current, line string) string {
	var kept []string
	for _, l := range strings.Split(current, "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), cronMarker) {
			continue
		}
		kept = append(kept, l)
	}
	for len(kept) > 0 && kept[len(kept)-1] == "" {
		kept = kept[:len(kept)-1]
	}
	if line != "" {
		kept = append(kept, line)
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "\n") + "\n"
}

// shellJoin quotes arguments for a POSIX shell only where needed, for
// display and for the crontab line.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
