package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func orgEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "cerebro")
	return map[string]string{"HOME": dir, "CEREBRO_HOME": home, "CEREBRO_STATE_DIR": filepath.Join(dir, "state")}, home
}

// The vault creates itself on first use by ingest, query, lint and rollup,
// and says so; org rm, which only changes what is there, still needs one.
func TestOrgVaultCreatedOnFirstUse(t *testing.T) {
	env, home := orgEnv(t)
	_, errOut, code := run(t, env, "", "org", "rm", "x.md")
	if code != 1 || !strings.Contains(errOut, "no org vault") || !strings.Contains(errOut, "memhook org init") {
		t.Fatalf("org rm without a vault: exit %d stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(home); err == nil {
		t.Fatalf("org rm created %s", home)
	}
	src := filepath.Join(t.TempDir(), "memo.md")
	os.WriteFile(src, []byte("# Памятка\nКак мы ведём релизы.\n"), 0o644)
	out, errOut, code := run(t, env, "", "org", "ingest", src)
	if code != 0 || !strings.Contains(errOut, "created the org vault at "+home+" on first use") || !strings.Contains(out, "sources/memo.md") {
		t.Fatalf("first org ingest: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "SCHEMA.md")); err != nil {
		t.Fatalf("no SCHEMA.md after the first ingest: %v", err)
	}
	_, errOut, code = run(t, env, "", "org", "lint")
	if code != 0 || strings.Contains(errOut, "created the org vault") {
		t.Fatalf("second use announced a creation again or failed: exit %d\n%s", code, errOut)
	}
	for _, args := range [][]string{{"org", "query", "релизы"}, {"org", "lint"}, {"rollup"}} {
		env2, home2 := orgEnv(t)
		_, errOut, code := run(t, env2, "", args...)
		if !strings.Contains(errOut, "created the org vault at "+home2) {
			t.Errorf("%v on a fresh desk: exit %d, no announcement\n%s", args, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(home2, "SCHEMA.md")); err != nil {
			t.Errorf("%v did not create the vault: %v", args, err)
		}
	}
}

func TestOrgInitLintIngestRm(t *testing.T) {
	env, home := orgEnv(t)
	if out, errOut, code := run(t, env, "", "org", "init"); code != 0 || !strings.Contains(out, "SCHEMA.md") {
		t.Fatalf("init exit %d\n%s%s", code, out, errOut)
	}
	out, _, code := run(t, env, "", "org", "lint", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("lint of a fresh vault: exit %d %s", code, out)
	}

	src := filepath.Join(t.TempDir(), "memo.md")
	os.WriteFile(src, []byte("Памятка\nпишите anna.k@corp.io\n"), 0o644)
	_, errOut, code := run(t, env, "", "org", "ingest", src)
	if code != 1 || !strings.Contains(errOut, "memo.md:2:8 email (pii)") || strings.Contains(errOut, "anna.k@corp.io") {
		t.Fatalf("refusal: exit %d\n%s", code, errOut)
	}
	out, errOut, code = run(t, env, "", "org", "ingest", src, "--redact")
	if code != 0 || !strings.Contains(out, "redacted 1") || !strings.Contains(out, "sources/memo.md") {
		t.Fatalf("redacted ingest: exit %d\n%s%s", code, out, errOut)
	}

	// A defect makes lint fail, with the JSON shape the slash command reads.
	os.WriteFile(filepath.Join(home, "sources", "memo.md"), []byte("no frontmatter, no links\n"), 0o644)
	out, _, code = run(t, env, "", "org", "lint", "--json")
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil || code != 1 {
		t.Fatalf("lint --json: exit %d, %v\n%s", code, err, out)
	}
	found := false
	for _, is := range issues {
		if is["file"] == "sources/memo.md" && is["rule"] == "missing-frontmatter" && is["severity"] == "error" && is["line"] == 1.0 && is["message"] != "" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no missing-frontmatter error in %v", issues)
	}
	out, _, code = run(t, env, "", "org", "lint")
	if code != 1 || !strings.Contains(out, "sources/memo.md\n  1: error missing-frontmatter") {
		t.Fatalf("human lint: exit %d\n%s", code, out)
	}

	out, errOut, code = run(t, env, "", "org", "rm", "sources/memo.md")
	if code != 0 || !strings.Contains(out, ".trash/sources/memo.md") {
		t.Fatalf("rm: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, ".trash", "sources", "memo.md")); err != nil {
		t.Fatal(err)
	}
}

func TestOrgQueryAndCaseByRegistryID(t *testing.T) {
	env, _ := orgEnv(t)
	run(t, env, "", "org", "init")
	proj := t.TempDir()
	wikiDir := filepath.Join(proj, ".claude", "memory_long", "wiki")
	os.MkdirAll(wikiDir, 0o755)
	os.WriteFile(filepath.Join(wikiDir, "notes.md"), []byte("# Заметки\n\n## Уроки\n- Канбан ускорил поддержку.\n"), 0o644)
	reg := filepath.Join(env["HOME"], "cerebro", ".claude", "memory_short", "registry.json")
	os.MkdirAll(filepath.Dir(reg), 0o755)
	os.WriteFile(reg, []byte(`{"projects":[{"id":"support-1a2b","name":"Поддержка","path":"`+filepath.ToSlash(proj)+`","registered":"2026-11-01T00:00:00Z","last_seen":"2026-11-01T00:00:00Z"}]}`), 0o644)
	out, errOut, code := run(t, env, "", "org", "ingest", "--case", "support-1a2b")
	if code != 0 || !strings.Contains(out, "cases/Кейс — Поддержка.md") {
		t.Fatalf("case ingest: exit %d\n%s%s", code, out, errOut)
	}
	// query through its run function (its command line: options_test.go)
	query := func(asJSON bool) (string, error) {
		f, out := testFactory(env)
		err := orgQueryRun(&OrgQueryOptions{Out: f.Out, Err: f.Err, OpenOrCreateOrg: f.OpenOrCreateOrg, OrgQuery: f.OrgQuery,
			Question: "канбан", Limit: 8, JSON: asJSON})
		return out.String(), err
	}
	out, qerr := query(true)
	var ans struct {
		Hits []struct{ Path, Citation string }
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || qerr != nil || len(ans.Hits) == 0 || ans.Hits[0].Path != "cases/Кейс — Поддержка.md" || !strings.Contains(ans.Hits[0].Citation, "#L") {
		t.Fatalf("query: %v %v\n%s", qerr, err, out)
	}
	out, _ = query(false)
	if !strings.Contains(out, "1. Кейс — Поддержка (draft) — cases/Кейс — Поддержка.md#L") || !strings.Contains(out, "[search]") {
		t.Fatalf("human query output:\n%s", out)
	}
}

// An empty org query's hint gives its example in the session's language
// (its locale), not always in Russian.
func TestOrgQueryEmptyHintFollowsTheSession(t *testing.T) {
	for _, c := range []struct {
		env       map[string]string
		want, not string
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, "how do we run a retro", "как мы"},
		{map[string]string{}, "how do we run a retro", "как мы"},
		{map[string]string{"LANG": "ru_RU.UTF-8"}, "как мы проводим ретро", "how do we"},
		{map[string]string{"LANG": "ru_RU.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "how do we run a retro", "как мы"},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "как мы проводим ретро", "how do we"},
	} {
		env, _ := orgEnv(t)
		for k, v := range c.env {
			env[k] = v
		}
		_, errOut, code := run(t, env, "", "org", "query")
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, c.not) {
			t.Errorf("locale %v: exit %d, stderr:\n%s", c.env, code, errOut)
		}
	}
}
