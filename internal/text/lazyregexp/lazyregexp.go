// Package lazyregexp is a regexp compiled on its first use, for the
// package-level patterns of packages that every hook process links but few
// runs need: a pattern compiled at init costs every process (the hooks are
// one short-lived process per event), a lazy one only the run that matches.
//
// Declare it where regexp.MustCompile stood; the methods the call sites use
// are those of *regexp.Regexp, so they do not change (Re gives the rest):
//
//	var dayFile = lazyregexp.New(`^\d{4}-\d{2}-\d{2}\.md$`)
//	... dayFile.MatchString(name) ...
//
// A bad pattern panics at its first use, not at init, except in test
// binaries, where New compiles at once so that any test of the package
// catches it.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a pattern compiled on first use; safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	rx   *regexp.Regexp
}

// inTest is whether this is a `go test` binary: the check costs nothing in
// memhook and keeps bad patterns failing at init under test.
var inTest = strings.HasSuffix(os.Args[0], ".test") || strings.HasSuffix(os.Args[0], ".test.exe")

// New returns expr, compiled when first used.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	if inTest {
		r.Re()
	}
	return r
}

// Re returns the compiled pattern, compiling it on the first call.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.expr) })
	return r.rx
}

func (r *Regexp) MatchString(s string) bool { return r.Re().MatchString(s) }

func (r *Regexp) FindString(s string) string { return r.Re().FindString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.Re().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.Re().FindStringSubmatch(s) }

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) Split(s string, n int) []string { return r.Re().Split(s, n) }
