package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// The user file, parsed once a process: a desk search loads every
// registered project's settings, each over the same user file, and those
// 64 loads were 12–14% of its CPU.

// racyWindow is how old the user file must be for its parse to be kept:
// a file written again within the file system's timestamp granularity
// (2 s on FAT, a clock tick on most) and at the same size would look
// unchanged, so a file that new is read again each time, as git treats
// its racily clean entries.
const racyWindow = 2 * time.Second

// userStamp says which version of the user file a parse came from: an
// edit changes its size or its modification time.
type userStamp struct {
	path    string
	size    int64
	modTime int64 // Unix nanoseconds
}

// userLayer is the configuration after the user file's layer, with what
// that layer said about it.
type userLayer struct {
	stamp    userStamp
	config   Config
	sources  map[string]string
	warnings []string
	broken   []string
}

var userCache struct {
	sync.Mutex
	layer *userLayer
}

// loadUser applies the user file's layer, from the process's last parse
// of it when the file has neither changed size nor modification time
// since. Whether it has is a stat, not an open: opening it through
// safefs walks its folders from the root, which cost as much as the
// parse. What is parsed is still read through safefs.
func (e *Effective) loadUser() {
	path := e.UserFile
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return // nothing there, not even a dangling link safefs would refuse
	}
	// only a regular file is stamped: anything else (a link, a FIFO) goes
	// to safefs each time, which refuses it with a warning
	stamp, stamped := userStamp{}, err == nil && fi.Mode().IsRegular()
	if stamped {
		stamp = userStamp{path: path, size: fi.Size(), modTime: fi.ModTime().UnixNano()}
	}
	userCache.Lock()
	cached := userCache.layer
	userCache.Unlock()
	if stamped && cached != nil && cached.stamp == stamp {
		e.restore(cached)
		return
	}
	data, err := safefs.ReadFile(path, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	e.layer(func() { e.mergeData(path, SourceUser, data, err) })
	// A file changed between the stat and the read is cached under the
	// older stamp: the next load's stat differs and reads it again.
	if err != nil || !stamped || time.Since(fi.ModTime()) < racyWindow {
		return
	}
	fresh := &userLayer{stamp: stamp}
	fresh.config, fresh.sources = e.Config.clone(), maps.Clone(e.sources)
	fresh.warnings, fresh.broken = slices.Clone(e.Warnings), slices.Clone(e.Broken)
	userCache.Lock()
	userCache.layer = fresh
	userCache.Unlock()
}

// restore puts a cached user layer into e, copied: a caller may change
// its Effective.
func (e *Effective) restore(l *userLayer) {
	e.Config, e.sources = l.config.clone(), maps.Clone(l.sources)
	e.Warnings, e.Broken = slices.Clone(l.warnings), slices.Clone(l.broken)
}

// clone copies c with its own lists.
func (c Config) clone() Config {
	walk(reflect.ValueOf(&c).Elem(), func(_ string, v reflect.Value) {
		if v.Kind() == reflect.Slice && !v.IsNil() {
			cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(cp, v)
			v.Set(cp)
		}
	})
	return c
}
