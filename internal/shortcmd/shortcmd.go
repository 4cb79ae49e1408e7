// Package shortcmd owns the short slash commands: Claude Code names every
// plugin command /cerebro:NAME, so the short forms the product promised
// (/org_ingest, /recall, …) are user-level files in ~/.claude/commands
// that run the plugin's memhook. Each is made from the plugin's own
// commands/<name>.md and carries a marker, so that install replaces and
// remove deletes only cerebro's files, never a person's own.
//
// Use it as
//
//	st := shortcmd.Status(dir, names, pluginRoot)   // for status and doctor
//	res, err := shortcmd.Install(dir, names, pluginRoot)
//	res, err := shortcmd.Remove(dir, names)
//
// where names is the list of short commands (cli's ShortCommands).
package shortcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Marker marks a command file as cerebro's. It is a YAML comment in the
// frontmatter, so it costs the model no tokens.
const Marker = "# cerebro: installed by `memhook commands install`; `memhook commands remove` deletes it"

// State is what one short command's file is.
type State int

const (
	Missing State = iota
	Ours
	Theirs
	// Stale is cerebro's file, written from an older text of the
	// plugin's command or for a checkout that has moved: the command
	// still runs, with the instructions it had when installed.
	Stale
)

func (s State) String() string {
	return [...]string{"not installed", "installed", "a person's own file (left alone)", "installed, out of date (memhook commands install refreshes it)"}[s]
}

// read reports whose file path is, with its text when it is cerebro's; it
// reads at most 64 KiB through the safe file layer, which never follows a
// symbolic link (a link is nobody's to overwrite) nor opens a FIFO.
func read(path string) (State, []byte, error) {
	data, err := safefs.ReadFile(path, 64<<10)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Missing, nil, nil
	case safefs.Refused(err):
		return Theirs, nil, nil
	case err != nil:
		return Theirs, nil, err
	case bytes.Contains(data, []byte(Marker)):
		return Ours, data, nil
	}
	return Theirs, nil, nil
}

// Status lists each short command's state in dir. With the plugin
// checkout's root, a file of cerebro's that is not what install would
// write now is out of date; when the checkout's command cannot be read
// there is nothing to compare, and it counts as current.
func Status(dir string, names []string, root string) map[string]State {
	out := map[string]State{}
	for _, n := range names {
		st, data, _ := read(filepath.Join(dir, n+".md"))
		if st == Ours && root != "" {
			if want, err := Text(root, n, names); err == nil && string(data) != want {
				st = Stale
			}
		}
		out[n] = st
	}
	return out
}

// Installed is what Install did.
type Installed struct {
	Count   int
	Skipped []string // the paths of a person's own files, left as they are
	Runs    string   // the memhook the commands run
}

// Install writes every short command into dir from the checkout at root,
// skipping a file that is not cerebro's.
func Install(dir string, names []string, root string) (Installed, error) {
	var res Installed
	root, err := filepath.Abs(root)
	if err != nil {
		return res, err
	}
	// The path goes into a shell line between double quotes.
	if strings.ContainsAny(root, "\"`$\\\n") {
		return res, fmt.Errorf("the plugin path %q holds a character a shell line cannot quote safely; move the checkout", root)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, fmt.Errorf("create %s: %w", dir, err)
	}
	res.Runs = filepath.Join(root, "scripts", "memhook")
	for _, n := range names {
		path := filepath.Join(dir, n+".md")
		st, _, err := read(path)
		if err != nil {
			return res, fmt.Errorf("read %s: %w", path, err)
		}
		if st == Theirs {
			res.Skipped = append(res.Skipped, path)
			continue
		}
		text, err := Text(root, n, names)
		if err != nil {
			return res, err
		}
		if err := atomicfile.Write(path, []byte(text), 0o644); err != nil {
			return res, fmt.Errorf("write %s: %w", path, err)
		}
		res.Count++
	}
	return res, nil
}

// Removed is what Remove did.
type Removed struct {
	Count int
	Kept  []string // the paths of a person's own files
}

// Remove deletes cerebro's short commands from dir, and dir itself when
// nothing else is left in it.
func Remove(dir string, names []string) (Removed, error) {
	var res Removed
	for _, n := range names {
		path := filepath.Join(dir, n+".md")
		st, _, err := read(path)
		if err != nil {
			return res, fmt.Errorf("read %s: %w", path, err)
		}
		switch st {
		case Ours:
			if err := os.Remove(path); err != nil {
				return res, err
			}
			res.Count++
		case Theirs:
			res.Kept = append(res.Kept, path)
		}
	}
	// An empty folder is no one's content: leave no trace of the install.
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		_ = os.Remove(dir)
	}
	return res, nil
}
