package frontmatter

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	var v struct {
		Type string   `yaml:"type"`
		Tags []string `yaml:"tags"`
	}
	body, err := Parse([]byte("---\ntype: case\ntags: [a, b]\n---\n# Title\n"), &v)
	if err != nil {
		t.Fatal(err)
	}
	if v.Type != "case" || len(v.Tags) != 2 || string(body) != "# Title\n" {
		t.Fatalf("got %+v body %q", v, body)
	}
}

func TestErrors(t *testing.T) {
	var v map[string]any
	if _, err := Parse([]byte("# no fm\n"), &v); !errors.Is(err, ErrNone) {
		t.Errorf("no frontmatter: err = %v", err)
	}
	if _, err := Parse([]byte("---\ntype: x\n"), &v); err == nil || !strings.Contains(err.Error(), "never closed") {
		t.Errorf("unclosed: err = %v", err)
	}
	_, err := Parse([]byte("---\na: 1\nb: [\n---\nbody\n"), &v)
	if err == nil || !strings.Contains(err.Error(), "line ") {
		t.Fatalf("bad yaml: err = %v, want a line number", err)
	}
}

func TestSplitPositions(t *testing.T) {
	b, err := Split([]byte("---\r\na: 1\r\n---\r\nbody"))
	if err != nil {
		t.Fatal(err)
	}
	if b.BodyLine != 4 || b.StartLine != 2 {
		t.Fatalf("got %+v", b)
	}
}

func TestSetFieldKeepsOrderCommentsAndBody(t *testing.T) {
	in := "---\ntype: plan-fact\nstage: build # current\nnext: x\n---\n\n| a | b |\n"
	out, err := SetField([]byte(in), "stage", "ship")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\ntype: plan-fact\nstage: ship # current\nnext: x\n---\n\n| a | b |\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	out, _ = SetField(out, "blockers", []string{"a", "b"})
	if !strings.Contains(string(out), "blockers:\n  - a\n  - b\n---") {
		t.Fatalf("list not appended: %s", out)
	}
	out, _ = SetField([]byte("plain\n"), "type", "daily")
	if string(out) != "---\ntype: daily\n---\nplain\n" {
		t.Fatalf("new block: %q", out)
	}
}

// A block closed by "..." (YAML's end of document) and a file that starts
// with a byte order mark both decode, and the body starts where it does
// in the file.
func TestParseDotsAndByteOrderMark(t *testing.T) {
	for _, data := range []string{"---\ntype: case\n...\n# Title\n", "\ufeff---\ntype: case\n---\n# Title\n"} {
		var v struct {
			Type string `yaml:"type"`
		}
		body, err := Parse([]byte(data), &v)
		if err != nil || v.Type != "case" || string(body) != "# Title\n" {
			t.Errorf("%q: got %+v, body %q, err %v", data, v, body, err)
		}
	}
	out, err := SetField([]byte("\ufeff---\na: 1\n---\nbody\n"), "b", "2")
	if err != nil || !strings.HasSuffix(string(out), "\n---\nbody\n") || !strings.Contains(string(out), "b: \"2\"") && !strings.Contains(string(out), "b: 2") {
		t.Errorf("SetField after a byte order mark: %q, %v", out, err)
	}
}

// Vaults a person points search at carry TOML and JSON blocks too (Hugo,
// Zola, some Obsidian plugins); each is read as metadata, not as text.
func TestParseTOMLAndJSON(t *testing.T) {
	for _, c := range []struct {
		in, format string
		bodyLine   int
	}{
		{"+++\ntype = \"case\"\ntags = [\"a\", \"b\"]\n+++\n# Title\n", TOML, 5},
		{";;;\n{\"type\": \"case\", \"tags\": [\"a\", \"b\"]}\n;;;\n# Title\n", JSON, 4},
		{"---json\n{\"type\": \"case\", \"tags\": [\"a\", \"b\"]}\n---\n# Title\n", JSON, 4},
		{"---\ntype: case\ntags: [a, b]\n---\n# Title\n", YAML, 5},
	} {
		m, body, err := Map([]byte(c.in))
		if err != nil || m["type"] != "case" || string(body) != "# Title\n" {
			t.Errorf("%q: got %v, body %q, err %v", c.in, m, body, err)
		}
		if tags, _ := m["tags"].([]any); len(tags) != 2 {
			t.Errorf("%q: tags %#v", c.in, m["tags"])
		}
		b, err := Split([]byte(c.in))
		if err != nil || b.Format != c.format || b.BodyLine != c.bodyLine {
			t.Errorf("%q: split format %q, body line %d, err %v", c.in, b.Format, b.BodyLine, err)
		}
	}
	if _, err := Split([]byte("+++\ntype = \"case\"\n# no end\n")); err == nil || !strings.Contains(err.Error(), "+++ is never closed") {
		t.Errorf("an unclosed TOML block: err = %v", err)
	}
	if _, err := SetField([]byte("+++\ntype = \"case\"\n+++\n"), "status", "x"); err == nil {
		t.Error("SetField edited a TOML block")
	}
}
