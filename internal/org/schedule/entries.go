package schedule

import (
	"fmt"
	"path/filepath"
	"strings"
)

const header = "written by `memhook schedule install`; remove it with `memhook schedule remove`"

func systemdPaths(t Target) (service, timer string) {
	dir := filepath.Join(t.ConfigHome, "systemd", "user")
	return filepath.Join(dir, Name+".service"), filepath.Join(dir, Name+".timer")
}

func systemdService(t Target) string {
	args := make([]string, len(t.Command))
	for i, a := range t.Command {
		args[i] = systemdQuote(a)
	}
	return fmt.Sprintf(`# %s
[Unit]
Description=cerebro daily jobs: %s

[Service]
Type=oneshot
ExecStart=%s
`, header, JobNames(), strings.Join(args, " "))
}

func systemdTimer(t Target) string {
	// Persistent catches up a run missed while the machine was off.
	return fmt.Sprintf(`# %s
[Unit]
Description=Run the cerebro daily jobs (%s) every day

[Timer]
OnCalendar=*-*-* %02d:%02d:00
Persistent=true

[Install]
WantedBy=timers.target
`, header, JobNames(), t.Hour, t.Minute)
}

// systemdQuote quotes one ExecStart word: double quotes with C escapes, and
// % doubled because systemd expands specifiers.
func systemdQuote(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	if s != "" && !strings.ContainsAny(s, " \t\"'\\;$") {
		return s
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + s + `"`
}

// cronLine runs the command daily; stdout is dropped (the run writes its
// own log), stderr stays so cron mails real failures.
func cronLine(t Target) string {
	cmd := strings.ReplaceAll(shellJoin(t.Command), "%", `\%`) // % ends a cron command
	return fmt.Sprintf("%d %d * * * %s >/dev/null %s", t.Minute, t.Hour, cmd, cronMarker)
}

func launchdPath(t Target) string {
	return filepath.Join(t.Home, "Library", "LaunchAgents", Label+".plist")
}

func launchdPlist(t Target) string {
	var args strings.Builder
	for _, a := range t.Command {
		fmt.Fprintf(&args, "\t\t<string>%s</string>\n", xmlEscape(a))
	}
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- %s -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>%s</string>
	<key>ProgramArguments</key>
	<array>
%s	</array>
	<key>StartCalendarInterval</key>
	<dict>
		<key>Hour</key>
		<integer>%d</integer>
		<key>Minute</key>
		<integer>%d</integer>
	</dict>
	<key>RunAtLoad</key>
	<false/>
</dict>
</plist>
`, header, Label, args.String(), t.Hour, t.Minute)
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}

// windowsCommandLine is the /TR value: each word in double quotes when it
// needs them, as the Windows command-line parser reads them.
func windowsCommandLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\"") {
			out[i] = a
			continue
		}
		out[i] = `"` + strings.ReplaceAll(a, `"`, `\"`) + `"`
	}
	return strings.Join(out, " ")
}
