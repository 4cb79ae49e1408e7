package project

import (
	"path/filepath"
	"strings"
)

// RootFor is [Root] that knows the org desk: any directory at or under
// desk (the $CEREBRO_HOME folder) belongs to the desk itself, even when the
// desk is not a repository of its own or sits inside one (a home folder kept
// in git). Sessions run there then keep their short-term memory in
// <desk>/.claude/memory_short/daily/, beside the registry and the rollup,
// which is exactly [config.Paths.DeskShortDir]/daily. An empty desk makes
// it plain [Root].
func RootFor(dir, desk string) (string, error) {
	if desk != "" {
		if in, ok := within(dir, desk); ok {
			return in, nil
		}
	}
	return Root(dir)
}

// within reports whether dir is desk or below it, comparing resolved paths.
func within(dir, desk string) (string, bool) {
	resolve := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if ev, err := filepath.EvalSymlinks(p); err == nil {
			p = ev
		}
		return filepath.Clean(p)
	}
	d, k := resolve(dir), resolve(desk)
	if d == k || strings.HasPrefix(d, k+string(filepath.Separator)) {
		return k, true
	}
	return "", false
}
