package longterm

import (
	"fmt"
	"io"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/project"
)

// WriteText says what `long on` did: the scaffold on out, a history that
// could not be opened or committed on warn, as a warning (the memory
// works without it). dir is the long-term root, registry the desk's file.
func (r *TurnOnReport) WriteText(out, warn io.Writer, dir, registry string) {
	fmt.Fprintf(out, "long-term memory on: %s\n", dir)
	if len(r.Created) > 0 {
		fmt.Fprintf(out, "created: %s\n", strings.Join(r.Created, ", "))
	}
	if len(r.Kept) > 0 {
		fmt.Fprintf(out, "kept (already there, not touched): %s\n", strings.Join(r.Kept, ", "))
	}
	fmt.Fprintf(out, "registered with the org desk as %s (%s)\n", r.ID, registry)
	switch h := r.History; {
	case r.HistoryErr != nil:
		fmt.Fprintf(warn, "memhook: warning: no history for long-term memory: %v\n", r.HistoryErr)
	case h.Versioned():
		if r.CommitErr != nil {
			fmt.Fprintf(warn, "memhook: warning: %v\n", r.CommitErr)
		}
		fmt.Fprintf(out, "history: every change memhook makes is a commit in %s (`memhook long log`)\n", h.Repo.Root())
	default:
		fmt.Fprintf(out, "history: %s\n", h.Note)
	}
}

// WriteOff says what `long off` did; registered is what [Store.TurnOff]
// returned.
func (s *Store) WriteOff(w io.Writer, registered bool) {
	fmt.Fprintf(w, "long-term memory off for %s; every file is kept in %s\n", s.Project, s.Dir)
	if registered {
		fmt.Fprintln(w, "unregistered from the org desk")
	} else {
		fmt.Fprintln(w, "was not registered with the org desk")
	}
}

// ProjectStatus is `long status`: the scaffold and the project's place on
// the desk. The fields are in the order of the JSON keys `long status
// --json` has always printed.
type ProjectStatus struct {
	ID            string  `json:"id"`
	Project       string  `json:"project"`
	Registered    bool    `json:"registered"`
	RegistryError string  `json:"registry_error"`
	Status        *Status `json:"status"`
}

// ProjectStatus inspects the scaffold and whether the desk's registry at
// registryPath lists the project, changing nothing.
func (s *Store) ProjectStatus(registryPath string) (*ProjectStatus, error) {
	st, err := s.Status()
	if err != nil {
		return nil, err
	}
	ps := &ProjectStatus{ID: project.ID(s.Project), Project: s.Project, Status: st}
	ps.Registered, ps.RegistryError = s.Registered(registryPath)
	return ps, nil
}

// WriteText prints the status as `long status` does.
func (p *ProjectStatus) WriteText(w io.Writer) {
	st := p.Status
	fmt.Fprintf(w, "project:     %s (%s)\n", p.Project, p.ID)
	fmt.Fprintf(w, "long-term:   %s\n", st.Dir)
	state := "absent"
	if st.Exists && st.Active {
		state = "on"
	} else if st.Exists {
		state = "off (files kept)"
	}
	fmt.Fprintf(w, "state:       %s\n", state)
	fmt.Fprintf(w, "registered:  %v\n", p.Registered)
	if p.RegistryError != "" {
		fmt.Fprintf(w, "registry:    %s\n", p.RegistryError)
	}
	if !st.Exists {
		fmt.Fprintln(w, "run `memhook long on` to create it")
		return
	}
	fmt.Fprintf(w, "files:       %s\n", strings.Join(st.Present, ", "))
	if len(st.Missing) > 0 {
		fmt.Fprintf(w, "missing:     %s (`memhook long on` adds them)\n", strings.Join(st.Missing, ", "))
	}
	fmt.Fprintf(w, "pages:       %d in wiki/ (%d in wiki/_private/), %d files in raw/\n", st.Pages, st.PrivatePages, st.RawFiles)
	if st.PlanFactValid {
		fmt.Fprintln(w, "plan-fact:   valid")
	} else {
		fmt.Fprintf(w, "plan-fact:   %d problem(s): %s\n", len(st.PlanFactErrors), strings.Join(st.PlanFactErrors, "; "))
	}
	fmt.Fprintf(w, "CORE.md:     %d characters\n", st.CoreChars)
}
