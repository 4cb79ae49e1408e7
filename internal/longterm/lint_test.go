package longterm

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestLintFindsEachRule(t *testing.T) {
	s := newProject(t)
	testfile.Write(t, s.Path("wiki/a.md"), "---\ntype: topic\n---\n# A\n\n[[b]] [[nowhere]] [[daily/2026-01-01]]\n![[img.png]]\n")
	testfile.Write(t, s.Path("wiki/b.md"), "# B without frontmatter\n")
	testfile.Write(t, s.Path("wiki/lonely.md"), "---\ntype: topic\n---\nno links\n")
	testfile.Write(t, s.Path("wiki/bad.md"), "---\ntype: [unclosed\n---\n")
	testfile.Write(t, s.Path(planfact.FileName), "---\ntype: plan-fact\nproject: demo\nstage: s\nplan_status: sideways\nstatus: active\nnext: n\nblockers: []\nsummary: s\nupdated: 2026-11-30\n---\n")
	testfile.Write(t, s.Path(CoreFile), strings.Repeat("x", 50))
	found, err := s.Lint(LintOptions{CoreMaxChars: 40, Project: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"wiki/a.md:6:broken-link":     "[[nowhere]]: no such page",
		"wiki/a.md:6:broken-evidence": "2026-01-01",
		"wiki/b.md:1:missing-type":    "no `type`",
		"wiki/lonely.md:1:orphan":     "no page links here",
		"wiki/bad.md:2:frontmatter":   "",
		"План-факт.md:5:plan-fact":    "plan_status",
		"CORE.md:1:core-size":         "10 over the cap of 40",
		"index.md:":                   "",
	}
	got := map[string]lint.Finding{}
	for _, f := range found {
		got[f.File+":"+strconv.Itoa(f.Line)+":"+f.Rule] = f
	}
	for key, msg := range want {
		if key == "index.md:" {
			if !hasRule(found, "index-drift") {
				t.Error("no index-drift")
			}
			continue
		}
		f, ok := got[key]
		if !ok {
			t.Errorf("missing %s in %+v", key, found)
			continue
		}
		if !strings.Contains(f.Message, msg) {
			t.Errorf("%s: message %q lacks %q", key, f.Message, msg)
		}
	}
	if got["wiki/a.md:6:broken-link"].Severity != lint.Error || got["wiki/lonely.md:1:orphan"].Severity != lint.Warning {
		t.Error("severities")
	}
	if !lint.HasErrors(found) {
		t.Error("HasErrors")
	}
	// The attachment is broken too, as a missing file.
	n := 0
	for _, f := range found {
		if f.Rule == "broken-link" && strings.Contains(f.Message, "img.png") && strings.Contains(f.Message, "no such file") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("attachment findings %d", n)
	}
	// Rebuilding the index clears the drift (and links the orphan).
	if _, err := s.RebuildIndex(); err != nil {
		t.Fatal(err)
	}
	found, _ = s.Lint(LintOptions{Project: true})
	if hasRule(found, "index-drift") || hasRule(found, "orphan") {
		t.Fatalf("after wiki index: %+v", found)
	}
}

func TestIndexKeepsHandWrittenHeadAndIsDeterministic(t *testing.T) {
	s := newProject(t)
	idx := testfile.Read(t, s.Path(IndexFile))
	head := strings.Replace(idx[:strings.Index(idx, IndexMarker)], "# Index", "# Index\n\nMy own note [[SCHEMA]].", 1)
	testfile.Write(t, s.Path(IndexFile), head+IndexMarker+"\nstale catalogue\n")
	testfile.Write(t, s.Path("wiki/Проект.md"), "---\ntype: topic\ntitle: Проект | главное\ndescription: what the project is\n---\n")
	testfile.Write(t, s.Path("wiki/x.md"), "no type\n")
	changed, err := s.RebuildIndex()
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	got := testfile.Read(t, s.Path(IndexFile))
	if !strings.HasPrefix(got, head) {
		t.Fatal("the hand-written head was not kept")
	}
	golden(t, "index-with-pages.md", []byte(got))
	if changed, _ := s.RebuildIndex(); changed {
		t.Fatal("second rebuild changed index.md")
	}
}

func TestGraphFileDeterministic(t *testing.T) {
	s := newProject(t)
	day(t, s, "2026-11-28", "")
	testfile.Write(t, s.Path("wiki/a.md"), "---\ntype: topic\n---\n[[b]] [[daily/2026-11-28]]\n")
	testfile.Write(t, s.Path("wiki/b.md"), "---\ntype: topic\n---\n[[a#top|A]]\n")
	if _, err := s.RebuildGraph(); err != nil {
		t.Fatal(err)
	}
	first := testfile.Read(t, s.Path(GraphFile))
	if changed, _ := s.RebuildGraph(); changed {
		t.Fatal("graph rebuilt differently")
	}
	if !strings.Contains(first, `"day": "2026-11-28"`) || strings.Contains(first, `"target": "daily/2026-11-28"`) {
		t.Fatalf("evidence not resolved:\n%s", first)
	}
}

func TestPlanFactSetIsAtomicAndLogged(t *testing.T) {
	s := newProject(t)
	later := now.Add(48 * time.Hour)
	rest, err := s.PlanFactSet("blockers", []string{"waiting for keys", "CI flaky"}, later)
	if err != nil || len(rest) != 0 {
		t.Fatal(rest, err)
	}
	pf, probs, _ := s.PlanFactCheck()
	if len(probs) != 0 || len(pf.Blockers) != 2 || pf.Updated != "2026-12-02" {
		t.Fatalf("%+v %v", pf, probs)
	}
	before := testfile.Read(t, s.Path(planfact.FileName))
	if _, err := s.PlanFactSet("plan_status", []string{"sideways"}, later); err == nil {
		t.Fatal("bad value accepted")
	}
	if testfile.Read(t, s.Path(planfact.FileName)) != before {
		t.Fatal("a refused set changed the file")
	}
	l := logLines(t, s)
	if !strings.HasSuffix(l[len(l)-1], "· planfact set · blockers = waiting for keys; CI flaky") {
		t.Fatalf("log %q", l)
	}
	entries, _ := os.ReadDir(s.Dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
}

// The shared Obsidian help vaults (English and Russian) must load, graph
// and lint without crashing.
func TestRealVaults(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		dir := testfile.Shared(t, "fixtures", "vaults", "obsidianmd__obsidian-help", lang)
		s := &Store{Dir: dir}
		v, err := s.LoadVault()
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Pages) < 50 {
			t.Fatalf("%s: only %d pages", lang, len(v.Pages))
		}
		g := s.Graph(v)
		if len(g.Nodes) != len(v.Pages) || len(g.Edges) == 0 {
			t.Fatalf("%s: %d nodes, %d edges", lang, len(g.Nodes), len(g.Edges))
		}
		if string(g.JSON()) != string(s.Graph(v).JSON()) {
			t.Fatalf("%s: graph not deterministic", lang)
		}
		found, err := s.Lint(LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat := Catalogue(v)
		if lang == "ru" && !strings.Contains(cat, "Главная") {
			t.Fatalf("ru catalogue lacks Главная")
		}
		t.Logf("%s: %d pages, %d edges, %d broken, %d findings", lang, len(v.Pages), len(g.Edges), len(g.Broken), len(found))
	}
}
