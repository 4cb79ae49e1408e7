package wiki

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestParseLinks(t *testing.T) {
	text := "See [[Alpha]] and [[dir/Beta|the beta]], [[Gamma#Usage]] and ![[img.png]].\n" +
		"`[[not a link]]`\n```\n[[nor this]]\n```\n| [[Tab\\|alias]] |\n[[#Local heading]]"
	got := ParseLinks(text, 10)
	want := []Link{
		{Target: "Alpha", Line: 10},
		{Target: "dir/Beta", Alias: "the beta", Line: 10},
		{Target: "Gamma", Heading: "Usage", Line: 10},
		{Target: "img.png", Line: 10, Embed: true},
		{Target: "Tab", Alias: "alias", Line: 15},
		{Target: "", Heading: "Local heading", Line: 16},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func write(t *testing.T, root, rel, s string) {
	t.Helper()
	testfile.Write(t, filepath.Join(root, filepath.FromSlash(rel)), s)
}

func TestVaultResolveAndGraph(t *testing.T) {
	root := t.TempDir()
	write(t, root, "index.md", "---\ntype: moc\n---\n[[alpha]] [[Notes/Beta]] [[missing]] [[pic.png]]\n")
	write(t, root, "Notes/Alpha.md", "---\ntype: note\ntitle: The Alpha\n---\nback to [[INDEX]]\n")
	write(t, root, "Notes/Beta.md", "no frontmatter, links [[../index]]\n")
	write(t, root, "deep/x/Alpha.md", "a second alpha, longer path\n")
	write(t, root, "lonely.md", "---\ntype: [broken\n---\nnothing\n")
	write(t, root, "pic.png", "PNG")
	write(t, root, ".obsidian/app.md", "ignored")
	v, err := Load(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Pages) != 5 {
		t.Fatalf("pages = %d", len(v.Pages))
	}
	if p := v.Resolve("alpha", "index.md"); p == nil || p.Path != "Notes/Alpha.md" {
		t.Fatalf("alpha resolved to %+v, want the shortest path", p)
	}
	if p := v.Resolve("x/alpha", "index.md"); p == nil || p.Path != "deep/x/Alpha.md" {
		t.Fatalf("partial path resolved to %+v", p)
	}
	if v.Page("lonely").MetaErr == nil {
		t.Fatal("broken frontmatter not reported")
	}
	g := v.Graph()
	if len(g.Broken) != 1 || g.Broken[0].Target != "missing" || g.Broken[0].Line != 4 {
		t.Fatalf("broken = %+v", g.Broken)
	}
	if !reflect.DeepEqual(g.Orphans, []string{"deep/x/Alpha.md", "lonely.md"}) {
		t.Fatalf("orphans = %v", g.Orphans)
	}
	if n := g.Node("Notes/Alpha.md"); n == nil || n.Title != "The Alpha" || !reflect.DeepEqual(n.Backlinks, []string{"index.md"}) {
		t.Fatalf("alpha node = %+v", n)
	}
	v2, _ := Load(root, Options{})
	if string(v2.Graph().JSON()) != string(g.JSON()) {
		t.Fatal("graph JSON is not deterministic")
	}
}

func TestRealVaultsLoad(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		root := testfile.Shared(t, "fixtures", "vaults", "obsidianmd__obsidian-help", lang)
		v, err := Load(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		g := v.Graph()
		if len(v.Pages) < 50 || len(g.Edges) < 100 {
			t.Fatalf("%s: %d pages, %d edges: the vault did not parse", lang, len(v.Pages), len(g.Edges))
		}
		// The help vault is curated: nearly every link resolves.
		pages := 0
		for _, b := range g.Broken {
			if !b.Attachment {
				pages++
			}
		}
		if ratio := float64(pages) / float64(len(g.Edges)); ratio > 0.02 {
			t.Errorf("%s: %d broken page links of %d", lang, pages, len(g.Edges))
		}
	}
}
