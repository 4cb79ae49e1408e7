// Package testfile writes and reads the real files tests build their
// fixtures from, failing the test on any error so that a fixture that was
// not written cannot pass for one that was:
//
//	testfile.Write(t, filepath.Join(root, "wiki", "a.md"), "# A\n")
//	got := testfile.Read(t, path)
//	dir := testfile.Shared(t, "fixtures", "transcripts")
//	testfile.Golden(t, filepath.Join("testdata", "x.golden"), got)
//	in := testfile.HookInput(proj, "s1", "Stop", "last_assistant_message", "Done.")
//	entries := testfile.HookLog(t, stateDir)
//
// Only tests import it.
package testfile

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the -update flag of every package whose tests use [Golden].
var update = flag.Bool("update", false, "rewrite golden files with the output under test")

// Golden compares got with the golden file at path; `go test -update`
// rewrites the file first. A missing golden file fails the test: a golden
// test never passes without comparing, so pair -update with assertions
// that a rewritten file cannot bless.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		Write(t, path, got)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (go test -update writes it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Write creates path with text, making its directories first.
func Write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns the text of path.
func Read(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Shared returns the path of a fixture in the shared folder beside the
// repository (../shared from the module root). It skips the test when that
// folder is absent (a clone without the fixtures; recorded for the summary
// of `make test`, a failure in CI) and fails it when the folder is there
// but the fixture is not, so that a moved or renamed fixture shows up as a
// failure instead of hiding behind a skip.
func Shared(t testing.TB, elem ...string) string {
	t.Helper()
	p, ok := sharedPath(t, elem...)
	if !ok {
		SkipMissing(t, SharedFolder, "wanted "+filepath.Join(elem...))
	}
	return p
}

// SharedIfPresent is [Shared] for tests that also run on their own
// testdata: without the shared folder it returns false instead of
// skipping; with it, a missing fixture still fails the test.
func SharedIfPresent(t testing.TB, elem ...string) (string, bool) {
	t.Helper()
	p, ok := sharedPath(t, elem...)
	if !ok {
		NoteMissing(t, SharedFolder)
	}
	return p, ok
}

func sharedPath(t testing.TB, elem ...string) (string, bool) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testfile: no go.mod above the test's directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(shared); err != nil {
		return "", false
	}
	p := filepath.Join(append([]string{shared}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared fixture missing: %v", err)
	}
	return p, true
}
