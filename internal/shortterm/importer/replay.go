package importer

import (
	"container/heap"
	"context"
	"fmt"
	"os"

	"github.com/cerebro-mem/cerebro/internal/hook"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// playing is a session being replayed: its transcript open, its next step
// read.
type playing struct {
	j     *job
	f     *os.File
	w     *Walker
	next  Step
	order int
	// A session resumed after a killed import replays only the steps
	// after its last flush: those from offset on, but not the Stop whose
	// last message that flush carried (its key in carried).
	from    int64
	carried map[string]bool
}

// byTime orders the sessions being replayed by their next step's moment.
type byTime []*playing

func (h byTime) Len() int { return len(h) }
func (h byTime) Less(a, b int) bool {
	if !h[a].next.At.Equal(h[b].next.At) {
		return h[a].next.At.Before(h[b].next.At)
	}
	return h[a].order < h[b].order
}
func (h byTime) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *byTime) Push(x any)   { *h = append(*h, x.(*playing)) }
func (h *byTime) Pop() any {
	old := *h
	p := old[len(old)-1]
	*h = old[:len(old)-1]
	return p
}

// replay plays the queued sessions, their steps interleaved in time
// order: a session starts once the others' steps reach its first stamp.
func (im *run) replay(ctx context.Context, queue []job) error {
	var active byTime
	var failed []error
	next := 0
	defer func() {
		for _, p := range active {
			p.f.Close()
		}
	}()
	for next < len(queue) || len(active) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("import: %w (run it again to go on)", err)
		}
		if len(active) == 0 || next < len(queue) && !queue[next].t.Start.After(active[0].next.At) {
			p, err := im.open(&queue[next], next)
			next++
			if err != nil {
				failed = append(failed, im.fail(&queue[next-1], err))
				continue
			}
			if p != nil {
				heap.Push(&active, p)
			}
			continue
		}
		p := active[0]
		err := im.step(ctx, p)
		if err == nil {
			var ok bool
			p.next, ok, err = p.w.Next()
			if err == nil && ok {
				heap.Fix(&active, 0)
				im.draw(active)
				continue
			}
		}
		heap.Pop(&active)
		p.f.Close()
		if err != nil {
			failed = append(failed, im.fail(p.j, err))
			continue
		}
		im.done(ctx, p.j)
		im.draw(active)
	}
	return joinFailed(failed)
}

// open claims a session and reads its first step; nil when the session
// turned out to be someone else's meanwhile.
func (im *run) open(j *job, order int) (*playing, error) {
	x := im.store.Session(project.ID(j.root), j.t.ID)
	resume, taken := false, false
	// Neither the claim nor the mark of the end needs an fsync: a claim
	// lost to a power cut is made again, a lost end replays only the end.
	err := x.UpdateWith(func(st *capture.State) error {
		switch {
		case st.Rev == 0:
			st.Project, st.Transcript, st.Import = j.root, j.t.Path, capture.ImportRunning
			st.LastSeen = j.t.Start
		case st.Import == capture.ImportRunning:
			resume = true
		default:
			taken = true // the hooks started it since the listing
		}
		return nil
	}, x.SaveFast)
	if err != nil {
		return nil, fmt.Errorf("claim the session: %w", err)
	}
	pr := im.projects[j.pl.project]
	if taken {
		pr.Captured++
		im.left[j.pl.project]--
		return nil, nil
	}
	im.current[j.t.ID] = pr
	p := &playing{j: j, order: order}
	if resume {
		st, err := shortterm.Rewind(x, im.mem.Config(j.root).Limits.NoteBytes)
		if err != nil {
			return nil, err
		}
		p.from, p.carried = st.Offset, map[string]bool{}
		for _, c := range st.Carried {
			p.carried[c.Key] = true
		}
		pr.Resumed++
	}
	if !pr.registered && im.sandbox == "" && !j.pl.gone && im.o.Register != nil {
		pr.registered = true
		if err := im.o.Register(j.pl.root); err != nil {
			im.rep.Warnings = append(im.rep.Warnings, fmt.Sprintf("register %s on the desk: %v", j.pl.root, err))
		}
	}
	f, err := safefs.Open(j.t.Path)
	if err != nil {
		return nil, err
	}
	p.f = f
	p.w = NewWalker(f, im.mem.Config(j.root).Limits.TranscriptLineBytes)
	st, ok, err := p.w.Next()
	if err != nil || !ok {
		f.Close()
		if err == nil {
			err = fmt.Errorf("read the transcript: no steps")
		}
		return nil, err
	}
	p.next = st
	return p, nil
}

// step replays p's next step, unless a resumed session replayed it
// before it was killed.
func (im *run) step(ctx context.Context, p *playing) error {
	st := p.next
	if st.Offset < p.from || st.Offset == p.from && st.Event == hook.Stop && p.carried[capture.MessageKey("assistant", st.Text)] {
		return nil
	}
	if err := im.do(ctx, p.j, st); err != nil {
		return fmt.Errorf("replay %s at byte %d: %w", st.Event, st.Offset, err)
	}
	return nil
}

// done marks a replayed session imported and, after its project's last
// one, brings the project's index up to date.
func (im *run) done(ctx context.Context, j *job) {
	x := im.store.Session(project.ID(j.root), j.t.ID)
	err := x.UpdateWith(func(st *capture.State) error {
		st.Import = capture.ImportDone
		if st.Parked {
			// A trivial session keeps its segment for a resume, whose
			// flush reads it from the transcript: the journal of a
			// session months old need not keep its words.
			if err := x.Rewind(st); err != nil {
				return err
			}
			st.Parked, st.Ended = true, true
		}
		return nil
	}, x.SaveFast)
	pr := im.projects[j.pl.project]
	delete(im.current, j.t.ID)
	im.doneB += j.t.Size
	if err != nil {
		im.fail(j, err)
		return
	}
	pr.Replayed++
	im.left[j.pl.project]--
	if im.left[j.pl.project] == 0 {
		im.index(ctx, pr)
	}
}

func (im *run) index(ctx context.Context, pr *ProjectReport) {
	if pr.indexed || im.sandbox != "" || pr.Root == "" || im.o.Index == nil {
		return
	}
	pr.indexed = true
	start := im.o.Now()
	defer func() { im.rep.IndexSeconds += im.o.Now().Sub(start).Seconds() }()
	if err := im.o.Index(ctx, pr.Root); err != nil {
		im.rep.Warnings = append(im.rep.Warnings, fmt.Sprintf("index %s: %v", pr.Root, err))
	}
}

// fail reports a session that could not be imported.
func (im *run) fail(j *job, err error) error {
	delete(im.current, j.t.ID)
	im.left[j.pl.project]--
	im.rep.Failed = append(im.rep.Failed, Skipped{j.t.Path, err.Error()})
	return fmt.Errorf("import %s: %w", j.t.Path, err)
}
