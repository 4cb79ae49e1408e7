//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"gopkg.in/yaml.v3"
)

// A project folder whose name holds a newline, a quote, a colon and a
// heading: the frontmatter cerebro writes from it (the plan-fact's
// project) reads back as the name, the plan-fact's heading stays one
// line, and the dashboard's line of the project's path stays one line.
func TestNewlineInProjectNameKeepsEveryFileWhole(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "desk"), "CEREBRO_STATE_DIR": filepath.Join(home, "state")}
	name := "pro\nject: evil\n## Diagnostics\ntype: \"x"
	proj := filepath.Join(home, "work", name)
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, env, "", "long", "on", "--project", proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	data := readFile(t, project.Layout{Root: proj}.PlanFact())
	pf, problems := planfact.Parse([]byte(data))
	if len(problems) > 0 || pf == nil || pf.Project != name {
		t.Fatalf("the plan-fact reads back as %+v (%v):\n%s", pf, problems, data)
	}
	fm := strings.SplitN(strings.TrimPrefix(data, "---\n"), "\n---\n", 2)
	var m map[string]any
	if err := yaml.Unmarshal([]byte(fm[0]), &m); err != nil || m["project"] != name || m["type"] != "plan-fact" {
		t.Errorf("the frontmatter as YAML: %v %v", m, err)
	}
	if strings.Count(fm[1], "\n## ") != 0 || strings.Count(fm[1], "\n# ") != 1 {
		t.Errorf("the name opened a section of the plan-fact:\n%s", fm[1])
	}
	if _, errOut, code := run(t, env, "", "planfact", "check", "--project", proj); code != 0 {
		t.Errorf("planfact check: %s", errOut)
	}
	run(t, env, "", "rollup")
	dash := readFile(t, filepath.Join(env["CEREBRO_HOME"], ".claude", "memory_short", "rollup.md"))
	if strings.Contains(dash, "\n## Diagnostics\ntype") || !strings.Contains(dash, `pro\nject: evil\n## Diagnostics\ntype: \"x"`+"`\n") {
		t.Errorf("the dashboard broke on the name:\n%s", dash)
	}
}
