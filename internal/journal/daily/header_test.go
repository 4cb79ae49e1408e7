package daily

import (
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// A project name with a newline, a carriage return, a tab, a quote or a
// YAML indicator keeps the frontmatter one line per key, and reads back,
// through the daily parser and a YAML parser, as it was.
func TestHeaderQuotesEveryProjectName(t *testing.T) {
	day := time.Date(2026, 11, 30, 9, 0, 0, 0, time.Local)
	for _, name := range []string{
		"proj", "my proj", "pro\nject: injected\ntype: evil", "a\rb", "tab\there", "it's", `say "hi"`,
		"- dash", "? q", "key: value", "#hash", "back\\slash", "\u2028sep", "проект", " lead", "bom\uFEFF", "nul\x00", "",
	} {
		h := Header(day, name)
		fm := strings.SplitN(strings.TrimPrefix(h, "---\n"), "\n---\n", 2)[0]
		if n := strings.Count(fm, "\n"); n != 2 {
			t.Errorf("%q: the frontmatter has %d lines, want 3:\n%s", name, n+1, fm)
		}
		d := Parse([]byte(h))
		if d.Project != name || d.Type != "daily" || d.Date != "2026-11-30" {
			t.Errorf("%q: parsed back as project %q type %q date %q", name, d.Project, d.Type, d.Date)
		}
		var m map[string]string
		if err := yaml.Unmarshal([]byte(fm), &m); err != nil || m["project"] != name || m["type"] != "daily" {
			t.Errorf("%q: YAML reads %q (%v)", name, m, err)
		}
	}
}
