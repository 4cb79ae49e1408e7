package factory

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A front end that gives no environment or clock (a test, a tool) gets a
// factory that reads none and runs on the wall clock, never a nil call.
func TestNewFillsWhatTheSystemLeavesOut(t *testing.T) {
	f := New(System{})
	if got := f.Getenv("HOME"); got != "" {
		t.Errorf("Getenv(HOME) = %q, want no environment", got)
	}
	if got := f.Environ(); got != nil {
		t.Errorf("Environ() = %v, want none", got)
	}
	if f.Now().IsZero() {
		t.Error("Now() is the zero time, want the wall clock")
	}
	env := map[string]string{"CEREBRO_HOME": filepath.Join(t.TempDir(), "desk")}
	g := New(System{Getenv: func(k string) string { return env[k] }})
	if g.Paths.Home != env["CEREBRO_HOME"] {
		t.Errorf("Paths.Home = %q, want the environment's %q", g.Paths.Home, env["CEREBRO_HOME"])
	}
}

// Anything under the desk is the desk, even inside another repository;
// a directory that is not there is an error with a hint.
func TestProjectRootMapsTheDeskToItself(t *testing.T) {
	work := t.TempDir()
	desk := filepath.Join(work, "desk")
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(desk, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := New(System{Getenv: func(k string) string {
		if k == "CEREBRO_HOME" {
			return desk
		}
		return ""
	}})
	want, _ := filepath.EvalSymlinks(desk)
	if got, err := f.ProjectRoot(filepath.Join(desk, "cases")); err != nil || got != want {
		t.Errorf("ProjectRoot(desk/cases) = %q, %v; want the desk %q", got, err, want)
	}
	wantRepo, _ := filepath.EvalSymlinks(work)
	if got, err := f.ProjectRoot(work); err != nil || got != wantRepo {
		t.Errorf("ProjectRoot(repo) = %q, %v; want the repository %q", got, err, wantRepo)
	}
	_, err := f.ProjectRoot(filepath.Join(work, "missing"))
	var h interface{ Hint() string }
	if err == nil || !errors.As(err, &h) || h.Hint() == "" {
		t.Errorf("ProjectRoot(missing) = %v, want an error with a hint", err)
	}
}

// A directory's project is kept for the run, but per desk: a --home given
// after a first answer makes a folder under it the desk; and a directory
// that was not there is resolved once it is.
func TestProjectRootIsKeptPerDesk(t *testing.T) {
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	desk := filepath.Join(work, "desk")
	f := New(System{})
	repo, _ := filepath.EvalSymlinks(work)
	if got, err := f.ProjectRoot(desk); err == nil {
		t.Fatalf("ProjectRoot(desk) before it exists = %q, want an error", got)
	}
	if err := os.MkdirAll(desk, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := f.ProjectRoot(desk); err != nil || got != repo {
		t.Fatalf("ProjectRoot(desk) once it exists = %q, %v; want the repository %q", got, err, repo)
	}
	if err := f.UseHome(desk, "test"); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(desk)
	if got, err := f.ProjectRoot(desk); err != nil || got != want {
		t.Errorf("ProjectRoot(desk) with --home desk = %q, %v; want the desk %q", got, err, want)
	}
}
