package search

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
)

// yamlMap is what the decoder makes of data, as fileTitle used it.
func yamlMap(data []byte) map[string]any {
	m, _, err := frontmatter.Map(data)
	if err != nil {
		return nil
	}
	return m
}

// The fast reading gives the decoder's map for every block it takes, and
// hands the decoder every block whose strings it could misread.
func TestSimpleFrontmatterAsYAML(t *testing.T) {
	cases := []struct {
		block string
		fast  bool // read without the decoder
	}{
		{"type: note\ntags: [gen]\n", true},
		{"title: Sync your notes\naliases:\n  - Sync\n  - Obsidian Sync\ncssclasses: []\n", true},
		{"title: Синхронизация заметок\naliases:\n- синхронизация\npublish:\n", true},
		{"# a comment\n\ntags: [a, b,c]\n", true},
		{"# only a comment\n", true},
		{"tags: [ a ]\n", true},
		{"title: v1.2 (beta) notes/draft\n", true},
		{"permalink: some-page_name\n", true},
		// a value YAML reads as something else, or may
		{"publish: true\n", false},
		{"publish: yes\n", false},
		{"draft: No\n", false},
		{"answer: null\n", false},
		{"created: 2024-01-02T10:00:00\n", false},
		{"count: 12\n", false},
		{"ratio: .5\n", false},
		{"title: ~\n", false},
		// quotes, indicators, comments after a value, anchors, tags
		{"title: \"Quoted: yes\"\n", false},
		{"title: 'single'\n", false},
		{"title: a: b\n", false},
		{"title: a #comment\n", false},
		{"title: &anchor a\nother: *anchor\n", false},
		{"title: !!str 12\n", false},
		{"title: |\n  block\n", false},
		{"title: >\n  folded\n", false},
		{"tags: [a, [b]]\n", false},
		{"tags: {a: b}\n", false},
		{"tags: [a, 'b c']\n", false},
		// a word continued on the next line, nested maps and lists
		{"title: one\n  two\n", false},
		{"aliases:\n  - one\n    - two\n", false},
		{"aliases:\n  - one\n  two\n", false},
		{"outer:\n  inner: value\n", false},
		{"aliases:\n  - - nested\n", false},
		{"aliases:\n  -  spaced\n", false},
		// keys YAML reads as another type, or defined twice
		{"true: a\n", false},
		{"1: a\n", false},
		{"title: a\ntitle: b\n", false},
		{"\"title\": a\n", false},
		{"title: a  b\n", false},
		{"title: a \n", false},
		{"title: a\r\n", false},
		{"title:\ta\n", false},
		{"title:a\n", false},
	}
	for _, c := range cases {
		data := []byte("---\n" + c.block + "---\n\n# Body\n")
		b, err := frontmatter.Split(data)
		if err != nil {
			t.Fatalf("%q: %v", c.block, err)
		}
		m, fast := simpleYAML(b.YAML)
		if fast != c.fast {
			t.Errorf("%q: read without the decoder = %v, want %v (%v)", c.block, fast, c.fast, m)
		}
		if want := yamlMap(data); !reflect.DeepEqual(noteFrontmatter(data), want) || fast && !reflect.DeepEqual(m, want) {
			t.Errorf("%q: got %#v, the decoder gives %#v", c.block, m, want)
		}
	}
}

// On the real vaults, written for Obsidian and not for this reading,
// every note's frontmatter reads as the decoder reads it.
func TestSimpleFrontmatterOnRealVaults(t *testing.T) {
	var notes []string
	for _, lang := range []string{"en", "ru"} {
		dir := vaultDir(t, lang)
		err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && path.Ext(p) == ".md" {
				notes = append(notes, filepath.Join(dir, filepath.FromSlash(p)))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(notes) < 300 {
		t.Fatalf("found %d notes in the two vaults", len(notes))
	}
	fast := 0
	for _, p := range notes {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := frontmatter.Split(data); err == nil && b.Format == frontmatter.YAML {
			if _, ok := simpleYAML(b.YAML); ok {
				fast++
			}
		}
		if got, want := noteFrontmatter(data), yamlMap(data); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, the decoder gives %#v", p, got, want)
		}
	}
	t.Logf("%d of %d notes read without the decoder", fast, len(notes))
}
