package longterm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/forget"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// TestForgetInCommitsAndReports: a wiki page's section is forgotten into
// .trash/, the removal committed in the memory's own history, and the
// report says so; an index that cannot be updated is a warning, and the
// forget stands.
func TestForgetInCommitsAndReports(t *testing.T) {
	s := newProject(t)
	if _, err := s.WritePage("wiki/Keys.md", []byte("---\ntype: topic\n---\n# Keys\n\n## Secret\nthe old key\n\n## Kept\nstays\n"), now); err != nil {
		t.Fatal(err)
	}
	h, _ := s.History(GitOwn, now)
	if _, _, err := h.CommitAll("pages", now); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	var reindexed string
	req := ForgetRequest{
		Roots: []forget.Root{s.ForgetRoot()}, Target: s.Path("wiki/Keys.md") + "#Secret", Git: GitOwn, Now: now,
		Reindex: func(dir, rel string) error { reindexed = rel; return nil },
		Warn:    func(m string) { warnings = append(warnings, m) },
	}
	rep, err := s.ForgetIn(req)
	if err != nil {
		t.Fatal(err)
	}
	if page := testfile.Read(t, s.Path("wiki/Keys.md")); strings.Contains(page, "the old key") || !strings.Contains(page, "stays") {
		t.Errorf("the page after forget:\n%s", page)
	}
	if reindexed != "wiki/Keys.md" || !rep.Indexed || rep.Commit == "" || len(warnings) != 0 {
		t.Errorf("report %+v, reindexed %q, warnings %q", rep, reindexed, warnings)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	for _, want := range []string{"forgot .claude/memory_long/wiki/Keys.md#Secret\n", "dropped from the search index", "committed the removal: "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	req.Target, req.Now = s.Path("wiki/Keys.md")+"#Kept", now.Add(time.Minute)
	req.Reindex = func(string, string) error { return errors.New("index locked") }
	if rep, err := s.ForgetIn(req); err != nil || rep.Indexed || len(warnings) != 1 || !strings.Contains(warnings[0], "index locked") {
		t.Errorf("a failed reindex: %+v, %v, warnings %q", rep, err, warnings)
	}
}
