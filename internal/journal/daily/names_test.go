package daily

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestNamesRoundTrip(t *testing.T) {
	day := time.Date(2026, 3, 9, 23, 30, 0, 0, time.Local)
	if got := Name(day); got != "2026-03-09.md" {
		t.Fatalf("Name = %q", got)
	}
	if got, ok := DateOf(Name(day)); !ok || got != "2026-03-09" {
		t.Fatalf("DateOf(Name) = %q, %v", got, ok)
	}
	if got, ok := ParseName(Name(day), time.Local); !ok || !got.Equal(time.Date(2026, 3, 9, 0, 0, 0, 0, time.Local)) {
		t.Fatalf("ParseName = %v, %v", got, ok)
	}
	if Path("/d", day) != File("/d", "2026-03-09") {
		t.Fatalf("Path %q and File %q disagree", Path("/d", day), File("/d", "2026-03-09"))
	}
	for _, bad := range []string{"2026-13-01.md", "2026-02-30.md", "2026-03-09", "2026-03-09.md.bak", "notes.md", "2026-3-9.md", " 2026-03-09.md", "2026-03-09.MD"} {
		if d, ok := DateOf(bad); ok {
			t.Errorf("DateOf(%q) = %q, want no date", bad, d)
		}
	}
}

// Days lists only regular files named for a real date: a folder, a
// planted link, a note or an impossible date is not a day.
func TestDaysListsOnlyDayFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"2026-03-09.md", "2025-12-31.md", "2026-02-30.md", "readme.md", "2026-03-10.md.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "2026-01-01.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "readme.md"), filepath.Join(dir, "2026-01-02.md")); err != nil {
		t.Fatal(err)
	}
	got, err := Days(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2025-12-31", "2026-03-09"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Days = %v, want %v", got, want)
	}
	if got, err := Days(filepath.Join(dir, "missing")); err != nil || got != nil {
		t.Fatalf("Days(missing) = %v, %v", got, err)
	}
}

// TestOneOwnerOfDates fails when a second owner of the day format
// appears: a layout literal instead of time.DateOnly, or a pattern that
// matches daily file names itself instead of calling DateOf or Days.
func TestOneOwnerOfDates(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		if strings.Contains(s, `"2006-01-02"`) {
			t.Errorf("%s spells the date layout; use time.DateOnly", p)
		}
		if strings.Contains(s, `\d{2}\.md`) && !strings.Contains(p, "lazyregexp") {
			t.Errorf("%s matches daily file names itself; use daily.DateOf or daily.Days", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
