package longterm

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
	"gopkg.in/yaml.v3"
)

func TestWritePageCreatesLogsAndIndexes(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-27", "")
	page := "---\ntype: decision\n---\n\n# Retention\n\n- Invoices are kept seven years ([[daily/2026-11-27]]).\n"
	res, err := s.WritePage("wiki/_private/Retention.md", []byte(page), now)
	if err != nil || !res.Created || !res.Changed || res.Page != "wiki/_private/Retention.md" {
		t.Fatalf("first write: %+v %v", res, err)
	}
	if got := testfile.Read(t, s.Path("wiki/_private/Retention.md")); got != page {
		t.Fatalf("page holds %q", got)
	}
	if log := testfile.Read(t, s.Path(LogFile)); !strings.Contains(log, "page write · wiki/_private/Retention.md created") {
		t.Errorf("log.md:\n%s", log)
	}
	if idx := testfile.Read(t, s.Path(IndexFile)); !strings.Contains(idx, "Retention") {
		t.Errorf("index.md does not list the new page:\n%s", idx)
	}
	// The compile gate sees the page's link.
	if moved, err := s.CompileDone([]string{"2026-11-27"}, now); err != nil || len(moved) != 1 {
		t.Errorf("compile done after the page write: %v %v", moved, err)
	}

	again, err := s.WritePage("wiki/_private/Retention.md", []byte(strings.TrimSuffix(page, "\n")), now)
	if err != nil || again.Created || again.Changed {
		t.Fatalf("same text again (final newline added): %+v %v", again, err)
	}
	if n := strings.Count(testfile.Read(t, s.Path(LogFile)), "page write"); n != 1 {
		t.Errorf("an unchanged write logged; %d page write lines", n)
	}
}

func TestWritePageRefuses(t *testing.T) {
	s := newProject(t)
	pf := testfile.Read(t, s.Path("План-факт.md"))
	for _, c := range []struct {
		page, text, want string
	}{
		{"raw/x.md", "# x\n", "raw/"},
		{"../escape.md", "# x\n", "outside"},
		{"/etc/x.md", "# x\n", "absolute"},
		{"wiki/.hidden.md", "# x\n", "hidden"},
		{"wiki/x.txt", "x\n", "Markdown"},
		{"log.md", "# log\n", "appended by memhook"},
		{"CORE.md", "core\n", "core set"},
		{"wiki/empty.md", " \n", "empty"},
		{"wiki/bin.md", "a\x00b", "UTF-8"},
		{"План-факт.md", strings.Replace(pf, "plan_status: on_track", "plan_status: sideways", 1), "contract"},
	} {
		_, err := s.WritePage(c.page, []byte(c.text), now)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WritePage(%q): %v, want an error about %q", c.page, err, c.want)
		}
	}
	if got := testfile.Read(t, s.Path("План-факт.md")); got != pf {
		t.Error("a refused plan-fact write changed the file")
	}
	if _, err := os.Stat(s.Path("wiki/empty.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused page exists: %v", err)
	}
}

func TestWritePageNeedsTheScaffold(t *testing.T) {
	s := New(t.TempDir())
	if _, err := s.WritePage("wiki/x.md", []byte("# x\n"), now); !errors.Is(err, ErrInactive) {
		t.Fatalf("without long on: %v", err)
	}
}

// A merge's redirect page names the page it was merged into in its
// frontmatter: a name holding ": " or "#" keeps that frontmatter YAML.
func TestMergeRedirectQuotesThePageName(t *testing.T) {
	s := newProject(t)
	testfile.Write(t, s.Path("wiki/Release: plan #2.md"), "# Release plan\n\nFridays.\n")
	testfile.Write(t, s.Path("wiki/Trains.md"), "# Trains\n\nThe train leaves on Fridays.\n")
	p, err := s.PlanMerge("wiki/Release: plan #2.md", "wiki/Trains.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Merge(p, now); err != nil {
		t.Fatal(err)
	}
	data := testfile.Read(t, s.Path("wiki/Trains.md"))
	var m map[string]string
	fm := strings.SplitN(strings.TrimPrefix(data, "---\n"), "\n---\n", 2)[0]
	if err := yaml.Unmarshal([]byte(fm), &m); err != nil || m["description"] != "merged into wiki/Release: plan #2.md" || m["redirect"] != "wiki/Release: plan #2.md" {
		t.Errorf("the redirect's frontmatter reads %v (%v):\n%s", m, err, data)
	}
}
