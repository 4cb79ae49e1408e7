// Package project answers one question for every read and write path in
// cerebro: which project does a directory belong to, and where does that
// project keep its memory.
//
// A project is the top level of the git repository holding the directory;
// a linked worktree maps to its main repository so that every worktree
// shares one memory; outside git the directory itself is the project.
// [Root] computes it without running git, by reading the .git entries.
package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Root returns the project root for dir. dir must exist.
func Root(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve project of %s: %w", dir, err)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	} else {
		return "", fmt.Errorf("resolve project of %s: %w", dir, err)
	}
	for d := abs; ; {
		gitPath := filepath.Join(d, ".git")
		if fi, err := os.Lstat(gitPath); err == nil {
			if fi.IsDir() {
				return d, nil
			}
			if main, ok := mainOfWorktree(gitPath); ok {
				return main, nil
			}
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}

// gitFileBytes bounds a .git file and a commondir: one path each.
const gitFileBytes = 16 << 10

// mainOfWorktree follows a ".git" file ("gitdir: <main>/.git/worktrees/<n>")
// and the worktree's commondir back to the main repository's work tree.
// Submodules also use a .git file, pointing into the superproject's
// .git/modules; those have no commondir and stay their own project.
func mainOfWorktree(gitFile string) (string, bool) {
	// Both files are the repository's, so hostile: read through safefs,
	// small, never through a link or from a FIFO or device.
	data, err := safefs.ReadFile(gitFile, gitFileBytes)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(filepath.Dir(gitFile), gitdir)
	}
	common, err := safefs.ReadFile(filepath.Join(gitdir, "commondir"), gitFileBytes)
	if err != nil {
		return "", false
	}
	c := strings.TrimSpace(string(common))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitdir, c)
	}
	c = filepath.Clean(c)
	if filepath.Base(c) != ".git" {
		return "", false // a bare main repository has no work tree to name
	}
	return filepath.Dir(c), true
}

// Layout is where one project keeps its memory.
type Layout struct {
	Root string // the project root from [Root]
}

// ShortDir is the short-term (Q1) memory folder.
func (l Layout) ShortDir() string { return filepath.Join(l.Root, ".claude", "memory_short") }

// DailyDir holds one distillate file per day.
func (l Layout) DailyDir() string { return filepath.Join(l.ShortDir(), "daily") }

// ArchiveDir holds closed days moved there by compile.
func (l Layout) ArchiveDir() string { return filepath.Join(l.DailyDir(), "_archive") }

// LongDir is the long-term (Q2) memory folder; its existence means long-term
// memory is active for the project.
func (l Layout) LongDir() string { return filepath.Join(l.Root, ".claude", "memory_long") }

// PlanFact is the project's plan-vs-fact status file read by the rollup.
func (l Layout) PlanFact() string { return filepath.Join(l.LongDir(), "План-факт.md") }

// Core is the small always-injected file of long-term memory.
func (l Layout) Core() string { return filepath.Join(l.LongDir(), "CORE.md") }

// LongActive reports whether long-term memory is switched on.
func (l Layout) LongActive() bool {
	fi, err := os.Stat(l.LongDir())
	if err != nil || !fi.IsDir() {
		return false
	}
	// `memhook long off` keeps every file and leaves this marker instead.
	_, err = os.Stat(filepath.Join(l.LongDir(), LongOffMarker))
	return err != nil
}

// LongOffMarker is the file `memhook long off` leaves in the long-term root:
// the files stay, but the project no longer counts as active.
const LongOffMarker = ".cerebro-off"

// ID is a stable, filesystem-safe identifier for a project root, used for
// state files and the registry: the base name plus a short hash of the path,
// so that two projects with the same name never share state.
func ID(root string) string {
	return slug(filepath.Base(root)) + "-" + shortHash(root)
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r > 127 && (r >= 'а' && r <= 'я' || r == 'ё'):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		out = "project"
	}
	return out
}

func shortHash(s string) string {
	// FNV-1a, 32 bits: stable across releases and platforms.
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%08x", h)
}
