// Package safefs is the one file layer for everything cerebro reads and
// writes under a project's .claude/, the desk and the vault: places a
// cloned repository controls, so hostile input.
//
// Open a file with [Open] (read) or [OpenFile] (any flags), read a whole
// note with [ReadFile] and its byte limit, and do several operations in one
// directory (a temp file, then a rename) through a [Dir] from [OpenDir].
// Every open:
//
//   - never follows a symbolic link in the final component (the link is
//     refused with [ErrSymlink], never written through);
//   - never resolves outside its root: a path under a project's or the
//     desk's .claude/memory_short, .claude/memory_long or .claude/cerebro.toml
//     is confined to the folder holding that .claude ([RootOf]), so a planted
//     .claude or memory_long symlink to elsewhere is refused with
//     [ErrEscapes]; [OpenDir] takes any other root explicitly;
//   - refuses a FIFO, socket, device or directory where a file should be
//     with [ErrNotRegular], and opens non-blocking first so that such a file
//     can never hang the caller before its type is checked;
//   - reads at most a stated number of bytes: a file over the limit is
//     refused with [ErrTooLarge] before anything is read.
package safefs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Errors a refusal wraps; test with errors.Is.
var (
	ErrSymlink    = errors.New("is a symbolic link (refused: cerebro never writes or reads through one)")
	ErrNotRegular = errors.New("is not a regular file")
	ErrEscapes    = errors.New("resolves outside its root")
	ErrTooLarge   = errors.New("is larger than the limit")
	ErrNotDir     = errors.New("is not a directory")
)

// Refused reports whether err is one of the refusals of this package (as
// opposed to an ordinary I/O error): callers log it as a skip.
func Refused(err error) bool {
	return errors.Is(err, ErrSymlink) || errors.Is(err, ErrNotRegular) ||
		errors.Is(err, ErrEscapes) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNotDir) ||
		errors.Is(err, ErrKeyFile) || errors.Is(err, ErrLinkInPath)
}

// confined are the entries right below a .claude folder that cerebro owns
// and that are confined to the folder holding .claude. The rest of .claude
// (Claude Code's own settings, the plugin state under ~/.claude/plugins) is
// not cerebro's layout and may legitimately be a link elsewhere.
var confined = map[string]bool{"memory_short": true, "memory_long": true, "cerebro.toml": true, ".cerebro": true}

// RootOf returns the folder a path is confined to: the parent of the last
// ".claude" component when the component after it is one of cerebro's
// (memory_short, memory_long, cerebro.toml, .cerebro), else the innermost
// root registered with [SetRoots] that holds the path (the desk, the state
// dir), else "" (only the final component is guarded).
func RootOf(path string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for i := len(parts) - 2; i >= 1; i-- {
		if parts[i] == ".claude" && confined[parts[i+1]] {
			root := filepath.FromSlash(strings.Join(parts[:i], "/"))
			if root == "" {
				root = string(filepath.Separator)
			}
			return root
		}
	}
	return registeredRoot(path)
}

// Dir is an open directory, confined to its root: names given to its
// methods are single components in that directory.
type Dir struct {
	r    *os.Root
	path string
}

// Path is the directory's path as given.
func (d *Dir) Path() string { return d.path }

// FS is the directory as an [fs.FS] confined to it: a walk does not leave
// it through a symbolic link.
func (d *Dir) FS() fs.FS { return d.r.FS() }

// Close releases the directory.
func (d *Dir) Close() error { return d.r.Close() }

// OpenDir opens dir, which must lie within root (root "" means dir is its
// own root). With create, missing directories below root (and root itself)
// are made. A component that is a symlink leading outside root is refused
// with [ErrEscapes]; a component that is not a directory is refused too.
func OpenDir(root, dir string, create bool) (*Dir, error) {
	return openDir(root, dir, create, 0o755)
}

func openDir(root, dir string, create bool, perm fs.FileMode) (*Dir, error) {
	dir = filepath.Clean(dir)
	rel := "."
	if root == "" {
		root = dir
	} else {
		root = filepath.Clean(root)
		r, err := filepath.Rel(root, dir)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return nil, fmt.Errorf("open directory %s: %w (root %s)", dir, ErrEscapes, root)
		}
		rel = r
	}
	if create {
		if err := os.MkdirAll(root, perm); err != nil {
			return nil, fmt.Errorf("create directory %s: %w", root, err)
		}
	}
	// Opening a directory does not use O_NONBLOCK or O_DIRECTORY for its
	// last component: a FIFO there would block, so the type is checked first.
	if fi, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("open directory %s: %w", root, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open directory %s: %w", root, ErrNotDir)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open directory %s: %w", root, err)
	}
	if rel == "." {
		return &Dir{r: r, path: dir}, nil
	}
	defer r.Close()
	if create {
		if err := r.MkdirAll(rel, perm); err != nil {
			if errors.Is(err, fs.ErrExist) {
				err = ErrNotDir // a file, FIFO or dangling link where a directory should be
			}
			return nil, fmt.Errorf("create directory %s: %w", dir, rootErr(err, root))
		}
	}
	if fi, err := r.Stat(rel); err != nil {
		return nil, fmt.Errorf("open directory %s: %w", dir, rootErr(err, root))
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open directory %s: %w", dir, ErrNotDir)
	}
	sub, err := r.OpenRoot(rel)
	if err != nil {
		return nil, fmt.Errorf("open directory %s: %w", dir, rootErr(err, root))
	}
	return &Dir{r: sub, path: dir}, nil
}

// rootErr turns os.Root's escape error (unexported) into [ErrEscapes].
func rootErr(err error, root string) error {
	if err != nil && strings.Contains(err.Error(), "escapes") {
		return fmt.Errorf("%w (root %s): %v", ErrEscapes, root, err)
	}
	return err
}

// checkType refuses anything but a regular file.
func checkType(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("%s %w", path, ErrSymlink)
	case m.IsDir():
		return fmt.Errorf("%s is a directory: %w", path, ErrNotRegular)
	case !m.IsRegular():
		return fmt.Errorf("%s is a %s: %w", path, kind(m), ErrNotRegular)
	}
	return nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// Lstat describes name without following it.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) { return d.r.Lstat(name) }

// OpenFile opens name in d with flag, never through a symlink and only as a
// regular file. A missing name is created (with O_CREATE) exclusively, so
// a link planted between the check and the open is not followed either.
func (d *Dir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	full := filepath.Join(d.path, name)
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("open %s: not a single file name", full)
	}
	for attempt := 0; ; attempt++ {
		before, err := d.r.Lstat(name)
		switch {
		case err == nil:
			if err := checkType(full, before); err != nil {
				return nil, err
			}
			f, err := d.r.OpenFile(name, (flag&^(os.O_CREATE|os.O_EXCL))|oNonblock, perm)
			if err != nil {
				return nil, fmt.Errorf("open %s: %w", full, err)
			}
			return verify(f, full, before)
		case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0:
			f, err := d.r.OpenFile(name, flag|os.O_EXCL|oNonblock, perm)
			if errors.Is(err, fs.ErrExist) && flag&os.O_EXCL == 0 && attempt < 3 {
				continue // created meanwhile (a concurrent writer): check it
			}
			if err != nil {
				return nil, fmt.Errorf("create %s: %w", full, err)
			}
			return verify(f, full, nil)
		default:
			return nil, fmt.Errorf("open %s: %w", full, err)
		}
	}
}

// verify checks what was actually opened: a regular file, and the same one
// the Lstat saw (not a link swapped in between).
func verify(f *os.File, full string, before fs.FileInfo) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", full, err)
	}
	if err := checkType(full, st); err != nil {
		f.Close()
		return nil, err
	}
	if before != nil && !os.SameFile(before, st) {
		f.Close()
		return nil, fmt.Errorf("%s changed while being opened: %w", full, ErrSymlink)
	}
	if err := checkFS(f, full); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Rename renames oldname to newname within d. An existing newname that is
// not a regular file is refused, so a replace never lands on a planted
// link, FIFO or directory.
func (d *Dir) Rename(oldname, newname string) error {
	if fi, err := d.r.Lstat(newname); err == nil {
		if err := checkType(filepath.Join(d.path, newname), fi); err != nil {
			return err
		}
	}
	if err := d.r.Rename(oldname, newname); err != nil {
		return fmt.Errorf("rename %s to %s in %s: %w", oldname, newname, d.path, err)
	}
	return nil
}

// Remove removes name from d (a link itself, never its target).
func (d *Dir) Remove(name string) error { return d.r.Remove(name) }

// Sync flushes the directory entry changes (a rename) to disk; best effort
// where directories cannot be synced.
func (d *Dir) Sync() {
	if f, err := d.r.Open("."); err == nil {
		f.Sync()
		f.Close()
	}
}

// OpenFile opens path with flag under the rules of the package, confined
// to [RootOf](path). With O_CREATE, missing parent directories are made.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	d, err := OpenDir(RootOf(path), filepath.Dir(path), flag&os.O_CREATE != 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenFile(filepath.Base(path), flag, perm)
}

// Open opens path for reading under the rules of the package.
func Open(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY, 0) }

// ReadFile reads the whole of path, refusing it with [ErrTooLarge] when it
// holds more than limit bytes (limit <= 0: no limit, for callers that
// bound the content otherwise).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// ReadAll reads f to its end, at most limit bytes (see [ReadFile]).
func ReadAll(f *os.File, path string, limit int64) ([]byte, error) {
	size := int64(0)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	if limit > 0 && size > limit {
		return nil, tooLarge(path, size, limit)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, tooLarge(path, int64(len(buf)), limit)
	}
	return buf, nil
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s holds %d bytes: %w of %d bytes", path, size, ErrTooLarge, limit)
}

// Append adds data to path (created with perm when missing) in one write.
// The caller serialises concurrent appenders; sync asks for an fsync.
func Append(path string, data []byte, perm fs.FileMode, sync bool) error {
	f, err := OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return fmt.Errorf("open for append: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			f.Close()
			return fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// Lstat describes path without following its final component, confined
// like [OpenFile].
func Lstat(path string) (fs.FileInfo, error) {
	d, err := OpenDir(RootOf(path), filepath.Dir(path), false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Lstat(filepath.Base(path))
}

// CheckFile reports why path could not be opened as a regular file under
// the rules of the package (nil when it can, or when it does not exist).
func CheckFile(path string) error {
	fi, err := Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkType(path, fi)
}

// MkdirAll makes dir and its parents, confined like [OpenFile] when dir is
// within cerebro's layout under a .claude folder or a registered root.
func MkdirAll(dir string) error { return MkdirAllMode(dir, 0o755) }

// MkdirAllMode is [MkdirAll] with the permissions of the folders it makes.
// A .cerebro folder under a .claude folder gets a .gitignore of "*".
func MkdirAllMode(dir string, perm fs.FileMode) error {
	d, err := openDir(RootOf(filepath.Join(dir, "x")), dir, true, perm)
	if err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	ignoreCerebroDir(dir)
	return nil
}

// cerebroIgnore keeps a .cerebro folder out of the project's git: locks,
// caches, staging and long-term memory's history are cerebro's
// bookkeeping, and a person's `git add -A` picked them up.
const cerebroIgnore = "# written by memhook: cerebro's locks, caches and histories, never the project's files\n*\n"

// ignoreCerebroDir writes the .gitignore of the innermost .cerebro folder
// of a .claude folder on dir's path, when it has none. A failure only
// leaves the folder visible to git, so it is not reported.
func ignoreCerebroDir(dir string) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(dir)), "/")
	claude := false
	at := -1
	for i, p := range parts {
		switch {
		case p == ".claude":
			claude = true
		case p == ".cerebro" && claude:
			at = i
		}
	}
	if at < 0 {
		return
	}
	p := filepath.Join(filepath.FromSlash(strings.Join(parts[:at+1], "/")), ".gitignore")
	if _, err := Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	f, err := OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return
	}
	f.WriteString(cerebroIgnore)
	f.Close()
}

// DefaultNoteBytes bounds [ReadNote] when its caller passes no limit: the
// default of the limits.note_bytes setting.
const DefaultNoteBytes int64 = 8 << 20

// ReadNote reads a Markdown note, a page, a daily file, log.md or
// План-факт.md: [ReadFile] with limit, the limits.note_bytes of the project
// (or the desk) the note belongs to; a note over it is refused, not read.
// The caller passes it so that each project in one process keeps its own
// (night --all, flush --pending); 0 takes [DefaultNoteBytes], never
// unbounded.
func ReadNote(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultNoteBytes
	}
	return ReadFile(path, limit)
}

// ReadDirNames lists the names in dir (confined like [OpenFile]); a FIFO or
// file where the directory should be is refused without blocking.
func ReadDirNames(dir string) ([]string, error) {
	d, err := OpenDir(RootOf(filepath.Join(dir, "x")), dir, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := d.r.Open(".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return names, fmt.Errorf("list %s: %w", dir, err)
	}
	return names, nil
}

// ReadDir is [os.ReadDir] under the rules of [ReadDirNames]: entries sorted
// by name, a FIFO or file where the directory should be refused. Each
// entry's type comes from the listing itself: a directory opened through
// an os.Root stats every entry as it is listed (a folder of 100,000 day
// files cost 100,000 lstat calls to find the newest three), so the listing
// is read from a plain descriptor of the directory the root opened, and an
// entry's Info, when asked, is an [Lstat] under the rules of the package.
func ReadDir(dir string) ([]fs.DirEntry, error) {
	d, err := OpenDir(RootOf(filepath.Join(dir, "x")), dir, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := d.r.Open(".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	ents, err := readDirTypes(f, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for i, e := range ents {
		ents[i] = dirEntry{e, dir}
	}
	return ents, nil
}

// dirEntry is an entry of [ReadDir] whose Info is a confined [Lstat].
type dirEntry struct {
	fs.DirEntry
	dir string
}

func (e dirEntry) Info() (fs.FileInfo, error) { return Lstat(filepath.Join(e.dir, e.Name())) }

// Notes reads many notes one after another (an index's update reads
// thousands from a few folders), opening each folder once rather than for
// every file: a note read through it costs its own checks (see
// [Dir.OpenFile]) without the walk from the root to its folder again.
// What it reads is confined as [ReadNote]'s is. Close releases the
// folders; the zero value is ready to use.
type Notes struct {
	dirs map[string]*Dir
}

// maxNoteDirs bounds the folders a Notes keeps open at once.
const maxNoteDirs = 64

// Read is [ReadNote] of path through the folders n keeps open.
func (n *Notes) Read(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultNoteBytes
	}
	dir := filepath.Dir(path)
	d := n.dirs[dir]
	if d == nil {
		var err error
		if d, err = OpenDir(RootOf(path), dir, false); err != nil {
			return nil, err
		}
		if len(n.dirs) >= maxNoteDirs {
			n.Close()
		}
		if n.dirs == nil {
			n.dirs = map[string]*Dir{}
		}
		n.dirs[dir] = d
	}
	f, err := d.OpenFile(filepath.Base(path), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// Close closes the folders n holds open.
func (n *Notes) Close() {
	for k, d := range n.dirs {
		d.Close()
		delete(n.dirs, k)
	}
}
