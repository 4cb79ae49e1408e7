package config

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Report is the effective settings as `memhook config --json` prints
// them: where each file and folder is, every key with its source, and what
// the project file could not set.
func (e *Effective) Report(p Paths) map[string]any {
	return map[string]any{
		"user_file": e.UserFile, "project_file": e.ProjectFile,
		"cerebro_home": p.Home, "state_dir": p.State,
		"settings": e.Settings(), "warnings": e.Warnings,
		"ignored": e.Ignored, "project_trusted": e.Trusted,
	}
}

// WriteText writes the effective settings as `memhook config` prints
// them; the warnings are the caller's to print.
func (e *Effective) WriteText(w io.Writer, p Paths) error {
	trust := ""
	if e.Trusted {
		trust = " (trusted: every key applies)"
	} else if e.ProjectFile != "" {
		trust = " (may only narrow the user's settings)"
	}
	fmt.Fprintf(w, "user file:    %s\nproject file: %s%s\ncerebro home: %s\nstate dir:    %s\n\n", e.UserFile, e.ProjectFile, trust, p.Home, p.State)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE")
	for _, s := range e.Settings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, s.Value, s.Source)
	}
	tw.Flush()
	if len(e.Ignored) > 0 {
		fmt.Fprintln(w, "\nIgnored in the project file (the user's value applies):")
		for _, i := range e.Ignored {
			fmt.Fprintf(w, "  %s\n", i)
		}
	}
	_, err := fmt.Fprintf(w, "\nEvery key can be overridden by an environment variable, e.g. %s.\n", EnvName("short.flush_chars"))
	return err
}
