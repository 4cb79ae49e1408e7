package longterm

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// now is a fixed Monday morning.
var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// newProject makes a project with long-term memory on.
func newProject(t *testing.T) *Store {
	t.Helper()
	s := New(t.TempDir())
	if _, err := s.On("demo", now); err != nil {
		t.Fatal(err)
	}
	return s
}

// day writes a short-term day file in the daily format.
func day(t *testing.T, s *Store, date string, sections ...string) string {
	t.Helper()
	text := "---\ntype: daily\ndate: " + date + "\nproject: demo\n---\n\n# " + date + "\n" + strings.Join(sections, "")
	p := filepath.Join(s.DailyDir, date+".md")
	testfile.Write(t, p, text)
	return p
}

func session(hhmm, asked, decided, open string) string {
	// One session each: sections of one session on a day make one headline.
	id := "8f825584-" + strings.ReplaceAll(hhmm, ":", "")
	out := "\n## " + hhmm + "–23:59 · session 8f825584 · auto\n<!-- cerebro:segment session=" + id + " from=0 to=10 -->\n\n### Asked\n- " + asked + "\n- a second question\n### Done\n- something\n"
	if decided != "" {
		out += "### Decided\n- " + decided + "\n"
	}
	if open != "" {
		out += "### Open\n- " + open + "\n"
	}
	return out
}

// golden compares got with testdata/golden/name.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testfile.Golden(t, filepath.Join("testdata", "golden", name), string(got))
}

func logLines(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(testfile.Read(t, s.Path(LogFile)), "\n") {
		if strings.HasPrefix(l, "- 2") {
			out = append(out, l)
		}
	}
	return out
}
