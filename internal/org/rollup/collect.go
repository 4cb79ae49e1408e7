// Package rollup builds the org desk's dashboard: one deterministic page
// (rollup.md) saying where every registered project stands, read from each
// project's План-факт.md and its memory timestamps, without a model and
// without writing anything inside a project.
//
// Use [Collect] to read the registry and the projects into a [Report],
// [Render] to turn it into Markdown, and [Write] to store rollup.md and the
// per-project cache files beside the registry; [AppendLog] adds the run's
// line to rollup.log. Same inputs and date give the same bytes: every list
// is sorted, and nothing in the output depends on the time of day, the
// order of the registry or how long the run took.
package rollup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Activity states of a project.
const (
	Fresh       = "fresh"       // memory touched within FreshDays
	Stale       = "stale"       // memory older than that
	Unknown     = "unknown"     // no memory to judge by
	Unreachable = "unreachable" // the path is gone or cannot be read
)

// Diagnostic kinds.
const (
	KindRegistryCorrupt = "registry corrupt"
	KindRegistryRead    = "registry unreadable"
	KindInvalidEntry    = "invalid registry entry"
	KindDesk            = "desk registered"
	KindUnreachable     = "unreachable"
	KindNoPlanFact      = "no План-факт.md"
	KindContract        = "contract broken"
	KindReadError       = "read error"
	KindGit             = "git"
)

// Options say what to read and how to judge it.
type Options struct {
	Registry      string    // path of registry.json
	Desk          string    // the desk's own root ($CEREBRO_HOME): never listed as a project
	Today         time.Time // the date of the dashboard; only its calendar date in its location counts
	FreshDays     int       // memory touched within this many days is fresh
	CompletedDays int       // completed projects are shown this many days, then hidden
	WithGit       bool      // read repository activity through go-git
	GitDays       int       // window for the commit count with WithGit
	Workers       int       // projects read in parallel; 0 picks a small default
	// NoteBytes bounds the read of each project's План-факт.md: the
	// desk's limits.note_bytes, the person's own bound, which a project
	// file may only lower (0: safefs.DefaultNoteBytes).
	NoteBytes int64
}

// Report is everything the dashboard shows.
type Report struct {
	Date            string       `json:"date"`
	Registry        string       `json:"registry"`
	Registered      int          `json:"registered"` // entries in the registry
	FreshDays       int          `json:"fresh_days"`
	CompletedDays   int          `json:"completed_days"`
	WithGit         bool         `json:"with_git"`
	GitDays         int          `json:"git_days,omitempty"`
	Active          []*Project   `json:"active"`
	Paused          []*Project   `json:"paused"`
	Completed       []*Project   `json:"completed"` // recently completed: Q4 case candidates
	HiddenCompleted int          `json:"hidden_completed"`
	Diagnostics     []Diagnostic `json:"diagnostics"`
	hidden          []*Project   // completed long ago: cached, not shown
}

// Project is what was read about one registered project; it is also the
// content of its cache file.
type Project struct {
	ID            string             `json:"id"`
	Name          string             `json:"name"`
	Path          string             `json:"path"`
	Date          string             `json:"date"`
	Activity      string             `json:"activity_state"`
	ActivityAge   int                `json:"activity_age_days"`       // days since LastActivity; -1 when unknown
	LastActivity  string             `json:"last_activity,omitempty"` // RFC 3339 mtime of the newest memory file
	ActivityFrom  string             `json:"activity_from,omitempty"` // that file, relative to the project
	PlanFact      *planfact.PlanFact `json:"plan_fact,omitempty"`
	PlanFactError string             `json:"plan_fact_error,omitempty"`
	Problems      []planfact.Problem `json:"problems,omitempty"`
	CompletedAge  int                `json:"completed_age_days,omitempty"`
	Git           *Git               `json:"git,omitempty"`
	cacheable     bool
}

// Git is the repository activity shown with --with-git.
type Git struct {
	LastHash    string `json:"last_hash,omitempty"`
	LastWhen    string `json:"last_when,omitempty"`
	LastMessage string `json:"last_message,omitempty"`
	Recent      int    `json:"recent"`
	Error       string `json:"error,omitempty"`
}

// Diagnostic is one integrity problem found while reading.
type Diagnostic struct {
	Project string `json:"project,omitempty"` // name, or "" for the registry itself
	ID      string `json:"id,omitempty"`
	Kind    string `json:"kind"`
	Field   string `json:"field,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

var safeID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\p{L}\p{N}_.-]+$`) })

// Collect reads the registry and every project in it. A corrupt or
// unreadable registry is not an error: it becomes a diagnostic on an empty
// report, so the dashboard itself tells the person.
func Collect(opts Options) *Report {
	if opts.Workers <= 0 {
		opts.Workers = min(8, 2*runtime.NumCPU())
	}
	today := dateOf(opts.Today)
	r := &Report{
		Date: today.Format(time.DateOnly), Registry: opts.Registry,
		FreshDays: opts.FreshDays, CompletedDays: opts.CompletedDays, WithGit: opts.WithGit,
		Active: []*Project{}, Paused: []*Project{}, Completed: []*Project{}, Diagnostics: []Diagnostic{},
	}
	if opts.WithGit {
		r.GitDays = opts.GitDays
	}
	reg, err := registry.Read(opts.Registry)
	if err != nil {
		kind := KindRegistryRead
		if errors.Is(err, registry.ErrCorrupt) {
			kind = KindRegistryCorrupt
		}
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Kind: kind, Message: err.Error() + "; it was left as it is (run `memhook registry repair` to back it up and start a new one)"})
		return r
	}
	r.Registered = len(reg.Projects)
	entries := usableEntries(reg, opts.Desk, r)
	projects := make([]*Project, len(entries))
	parallel(len(entries), opts.Workers, func(i int) { projects[i] = readProject(entries[i], today, opts) })
	for _, p := range projects {
		r.Diagnostics = append(r.Diagnostics, diagnose(p)...)
		r.place(p, today, opts.CompletedDays)
	}
	r.Diagnostics = append(r.Diagnostics, remoteDiagnostics(projects, opts.Desk)...)
	sortReport(r)
	return r
}

// usableEntries drops entries that cannot be read safely (no path, relative
// path, duplicates, the desk itself), reporting each.
func usableEntries(reg *registry.File, desk string, r *Report) []registry.Project {
	bad := map[int]bool{}
	for _, p := range reg.Validate() {
		e := reg.Projects[p.Index]
		r.Diagnostics = append(r.Diagnostics, Diagnostic{Project: entryName(e), ID: e.ID, Kind: KindInvalidEntry,
			Message: p.Message})
		if p.Message == "no path" || strings.Contains(p.Message, "not absolute") || strings.HasPrefix(p.Message, "duplicate") {
			bad[p.Index] = true
		}
	}
	deskClean := cleanPath(desk)
	var out []registry.Project
	for i, e := range reg.Projects {
		if bad[i] {
			continue
		}
		if e.ID != "" && !safeID().MatchString(e.ID) {
			r.Diagnostics = append(r.Diagnostics, Diagnostic{Project: entryName(e), ID: e.ID, Kind: KindInvalidEntry,
				Message: fmt.Sprintf("id %q is not a safe file name", e.ID)})
			continue
		}
		if desk != "" && cleanPath(e.Path) == deskClean {
			r.Diagnostics = append(r.Diagnostics, Diagnostic{Project: entryName(e), ID: e.ID, Kind: KindDesk,
				Message: "the desk itself is registered as a project; it is never listed (remove it with `memhook registry remove " + e.ID + "`)"})
			continue
		}
		out = append(out, e)
	}
	return out
}

func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	p = filepath.Clean(p)
	if ev, err := filepath.EvalSymlinks(p); err == nil {
		p = ev
	}
	return p
}

func entryName(e registry.Project) string {
	if e.Name != "" {
		return e.Name
	}
	if e.Path != "" {
		return filepath.Base(e.Path)
	}
	return e.ID
}

// readProject reads one project: its plan-fact, its memory timestamps and,
// when asked, its repository. It only reads.
func readProject(e registry.Project, today time.Time, opts Options) *Project {
	p := &Project{ID: e.ID, Name: entryName(e), Path: e.Path, Date: today.Format(time.DateOnly), ActivityAge: -1, cacheable: true}
	if p.ID == "" {
		p.ID = project.ID(e.Path)
	}
	fi, err := os.Stat(e.Path)
	if err != nil || !fi.IsDir() {
		p.Activity = Unreachable
		if err != nil {
			p.PlanFactError = err.Error()
		} else {
			p.PlanFactError = e.Path + " is not a directory"
		}
		return p
	}
	l := project.Layout{Root: e.Path}
	data, err := safefs.ReadNote(l.PlanFact(), opts.NoteBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.PlanFactError = "missing"
	case err != nil:
		p.PlanFactError = err.Error()
	default:
		p.PlanFact, p.Problems = planfact.Parse(data)
	}
	if p.PlanFact != nil && p.PlanFact.Project != "" && e.Name == "" {
		p.Name = p.PlanFact.Project
	}
	last, from := newestMemory(l)
	if last.IsZero() {
		p.Activity = Unknown
	} else {
		p.LastActivity = last.UTC().Format(time.RFC3339)
		p.ActivityFrom = from
		p.ActivityAge = max(0, daysBetween(dateOf(last.In(today.Location())), today))
		p.Activity = Fresh
		if p.ActivityAge > opts.FreshDays {
			p.Activity = Stale
		}
	}
	if opts.WithGit {
		p.Git = readGit(e.Path, today.AddDate(0, 0, -opts.GitDays))
	}
	return p
}

func diagnose(p *Project) []Diagnostic {
	var out []Diagnostic
	d := func(kind, field string, line int, msg string) {
		out = append(out, Diagnostic{Project: p.Name, ID: p.ID, Kind: kind, Field: field, Line: line, Message: msg})
	}
	switch {
	case p.Activity == Unreachable:
		d(KindUnreachable, "", 0, p.PlanFactError)
	case p.PlanFactError == "missing":
		d(KindNoPlanFact, "", 0, "no .claude/memory_long/"+planfact.FileName+" (create it with `memhook long on`)")
	case p.PlanFactError != "":
		d(KindReadError, "", 0, p.PlanFactError)
	}
	for _, pr := range p.Problems {
		d(KindContract, pr.Field, pr.Line, pr.Message)
	}
	if p.Git != nil && p.Git.Error != "" {
		d(KindGit, "", 0, p.Git.Error)
	}
	return out
}

// place files the project under its section. A project whose status cannot
// be read stays among the active ones, where it is seen.
func (r *Report) place(p *Project, today time.Time, completedDays int) {
	status := ""
	if p.PlanFact != nil {
		status = p.PlanFact.Status
	}
	switch status {
	case "paused":
		r.Paused = append(r.Paused, p)
	case "completed":
		// A missing or bad completion date keeps the project visible: the
		// contract diagnostic says what to fix.
		if d, err := time.ParseInLocation(time.DateOnly, p.PlanFact.Completed, today.Location()); err == nil {
			p.CompletedAge = daysBetween(d, today)
			if p.CompletedAge > completedDays {
				r.HiddenCompleted++
				r.hidden = append(r.hidden, p)
				return
			}
		}
		r.Completed = append(r.Completed, p)
	default:
		r.Active = append(r.Active, p)
	}
}

func sortReport(r *Report) {
	byName := func(ps []*Project) {
		sort.Slice(ps, func(i, j int) bool {
			a, b := strings.ToLower(ps[i].Name), strings.ToLower(ps[j].Name)
			if a != b {
				return a < b
			}
			return ps[i].ID < ps[j].ID
		})
	}
	byName(r.Active)
	byName(r.Paused)
	sort.Slice(r.Completed, func(i, j int) bool {
		a, b := r.Completed[i], r.Completed[j]
		if a.CompletedAge != b.CompletedAge {
			return a.CompletedAge < b.CompletedAge
		}
		if x, y := strings.ToLower(a.Name), strings.ToLower(b.Name); x != y {
			return x < y
		}
		return a.ID < b.ID
	})
	sort.SliceStable(r.Diagnostics, func(i, j int) bool {
		a, b := r.Diagnostics[i], r.Diagnostics[j]
		if (a.Project == "") != (b.Project == "") {
			return a.Project == "" // registry-wide problems first
		}
		if x, y := strings.ToLower(a.Project), strings.ToLower(b.Project); x != y {
			return x < y
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Message < b.Message
	})
}

// dateOf is midnight of t's calendar day in t's location.
func dateOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// daysBetween counts calendar days from a to b (both midnights); it is
// exact across daylight-saving changes because it rounds.
func daysBetween(a, b time.Time) int {
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}
