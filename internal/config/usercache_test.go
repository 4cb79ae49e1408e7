package config

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The user file is parsed once a process: a second load with the file
// unchanged takes the first parse, and an edit (another size or another
// modification time) is read again.
func TestUserFileParsedOncePerVersion(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	env := mapEnv(map[string]string{"CEREBRO_CONFIG": user, "HOME": dir})
	old := time.Now().Add(-time.Hour)
	write := func(body string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(user, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(user, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}

	write("[short]\nflush_chars = 5000\n", old)
	if got := Load(env, "").Short.FlushChars; got != 5000 {
		t.Fatalf("first load: flush_chars = %d, want 5000", got)
	}
	// The same size and modification time: only a load that did not read
	// the file again still sees 5000.
	write("[short]\nflush_chars = 6000\n", old)
	e := Load(env, "")
	if e.Short.FlushChars != 5000 || e.Source("short.flush_chars") != SourceUser+" "+user {
		t.Fatalf("second load of an unchanged file: flush_chars = %d from %q, want the first parse's 5000",
			e.Short.FlushChars, e.Source("short.flush_chars"))
	}
	// A caller changing its Effective does not change the next one's.
	e.TrustProjectConfig = append(e.TrustProjectConfig, "/elsewhere")
	if got := Load(env, "").TrustProjectConfig; len(got) != 0 {
		t.Fatalf("trust_project_config = %v after a caller changed its copy", got)
	}

	write("[short]\nflush_chars = 7000\n", old.Add(time.Second))
	if got := Load(env, "").Short.FlushChars; got != 7000 {
		t.Fatalf("after an edit that changed the modification time: flush_chars = %d, want 7000", got)
	}
	write("[short]\nflush_chars = 70000\n", old.Add(time.Second))
	if got := Load(env, "").Short.FlushChars; got != 70000 {
		t.Fatalf("after an edit that changed the size: flush_chars = %d, want 70000", got)
	}
}

// A file written just now may be written again within its timestamp's
// granularity at the same size: it is read each time.
func TestNewUserFileReadEachTime(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	env := mapEnv(map[string]string{"CEREBRO_CONFIG": user, "HOME": dir})
	now := time.Now()
	for _, n := range []int{5000, 6000} {
		if err := os.WriteFile(user, []byte(fmt.Sprintf("[short]\nflush_chars = %d\n", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(user, now, now); err != nil {
			t.Fatal(err)
		}
		if got := Load(env, "").Short.FlushChars; got != n {
			t.Fatalf("flush_chars = %d, want %d", got, n)
		}
	}
}

// Warnings about the user file come with its cached parse too.
func TestCachedUserFileKeepsItsWarnings(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	env := mapEnv(map[string]string{"CEREBRO_CONFIG": user, "HOME": dir})
	if err := os.WriteFile(user, []byte("[short]\nflush_chars = 5000\n[bogus]\nx = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(user, old, old); err != nil {
		t.Fatal(err)
	}
	first, second := Load(env, ""), Load(env, "")
	if len(first.Warnings) != 1 || len(second.Warnings) != 1 || first.Warnings[0] != second.Warnings[0] {
		t.Fatalf("warnings: first load %v, second %v; want the one about the unknown key in both", first.Warnings, second.Warnings)
	}
}
