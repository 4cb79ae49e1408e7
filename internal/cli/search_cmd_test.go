package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// memProject makes a project with a little memory and returns its env.
func memProject(t *testing.T) (string, map[string]string) {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	files := map[string]string{
		".claude/memory_short/daily/2026-11-29.md": "---\ntype: daily\n---\n\n# 2026-11-29\n\n## 09:12–09:40 · session 8f825584 · auto\n### Decided\n- Проекты переносим на новый сервер PostgreSQL.\n",
		".claude/memory_long/CORE.md":              "# Core\nThe deploy runs from the main branch.\n",
	}
	for p, text := range files {
		full := filepath.Join(proj, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(text), 0o644)
	}
	os.WriteFile(filepath.Join(home, "outside.md"), []byte("secret\n"), 0o644)
	return proj, map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "desk"), "CEREBRO_STATE_DIR": filepath.Join(home, "state")}
}

func keys(m map[string]any) []string {
	var k []string
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

// searchWith runs search's run function on a factory of env, with the
// command's defaults where o leaves them (its flags: options_test.go).
func searchWith(env map[string]string, o SearchOptions) (string, error) {
	f, _ := testFactory(env)
	var out, errb bytes.Buffer
	o.Out, o.Err, o.Now, o.OpenMemory = &out, &errb, f.Now, f.OpenMemory
	if o.Scope == "" {
		o.Scope = string(search.DefaultScope)
	}
	if o.Limit == 0 {
		o.Limit = 10
	}
	err := searchRun(&o)
	if err != nil {
		return out.String(), fmt.Errorf("%w\n%s", err, errb.String())
	}
	return out.String(), nil
}

func TestSearchJSONShape(t *testing.T) {
	proj, env := memProject(t)
	out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "проект"})
	if err != nil {
		t.Fatal(err)
	}
	var resp map[string]any
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got := keys(resp); !reflect.DeepEqual(got, []string{"mode", "results"}) {
		t.Fatalf("top-level keys %v", got)
	}
	if resp["mode"] != "bm25" {
		t.Fatalf("mode %v", resp["mode"])
	}
	results := resp["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("results %v", results)
	}
	r := results[0].(map[string]any)
	if got := keys(r); !reflect.DeepEqual(got, []string{"citation", "end_line", "path", "score", "snippet", "start_line"}) {
		t.Fatalf("result keys %v", got)
	}
	// the frontmatter (lines 1-3) and the blank line after it are no part of the snippet
	if r["path"] != ".claude/memory_short/daily/2026-11-29.md" || r["citation"] != ".claude/memory_short/daily/2026-11-29.md#L5-L9" || strings.Contains(r["snippet"].(string), "type: daily") {
		t.Fatalf("result %v", r)
	}
	// nothing found is an empty list, not null
	out, _ = searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "zzzqqq"})
	if !strings.Contains(out, `"results": []`) {
		t.Fatalf("empty search:\n%s", out)
	}
}

func TestSearchCatchesUpStaleIndex(t *testing.T) {
	proj, env := memProject(t)
	if _, errOut, code := run(t, env, "", "index", "--project", proj); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	os.WriteFile(filepath.Join(proj, ".claude", "memory_long", "Kafka.md"), []byte("Kafka retention is seven days.\n"), 0o644)
	out, _ := searchWith(env, SearchOptions{Project: proj, Query: "kafka"})
	if !strings.Contains(out, ".claude/memory_long/Kafka.md#L1-L1") {
		t.Fatalf("new page not found:\n%s", out)
	}
	// no time to catch up: searched what is indexed, and said so
	os.WriteFile(filepath.Join(proj, ".claude", "memory_long", "Zk.md"), []byte("Zookeeper is gone.\n"), 0o644)
	env["CEREBRO_SEARCH_UPDATE_BUDGET_MS"] = "0"
	out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "zookeeper"})
	var resp struct {
		Results []any
		Notes   []string
	}
	json.Unmarshal([]byte(out), &resp)
	if err != nil || len(resp.Results) != 0 || len(resp.Notes) != 1 || !strings.Contains(resp.Notes[0], "behind") {
		t.Fatalf("%v, over-budget search:\n%s", err, out)
	}
	delete(env, "CEREBRO_SEARCH_UPDATE_BUDGET_MS")
	out, _, _ = run(t, env, "", "index", "--project", proj)
	if !strings.Contains(out, ".claude/memory_long: 3 files, 3 chunks (1 read again, 0 removed)") {
		t.Fatalf("index output:\n%s", out)
	}
}

func TestSearchWithFailingProviderSaysBM25(t *testing.T) {
	proj, env := memProject(t)
	env["CEREBRO_EMBEDDING_PROVIDER"] = "ollama"
	env["CEREBRO_EMBEDDING_URL"] = "http://127.0.0.1:1" // nothing listens there
	env["CEREBRO_EMBEDDING_MODEL"] = "m"
	out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "deploy"})
	var resp struct {
		Results []any
		Mode    string
		Notes   []string
	}
	json.Unmarshal([]byte(out), &resp)
	if err != nil || resp.Mode != "bm25" || len(resp.Results) != 1 || len(resp.Notes) == 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// get's behaviour, through its run function (its flags: options_test.go).
func TestGet(t *testing.T) {
	proj, env := memProject(t)
	get := func(path string, from, lines int) (string, error) {
		f, out := testFactory(env)
		err := getRun(&GetOptions{Out: f.Out, OpenMemory: f.OpenMemory, Project: proj, Path: path, From: from, Lines: lines})
		return out.String(), err
	}
	out, err := get(".claude/memory_long/CORE.md", 2, 1)
	if err != nil || out != `{"text":"The deploy runs from the main branch.\n","path":".claude/memory_long/CORE.md"}`+"\n" {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = get(".claude/memory_short/daily/2026-12-01.md", 1, 0)
	if err != nil || out != `{"text":"","path":".claude/memory_short/daily/2026-12-01.md"}`+"\n" {
		t.Fatalf("missing file: %v\n%s", err, out)
	}
	for _, p := range []string{"../outside.md", ".claude/memory_long/../../../outside.md", filepath.Join(env["HOME"], "outside.md")} {
		out, err = get(p, 1, 0)
		if err == nil || out != "" || !strings.Contains(err.Error(), "outside the memory roots") || hint.Of(err) == "" {
			t.Fatalf("get %s: %v\n%s", p, err, out)
		}
	}
}

func TestSearchBadFlags(t *testing.T) {
	proj, env := memProject(t)
	if _, errOut, code := run(t, env, "", "search", "--project", proj, "--scope", "galaxy", "x"); code != 2 || !strings.Contains(errOut, `--scope "galaxy": want project, org, all, projects or everything`) {
		t.Fatalf("bad scope: %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "search", "--root", filepath.Join(proj, "nope"), "x"); code != 1 || !strings.Contains(errOut, "not a directory") {
		t.Fatalf("bad root: %d %s", code, errOut)
	}
}

// The clock of testFactory says 2026-11-30, so "yesterday" names the
// planted day; search.date_boost < 0 switches the date reading off.
func TestSearchReadsDatesFromTheClockAndTheSetting(t *testing.T) {
	proj, env := memProject(t)
	out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "yesterday"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "daily/2026-11-29.md") {
		t.Fatalf("a query naming yesterday did not list yesterday's file:\n%s", out)
	}
	env["CEREBRO_SEARCH_DATE_BOOST"] = "-1"
	out, _ = searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "yesterday"})
	if strings.Contains(out, "daily/2026-11-29.md") {
		t.Fatalf("with date_boost -1 the date was still read:\n%s", out)
	}
}

func TestSearchSinceUntil(t *testing.T) {
	proj, env := memProject(t)
	out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Until: "2026-11-29", Query: "проект"})
	if err != nil || !strings.Contains(out, "daily/2026-11-29.md#L5-L9") {
		t.Fatalf("until the day: %v\n%s", err, out)
	}
	out, err = searchWith(env, SearchOptions{Project: proj, JSON: true, Since: "2026-11-30", Query: "проект"})
	if err != nil || !strings.Contains(out, `"results": []`) {
		t.Fatalf("since the next day: %v\n%s", err, out)
	}
	if _, errOut, code := run(t, env, "", "search", "--project", proj, "--since", "last week", "x"); code != 2 || !strings.Contains(errOut, "YYYY-MM-DD") {
		t.Fatalf("bad since: %d %s", code, errOut)
	}
}
