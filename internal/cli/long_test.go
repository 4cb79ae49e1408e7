package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/registry"
)

// longEnv is an isolated desk and a project directory.
func longEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(proj, 0o755)
	proj, _ = filepath.EvalSymlinks(proj)
	return map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"), "CEREBRO_STATE_DIR": filepath.Join(home, "state")}, proj
}

func mustRun(t *testing.T, env map[string]string, stdin string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, env, stdin, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
	}
	return out
}

func TestLongOnOffStatusRegisters(t *testing.T) {
	env, proj := longEnv(t)
	out := mustRun(t, env, "", "long", "on", "--project", proj)
	if !strings.Contains(out, "created: CORE.md, SCHEMA.md, index.md, log.md") || !strings.Contains(out, "registered with the org desk") {
		t.Fatalf("%s", out)
	}
	reg := filepath.Join(env["CEREBRO_HOME"], ".claude", "memory_short", "registry.json")
	f, err := registry.Read(reg)
	if err != nil || len(f.Projects) != 1 || f.Projects[0].Path != proj {
		t.Fatalf("registry %+v %v", f, err)
	}
	out = mustRun(t, env, "", "long", "on", "--project", proj)
	if strings.Contains(out, "created:") || !strings.Contains(out, "kept (already there, not touched)") {
		t.Fatalf("second on:\n%s", out)
	}
	out = mustRun(t, env, "", "long", "status", "--project", proj)
	for _, want := range []string{"state:       on", "registered:  true", "plan-fact:   valid"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, env, "", "long", "off", "--project", proj)
	if !strings.Contains(out, "unregistered") {
		t.Fatalf("%s", out)
	}
	if f, _ := registry.Read(reg); len(f.Projects) != 0 {
		t.Fatalf("still registered: %+v", f)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "memory_long", "SCHEMA.md")); err != nil {
		t.Fatal("off removed files")
	}
	out = mustRun(t, env, "", "long", "status", "--project", proj, "--json")
	var st struct {
		Registered bool `json:"registered"`
		Status     struct {
			Active bool `json:"active"`
			Exists bool `json:"exists"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Registered || st.Status.Active || !st.Status.Exists {
		t.Fatalf("%s %v", out, err)
	}
}

func TestPlanFactCheckAndSet(t *testing.T) {
	env, proj := longEnv(t)
	mustRun(t, env, "", "long", "on", "--project", proj)
	if out := mustRun(t, env, "", "planfact", "check", "--project", proj); !strings.Contains(out, "the contract holds") {
		t.Fatal(out)
	}
	mustRun(t, env, "", "planfact", "set", "stage", "build the wiki", "--project", proj)
	mustRun(t, env, "", "planfact", "set", "status", "completed", "--project", proj)
	pf := filepath.Join(proj, ".claude", "memory_long", "План-факт.md")
	data, _ := os.ReadFile(pf)
	if !strings.Contains(string(data), "stage: build the wiki") || !strings.Contains(string(data), "completed: 2026-11-30") {
		t.Fatalf("%s", data)
	}
	_, errOut, code := run(t, env, "", "planfact", "set", "plan_status", "sideways", "--project", proj)
	if code != 1 || !strings.Contains(errOut, "on_track|at_risk|blocked|done") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	os.WriteFile(pf, []byte(strings.Replace(string(data), "plan_status: on_track", "plan_status: sideways", 1)), 0o644)
	out, _, code := run(t, env, "", "planfact", "check", "--project", proj)
	if code != 1 || !strings.Contains(out, "План-факт.md:5: plan_status: is \"sideways\"") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = run(t, env, "", "planfact", "check", "--project", proj, "--json")
	var probs []map[string]any
	if code != 1 || json.Unmarshal([]byte(out), &probs) != nil || len(probs) != 1 || probs[0]["line"] != float64(5) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestLintJSONAndExitCode(t *testing.T) {
	env, proj := longEnv(t)
	mustRun(t, env, "", "long", "on", "--project", proj)
	out := mustRun(t, env, "", "lint", "--project", proj)
	if !strings.Contains(out, "0 error(s), 0 warning(s)") {
		t.Fatal(out)
	}
	page := filepath.Join(proj, ".claude", "memory_long", "wiki", "Решения.md")
	os.WriteFile(page, []byte("# no type\n\n[[Нет такой]]\n"), 0o644)
	out, _, code := run(t, env, "", "lint", "--project", proj, "--json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var found []map[string]any
	if err := json.Unmarshal([]byte(out), &found); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rules := map[string]bool{}
	for _, f := range found {
		for _, k := range []string{"file", "line", "rule", "message", "severity"} {
			if _, ok := f[k]; !ok {
				t.Fatalf("finding lacks %s: %v", k, f)
			}
		}
		rules[f["rule"].(string)] = true
	}
	if !rules["broken-link"] || !rules["missing-type"] || !rules["index-drift"] {
		t.Fatalf("rules %v", rules)
	}
	mustRun(t, env, "", "wiki", "index", "--project", proj)
	mustRun(t, env, "", "wiki", "graph", "--project", proj)
	if _, err := os.Stat(filepath.Join(proj, ".claude", "memory_long", "graph.json")); err != nil {
		t.Fatal(err)
	}
}

func TestCoreRefusesWhatDoesNotFit(t *testing.T) {
	env, proj := longEnv(t)
	env["CEREBRO_LONG_CORE_MAX_CHARS"] = "100"
	mustRun(t, env, "", "long", "on", "--project", proj)
	// core set through its run function (its command line: options_test.go)
	set := func(stdin, text string) (string, error) {
		f, out := testFactory(env)
		err := coreRun(&CoreOptions{In: strings.NewReader(stdin), Out: f.Out, Now: f.Now, LongChange: f.LongChange, Action: "set", Text: text, Project: proj})
		return out.String(), err
	}
	if _, err := set("", strings.Repeat("x", 200)); err == nil || !strings.Contains(err.Error(), "over the cap of 100") || hint.Of(err) == "" {
		t.Fatalf("over the cap: %v", err)
	}
	if out, err := set("- keep tests green\n", "-"); err != nil || !strings.Contains(out, "of 100 characters") {
		t.Fatal(err, out)
	}
	data, _ := os.ReadFile(filepath.Join(proj, ".claude", "memory_long", "CORE.md"))
	if !strings.HasSuffix(string(data), "\n- keep tests green\n") {
		t.Fatalf("%q", data)
	}
}

func TestIngestCompileFactTruthRollupFlow(t *testing.T) {
	env, proj := longEnv(t)
	mustRun(t, env, "", "long", "on", "--project", proj)
	src := filepath.Join(t.TempDir(), "spec.txt")
	os.WriteFile(src, []byte("the spec\n"), 0o644)
	if out := mustRun(t, env, "", "ingest", src, "--project", proj); !strings.Contains(out, "raw/spec.txt") || !strings.Contains(out, "wiki/sources/spec.md (new stub)") {
		t.Fatal(out)
	}
	daily := filepath.Join(proj, ".claude", "memory_short", "daily")
	os.MkdirAll(daily, 0o755)
	os.WriteFile(filepath.Join(daily, "2026-11-24.md"), []byte("---\ntype: daily\ndate: 2026-11-24\n---\n\n# 2026-11-24\n\n## 09:00–10:00 · session abcdef12 · auto\n\n### Asked\n- q\n### Decided\n- d\n"), 0o644)
	if out := mustRun(t, env, "", "compile", "list", "--project", proj); !strings.HasPrefix(out, "2026-11-24\t") {
		t.Fatal(out)
	}
	_, errOut, code := run(t, env, "", "compile", "done", "2026-11-24", "--project", proj)
	if code != 1 || !strings.Contains(errOut, "nothing was moved") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	long := filepath.Join(proj, ".claude", "memory_long")
	os.WriteFile(filepath.Join(long, "wiki", "_private", "Решения.md"), []byte("---\ntype: digest\n---\n# Решения\n\n- d · [[daily/2026-11-24]]\n"), 0o644)
	mustRun(t, env, "", "fact", "add", "wiki/_private/Решения.md", "d holds", "--evidence", "daily/2026-11-24", "--time", "09:30", "--project", proj)
	mustRun(t, env, "", "compile", "done", "2026-11-24", "--project", proj)
	if _, err := os.Stat(filepath.Join(daily, "_archive", "2026-11-24.md")); err != nil {
		t.Fatal("not archived")
	}
	hash := strings.TrimSpace(mustRun(t, env, "", "truth", "hash", "wiki/_private/Решения.md", "--project", proj))
	mustRun(t, env, "d is the rule\n", "truth", "set", "wiki/_private/Решения.md", "--from", "-", "--expect-hash", hash, "--project", proj)
	_, errOut, code = run(t, env, "stale\n", "truth", "set", "wiki/_private/Решения.md", "--from", "-", "--expect-hash", hash, "--project", proj)
	if code != 1 || !strings.Contains(errOut, "Решения.truth-pending.md") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out := mustRun(t, env, "", "rollup-days", "--project", proj)
	if !strings.Contains(out, "wrote week/2026-W48.md") {
		t.Fatal(out)
	}
	mustRun(t, env, "", "wiki", "index", "--project", proj)
	out, _, code = run(t, env, "", "lint", "--project", proj)
	if code != 0 || !strings.Contains(out, "0 error(s)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	logData, _ := os.ReadFile(filepath.Join(long, "log.md"))
	for _, action := range []string{"· long on ·", "· ingest ·", "· fact add ·", "· compile done ·", "· truth set ·", "· truth pending ·", "· rollup-days ·"} {
		if !strings.Contains(string(logData), action) {
			t.Errorf("log.md lacks %q", action)
		}
	}
}
