// Package importer turns the sessions Claude Code kept before cerebro into
// short-term memory: `memhook import`. It reads Claude Code's own
// transcript folders (~/.claude/projects/<slug>/<session>.jsonl, with the
// subagents' transcripts of every layout) and replays each session's hook
// events, at the moments the transcript gives them, through the hooks' own
// capture and flush (internal/shortterm, [shortterm.Hook.AsOf]): each
// session leaves in its project's daily files the sections the hooks would
// have written had they run then, with the same distiller, redaction and
// <private> rule, dated by the session's own clock.
//
//	rep, err := importer.Run(ctx, importer.Options{From: projectsDir, Memory: mem,
//		Sessions: sessionsDir, Register: register, Index: index, Now: time.Now})
//	rep.WriteText(os.Stdout)
//
// Sessions are replayed oldest first, their events interleaved in time
// order, so a day's file lists its sections as the hooks would have. A
// session is imported once: its state in the state dir (the hooks' own
// cursor, marked as the import's) says how far it went, so a second run,
// or a run after the hooks captured a session, adds nothing, and a run
// that was killed goes on from the last flush of the session it was in.
// See place.go for where memory may be written.
package importer

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Options say what one import reads, writes and reports.
type Options struct {
	// From is Claude Code's projects folder (~/.claude/projects).
	From string
	// Memory is the hooks' short-term memory: its sessions dir, settings,
	// log and distiller budget. Run replaces its clock, its observer and,
	// for a dry run, its sessions dir with its own.
	Memory *shortterm.Memory
	// Project, when set, is the only project imported (a folder of it); a
	// plain folder (no .git) is admitted when named so.
	Project string
	// Since leaves out the sessions whose last activity is before it.
	Since time.Time
	// DryRun writes nothing: the sessions are replayed into a temporary
	// folder, and the report says what would be written where.
	DryRun bool
	// Archive, when set, is the folder that takes the memory of projects
	// whose folder is gone, one folder per project; else they are
	// reported only.
	Archive string
	// Claude runs the claude distiller (within its daily budget) where
	// the project's settings choose it; else every section is extractive
	// and no model is called.
	Claude bool
	// Home, Temp and Desk are the home folder, the temporary folder and
	// the org desk, for the rule of place.go.
	Home, Temp, Desk string
	// Root is the hooks' project root of a folder (project.RootFor with
	// the desk).
	Root func(dir string) (string, error)
	// Register puts an imported project on the desk (the import is the
	// person's act of adding it); Index brings a project's search index
	// up to date. Either may be nil.
	Register func(root string) error
	Index    func(ctx context.Context, root string) error
	// Now is the real clock (progress, time left, what counts as live).
	Now func() time.Time
	// Progress, when set (a terminal), receives a status line that
	// rewrites itself.
	Progress io.Writer
	// Record, when set, is where a run that replayed sessions keeps what
	// it did ([RecordPath] of the state dir): doctor reads it.
	Record string
}

// Live is how recently a transcript must have been written to for its
// session to count as running: the hooks capture a running session (the
// recovery's own bound, [capture.RecoverIdle]).
const Live = capture.RecoverIdle

// Run imports what o names and reports it. A session that fails is
// reported and the others go on; the error joins every failure.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Root == nil {
		o.Root = project.Root
	}
	rep := &Report{From: o.From, DryRun: o.DryRun, Projects: []ProjectReport{}, Skipped: []Skipped{}, Failed: []Skipped{}, Warnings: []string{}}
	im, err := newRun(o, rep)
	if err != nil {
		return nil, err
	}
	defer im.close()
	found, skipped, err := List(o.From)
	if err != nil {
		return nil, err
	}
	rep.Skipped = append(rep.Skipped, skipped...)
	queue := im.plan(found)
	err = im.replay(ctx, queue)
	im.finish(ctx)
	return rep, err
}

// run is one import under way.
type run struct {
	o       Options
	rep     *Report
	mem     shortterm.Memory
	clock   time.Time
	placer  placer
	store   capture.Store
	owners  map[string]string // session id → import state ("" for the hooks')
	sandbox string            // dry run: the folder replayed into
	stands  map[string]string // dry run: a project's root in the sandbox → its own
	configs map[string]*config.Effective
	// per project (by its folder): its report, and its sessions still to
	// replay
	projects map[string]*ProjectReport
	left     map[string]int
	current  map[string]*ProjectReport // session id → its project, while it replays
	started  time.Time
	doneB    int64
	totalB   int64
	lastDraw time.Time
}

func newRun(o Options, rep *Report) (*run, error) {
	im := &run{o: o, rep: rep, mem: *o.Memory, projects: map[string]*ProjectReport{}, left: map[string]int{},
		current: map[string]*ProjectReport{}, configs: map[string]*config.Effective{}, stands: map[string]string{}, started: o.Now()}
	im.placer = placer{home: o.Home, temp: o.Temp, desk: o.Desk, archive: o.Archive, root: o.Root}
	if o.Project != "" {
		root, err := o.Root(o.Project)
		if err != nil {
			return nil, fmt.Errorf("resolve --project %s: %w", o.Project, err)
		}
		if why := im.placer.never(root); why != "" {
			return nil, fmt.Errorf("import into %s: %s", root, why)
		}
		im.placer.named = root
	}
	owners, err := owners(o.Memory.Sessions)
	if err != nil {
		return nil, err
	}
	im.owners = owners
	if o.DryRun {
		if err := im.openSandbox(); err != nil {
			return nil, err
		}
	}
	base := o.Memory.Config
	im.mem.Config = func(root string) *config.Effective {
		real := im.realRoot(root)
		if c, ok := im.configs[real]; ok {
			return c
		}
		c := *base(real)
		if !o.Claude {
			c.Distiller.Kind = "extractive"
		}
		im.configs[real] = &c
		return &c
	}
	im.mem.Now = func() time.Time { return im.clock }
	im.mem.Wall = o.Now
	im.mem.Spawn = nil // a replay flushes here, never in the background
	im.mem.Flushed = im.flushed
	im.store = capture.Store{Root: im.mem.Sessions}
	return im, nil
}

// owners maps every session with state in the sessions dir to whose it
// is: the import's (its Import value) or the hooks' (""); a state that
// does not load is nobody's to go on with ([unreadable] and why).
func owners(sessions string) (map[string]string, error) {
	out := map[string]string{}
	store := capture.Store{Root: sessions}
	ids, err := store.Projects()
	if err != nil {
		return nil, err
	}
	for _, pid := range ids {
		ents, err := os.ReadDir(filepath.Join(sessions, pid))
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".cursor.json") || strings.HasPrefix(name, ".") {
				continue
			}
			id := strings.TrimSuffix(name, ".json")
			st, err := store.Session(pid, id).Load()
			if err != nil {
				out[id] = unreadable + err.Error()
				continue
			}
			out[id] = st.Import
		}
	}
	return out, nil
}

// unreadable starts the owner of a session whose state does not load.
const unreadable = "unreadable: "

// job is one session to replay.
type job struct {
	t    Transcript
	pl   placement
	root string // where it is replayed (the sandbox's in a dry run)
}

// plan decides, session by session, what happens to it, and returns the
// sessions to replay, oldest first.
func (im *run) plan(found []Transcript) []job {
	var queue []job
	for _, t := range found {
		pl := im.placer.place(t.Cwd)
		switch {
		case im.placer.named != "" && (pl.refused != "" || pl.gone || !same(pl.root, im.placer.named)):
			continue // another project's
		case pl.refused != "":
			im.rep.Skipped = append(im.rep.Skipped, Skipped{t.Path, pl.refused})
			continue
		case !im.o.Since.IsZero() && t.End.Before(im.o.Since):
			continue
		}
		pr := im.project(pl)
		pr.Sessions++
		pr.Bytes += t.Size
		owner, seen := im.owners[t.ID]
		switch {
		case seen && strings.HasPrefix(owner, unreadable):
			im.rep.Skipped = append(im.rep.Skipped, Skipped{t.Path, "its state in the state dir does not load (" + strings.TrimPrefix(owner, unreadable) + ")"})
			continue
		case seen && owner == "":
			pr.Captured++
			continue
		case seen && owner == capture.ImportDone:
			pr.Imported++
			continue
		case im.o.Now().Sub(t.Mod) < Live:
			pr.Live++
			continue
		case pl.gone && pl.root == "":
			continue // reported with its project
		}
		j := job{t: t, pl: pl, root: pl.root}
		if im.sandbox != "" {
			j.root = filepath.Join(im.sandbox, "projects", project.ID(pl.root))
			im.stands[j.root] = pl.root
			if owner == capture.ImportRunning {
				im.copyState(pl.root, j.root, t.ID)
			}
		}
		queue = append(queue, j)
		im.left[pl.project]++
		im.totalB += t.Size
	}
	return queue
}

// project is the report of the project pl names, made on first sight.
func (im *run) project(pl placement) *ProjectReport {
	pr, ok := im.projects[pl.project]
	if !ok {
		pr = &ProjectReport{Path: pl.project, Gone: pl.gone, Root: pl.root, Files: []string{}, files: map[string]bool{}}
		im.projects[pl.project] = pr
	}
	return pr
}

// flushed counts what a flush wrote in the report of its project.
func (im *run) flushed(r shortterm.FlushReport) {
	pr := im.current[r.Session]
	if pr == nil || r.File == "" {
		return
	}
	pr.Sections++
	file := r.File
	if im.sandbox != "" {
		rel, err := filepath.Rel(filepath.Join(im.sandbox, "projects"), file)
		if err == nil {
			if _, rest, ok := strings.Cut(rel, string(filepath.Separator)); ok {
				file = filepath.Join(pr.Root, rest)
			}
		}
	}
	if !pr.files[file] {
		pr.files[file] = true
		pr.Files = append(pr.Files, file)
	}
}

// finish registers and indexes the projects the import wrote into, and
// sorts the report.
func (im *run) finish(ctx context.Context) {
	if im.o.Progress != nil && !im.lastDraw.IsZero() {
		fmt.Fprintln(im.o.Progress)
	}
	for _, pr := range im.projects {
		if pr.Replayed > 0 || pr.Imported > 0 {
			// A run killed before a project's last session left its index
			// behind; this one brings it up to date.
			im.index(ctx, pr)
		}
		sort.Strings(pr.Files)
		im.rep.Projects = append(im.rep.Projects, *pr)
	}
	sort.Slice(im.rep.Projects, func(i, j int) bool { return im.rep.Projects[i].Path < im.rep.Projects[j].Path })
	im.rep.Seconds = im.o.Now().Sub(im.started).Seconds()
	if im.o.Record != "" && im.sandbox == "" {
		if err := writeRecord(im.o.Record, im.rep, im.o.Now()); err != nil {
			im.rep.Warnings = append(im.rep.Warnings, err.Error())
		}
	}
}

// stepAsOf is the moment a step reads the session's files at.
func stepAsOf(st Step) *transcript.AsOf {
	return &transcript.AsOf{Bytes: st.Offset, Time: st.At}
}

// hookOf is the event a step replays, as the hooks receive it.
func (im *run) hookOf(j *job, st Step) shortterm.Hook {
	return shortterm.Hook{Root: j.root, SessionID: j.t.ID, Transcript: j.t.Path, Text: st.Text, AsOf: stepAsOf(st)}
}

// do replays one step.
func (im *run) do(ctx context.Context, j *job, st Step) error {
	im.clock = st.At
	h := im.hookOf(j, st)
	switch st.Event {
	case hook.UserPromptSubmit:
		return im.mem.UserPromptSubmit(h)
	case hook.Stop:
		return im.mem.Stop(ctx, h)
	case hook.PreCompact:
		return im.mem.PreCompact(ctx, h)
	case hook.SessionEnd:
		return im.mem.SessionEnd(ctx, h)
	}
	return nil // SessionStart recovers, registers and injects: nothing to replay
}
