package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/runlog"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/spf13/cobra"
)

// FlushOptions are the inputs of `memhook flush`.
type FlushOptions struct {
	*Factory
	Session string // one session by id
	Pending bool   // every pending session of every project
	Project string // else: the pending sessions of this directory's project
	Trigger string
	Final   bool
}

func newCmdFlush(f *Factory, runF func(*FlushOptions) error) *cobra.Command {
	opts := &FlushOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "flush",
		Short: "Write unflushed short-term segments to the daily files now",
		Long: `Write unflushed short-term segments to the daily files.

With --session, flush that session (the claude distiller's background run
uses this). With --pending, flush every session of every project left with
an unflushed segment (a cancelled SessionEnd, a killed process). Without
either, flush the pending sessions of the current directory's project.
Each segment is written exactly once however many flushers race.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return flushRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Session, "session", "", "flush this session id")
	cmd.Flags().BoolVar(&opts.Pending, "pending", false, "flush every pending session of every project")
	cmd.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project whose pending sessions to flush")
	cmd.Flags().StringVar(&opts.Trigger, "trigger", "", "trigger written in the section heading (default manual, or recovery with --pending)")
	cmd.Flags().BoolVar(&opts.Final, "final", false, "the session is over: drop it if trivial")
	return cmd
}

func flushRun(opts *FlushOptions) error {
	store := shortterm.Store{Root: opts.Paths.Sessions()}
	var targets []*shortterm.Session
	trigger, final := opts.Trigger, opts.Final
	if trigger != "" && !slices.Contains(shortterm.Triggers(), trigger) {
		return withHint(fmt.Errorf("flush: unknown --trigger %q", trigger), "use one of: "+strings.Join(shortterm.Triggers(), ", "))
	}
	switch {
	case opts.Session != "":
		s, err := store.Find(opts.Session)
		if err != nil {
			return withHint(err, "the session has captured nothing yet, or its state dir differs (see memhook doctor)")
		}
		targets = append(targets, s)
		if trigger == "" {
			trigger = shortterm.TriggerManual
		}
	case opts.Pending:
		ids, err := store.Projects()
		if err != nil {
			return err
		}
		for _, id := range ids {
			p, err := store.Pending(id)
			if err != nil {
				return err
			}
			targets = append(targets, p...)
		}
		if trigger == "" {
			trigger = shortterm.TriggerRecovery
		}
	default:
		root, err := opts.projectRoot(opts.Project)
		if err != nil {
			return err
		}
		p, err := store.Pending(project.ID(root))
		if err != nil {
			return err
		}
		targets = p
		if trigger == "" {
			trigger = shortterm.TriggerManual
		}
	}
	if len(targets) == 0 {
		fmt.Fprintln(opts.Out, "nothing to flush: no session has unflushed dialogue")
		return nil
	}
	log := runlog.Open(opts.Paths.Logs(), 1<<20)
	var errs []error
	for _, s := range targets {
		if err := flushOne(opts.Factory, log, s, trigger, final); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// flushOne flushes a session, then takes up any flush a hook asked for
// while this one ran (the claude distiller's hooks do not start a second
// background run); the last look and the release of the session's
// background slot are one locked step.
func flushOne(f *Factory, log *runlog.Log, s *shortterm.Session, trigger string, final bool) error {
	for range 8 {
		if err := flushStep(f, log, s, trigger, final); err != nil {
			return err
		}
		again := false
		err := s.Update(func(st *shortterm.State) error {
			if st.Again != "" {
				trigger, final, again = st.Again, st.AgainFinal, true
				st.Again, st.AgainFinal = "", false
				return nil
			}
			st.Background = time.Time{}
			return nil
		})
		if err != nil || !again {
			return err
		}
	}
	return nil
}

func flushStep(f *Factory, log *runlog.Log, s *shortterm.Session, trigger string, final bool) error {
	start := f.Now()
	st, err := s.Load()
	if err != nil {
		return err
	}
	cfg, err := f.Config(st.Project)
	if err != nil {
		return err
	}
	// A pending session counts as over (so a trivial one is parked) only
	// once it ended or fell silent; a live one is flushed but never judged.
	over := final || st.Ended || f.Now().Sub(st.LastSeen) >= recoverIdle
	o := f.flushOptions(cfg, trigger, over)
	if cfg.Distiller.Kind == "claude" {
		o.Distill = redacting(cfg, f.claudeDistill(cfg, log))
	}
	res, err := s.Flush(context.Background(), o)
	e := runlog.Entry{Time: start, Event: "flush", Session: s.ID, Level: "info",
		MS: float64(f.Now().Sub(start).Microseconds()) / 1000}
	switch {
	case err != nil:
		e.Level, e.Message = "error", fmt.Sprintf("%s flush: %v", trigger, err)
		log.Write(e)
		return fmt.Errorf("flush session %s: %w", s.ID, err)
	case res.File != "":
		e.Message = fmt.Sprintf("%s flush: %d items to %s", trigger, res.Items, res.File)
		fmt.Fprintf(f.Out, "%s: wrote section %d (%d replies, %d characters) to %s\n", s.ID, res.Seq, res.Replies, res.Chars, res.File)
	default:
		e.Message = fmt.Sprintf("%s flush skipped: %s", trigger, res.Skipped)
		fmt.Fprintf(f.Out, "%s: skipped (%s)\n", s.ID, res.Skipped)
	}
	log.Write(e)
	return nil
}
