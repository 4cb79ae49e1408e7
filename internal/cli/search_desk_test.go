package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/search"
)

// deskProjects registers, on one desk, this project (billing) and four
// others: ledger and склад with overlapping and distinct facts in English
// and Russian, vault (opted out, holding the strongest match of every
// question) and gone (registered, then its folder removed). It returns
// this project's root, the env, and the ids by name.
func deskProjects(t *testing.T) (string, map[string]string, map[string]string) {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "desk"), "CEREBRO_STATE_DIR": filepath.Join(home, "state")}
	projects := map[string]map[string]string{
		"billing": {
			".claude/memory_long/rounding.md": "# Rounding\nInvoice totals use banker's rounding to the cent.\nThe Kafka topic of invoices keeps seven days.\n",
		},
		"ledger": {
			".claude/memory_long/kafka.md":    "# Kafka\nThe consumer lag on the ledger topic was fixed by raising max.poll.records to 500.\n",
			".claude/memory_long/postgres.md": "# Postgres\nThe ledger database runs PostgreSQL 16 on the main host.\n",
		},
		"склад": {
			".claude/memory_short/daily/2026-11-20.md": "# 2026-11-20\n\n## 10:00–10:40 · session 1a2b3c4d · auto\n### Decided\n- Тайм-аут соединения с PostgreSQL исправили: pool_size подняли до 40.\n",
			".claude/memory_long/kafka.md":             "# Kafka\nСклад читает Kafka раз в минуту.\n",
		},
		"vault": {
			".claude/memory_long/kafka.md": "# Kafka consumer lag\nKafka consumer lag: the vault's fix for consumer lag on every topic.\nТайм-аут соединения с PostgreSQL: pool_size до 40, тайм-аут соединения.\n",
			".claude/cerebro.toml":         "share_across_projects = false\n",
		},
		"gone": {
			".claude/memory_long/kafka.md": "# Kafka\nKafka consumer lag fixed.\n",
		},
	}
	ids := map[string]string{}
	for name, files := range projects {
		root := filepath.Join(home, "work", name)
		for p, text := range files {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, errOut, code := run(t, env, "", "registry", "add", root); code != 0 {
			t.Fatalf("registry add %s: %s", name, errOut)
		}
		ids[name] = project.ID(root)
	}
	if err := os.RemoveAll(filepath.Join(home, "work", "gone")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(home, "work", "billing"), env, ids
}

func searchJSON(t *testing.T, env map[string]string, args ...string) search.Response {
	t.Helper()
	out, errOut, code := run(t, env, "", append([]string{"search", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("search %v: exit %d: %s", args, code, errOut)
	}
	var resp search.Response
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return resp
}

func TestSearchAcrossProjectsFindsTheRightProject(t *testing.T) {
	billing, env, ids := deskProjects(t)
	cases := []struct {
		q, project, file string
	}{
		{"consumer lag max.poll.records", "ledger", ".claude/memory_long/kafka.md"},
		{"тайм-аут соединения PostgreSQL", "склад", ".claude/memory_short/daily/2026-11-20.md"},
		{"banker's rounding of invoice totals", "billing", ".claude/memory_long/rounding.md"},
	}
	for _, c := range cases {
		resp := searchJSON(t, env, "--project", billing, "--scope", "projects", c.q)
		if len(resp.Results) == 0 {
			t.Fatalf("%q: no results", c.q)
		}
		top := resp.Results[0]
		want := c.file
		if c.project != "billing" {
			want = ids[c.project] + ":" + c.file
		}
		if top.Project != ids[c.project] || top.Path != want || !strings.HasPrefix(top.Citation, want+"#L") {
			t.Errorf("%q: first result %s (%s, %s), want %s of %s", c.q, top.Path, top.Project, top.Citation, want, c.project)
		}
		for _, r := range resp.Results {
			if r.Project == ids["vault"] || strings.Contains(r.Path, ids["vault"]) || strings.Contains(r.Snippet, "vault's fix") {
				t.Errorf("%q: the opted-out project appears: %+v", c.q, r)
			}
		}
		a := resp.Across
		if a == nil || a.OptedOut != 1 || len(a.Skipped) != 1 || a.Skipped[0].Project != ids["gone"] || a.Projects != 3 {
			t.Errorf("%q: across report %+v, want 3 projects, gone skipped, one opted out", c.q, a)
		}
	}

	// the default scope stays this project's (and the org's): another
	// project's fact is not found
	for _, r := range searchJSON(t, env, "--project", billing, "consumer lag max.poll.records").Results {
		if r.Project != "" || strings.Contains(r.Path, ":") {
			t.Errorf("scope all reached another project: %+v", r)
		}
	}

	// the text output labels another project's result and names the skipped
	out, _, code := run(t, env, "", "search", "--project", billing, "--scope", "everything", "consumer lag max.poll.records")
	if code != 0 || !strings.Contains(out, "[another project: "+ids["ledger"]+"]") || !strings.Contains(out, "1 skipped ("+ids["gone"]+")") || !strings.Contains(out, "1 keep their memory to themselves") {
		t.Errorf("text output:\n%s", out)
	}

	// a cited file of another project reads through get; the opted-out
	// one's does not
	out, errOut, code := run(t, env, "", "get", "--project", billing, ids["ledger"]+":.claude/memory_long/kafka.md")
	if code != 0 || !strings.Contains(out, "max.poll.records") {
		t.Errorf("get another project's file: exit %d %s %s", code, out, errOut)
	}
	out, _, code = run(t, env, "", "get", "--project", billing, ids["vault"]+":.claude/memory_long/kafka.md")
	if code == 0 || strings.Contains(out, "vault's fix") {
		t.Errorf("get read the opted-out project's file: %s", out)
	}
}

// memory_search and memory_get take the scope too: a fact recorded only
// in another registered project comes back labelled with that project.
func TestMCPSearchAcrossProjects(t *testing.T) {
	billing, env, ids := deskProjects(t)
	cs := mcpClient(t, env, billing, nil)
	text, isErr := callTool(t, cs, mcp.ToolSearch, map[string]any{"query": "consumer lag max.poll.records", "scope": "projects"})
	var resp search.Response
	if err := json.Unmarshal([]byte(text), &resp); err != nil || isErr || len(resp.Results) == 0 {
		t.Fatalf("memory_search: %v %s", err, text)
	}
	want := ids["ledger"] + ":.claude/memory_long/kafka.md"
	if r := resp.Results[0]; r.Project != ids["ledger"] || !strings.HasPrefix(r.Citation, want+"#L") {
		t.Errorf("first result %+v, want %s", r, want)
	}
	if strings.Contains(text, ids["vault"]) {
		t.Errorf("the opted-out project appears: %s", text)
	}
	// not by default
	text, _ = callTool(t, cs, mcp.ToolSearch, map[string]any{"query": "consumer lag max.poll.records"})
	if strings.Contains(text, ids["ledger"]) {
		t.Errorf("the default scope reached another project: %s", text)
	}
	text, isErr = callTool(t, cs, mcp.ToolGet, map[string]any{"path": want})
	if isErr || !strings.Contains(text, "max.poll.records") {
		t.Errorf("memory_get of another project's file: %s", text)
	}
}

// recall answers from another project's memory text only when asked
// (--scope projects, or "scope": "projects" in the request), the item
// labelled with that project and cited id:path#Lstart-Lend.
func TestRecallAcrossProjectsOnlyWhenAsked(t *testing.T) {
	billing, env, ids := deskProjects(t)
	const q = "what raised max.poll.records for the consumer lag"
	out, _, _ := run(t, env, "", "recall", "--project", billing, q)
	if strings.Contains(out, ids["ledger"]) || strings.Contains(out, "max.poll.records to 500") {
		t.Errorf("recall reached another project by default: %s", out)
	}
	for _, args := range [][]string{
		{"recall", "--project", billing, "--scope", "projects", q},
		{"recall", "--project", billing, "--param", "scope=projects", q},
	} {
		out, errOut, code := run(t, env, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		ans := object(t, out)
		items, _ := ans["items"].([]any)
		if ans["depth_used"].(float64) != 2 || len(items) == 0 {
			t.Fatalf("%v: %s", args, out)
		}
		it := items[0].(map[string]any)
		if it["project"] != ids["ledger"] || !strings.HasPrefix(it["cite"].(string), ids["ledger"]+":.claude/memory_long/kafka.md#L") {
			t.Errorf("%v: item %v", args, it)
		}
		if f := ans["params"].(map[string]any)["scope"].(map[string]any); f["fate"] != "accepted" {
			t.Errorf("%v: scope fate %v", args, f)
		}
		if strings.Contains(out, ids["vault"]) || strings.Contains(out, "vault's fix") {
			t.Errorf("%v: the opted-out project appears: %s", args, out)
		}
	}
	// the slash command /recall_projects runs exactly this
	out, _, _ = run(t, env, q, "slash", "--text", "recall", "--project", billing, "--scope", "projects")
	if !strings.Contains(out, `"project": "`+ids["ledger"]+`"`) {
		t.Errorf("slash recall --scope projects: %s", out)
	}
	// a word that is no scope is a usage error, not a silent default
	if _, errOut, code := run(t, env, "", "recall", "--project", billing, "--scope", "galaxy", q); code != 2 || !strings.Contains(errOut, `--scope "galaxy": scope must be "project", "projects"`) {
		t.Errorf("scope galaxy: exit %d, %s", code, errOut)
	}
}

// The web app's search takes the scope too: another project's result is
// labelled and not linked (its files are not served by this project's
// pages); an unknown scope is refused.
func TestServeSearchAcrossProjects(t *testing.T) {
	billing, env, ids := deskProjects(t)
	addr := startServe(t, env, billing)
	get := func(query string) (int, string) {
		t.Helper()
		resp, err := http.Get("http://" + addr + "/en/memory/search?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		// The page's own part: the header's project menu lists every
		// registered project on purpose (it is the person's desk).
		page := string(b)
		if i := strings.Index(page, "<main>"); i >= 0 {
			page = page[i:]
		}
		return resp.StatusCode, page
	}
	q := "q=" + url.QueryEscape("consumer lag max.poll.records")
	code, body := get(q + "&scope=projects")
	if code != http.StatusOK || !strings.Contains(body, "another project: "+ids["ledger"]) || strings.Contains(body, ids["vault"]) || strings.Contains(body, `href="/en/memory/file?path=`+ids["ledger"]) {
		t.Errorf("scope projects: %d\n%s", code, body)
	}
	if !strings.Contains(body, `<option value="projects" selected>`) {
		t.Errorf("the selector does not show the scope searched:\n%s", body)
	}
	if code, body = get(q); code != http.StatusOK || strings.Contains(body, ids["ledger"]) {
		t.Errorf("default scope reached another project: %d\n%s", code, body)
	}
	if code, _ = get(q + "&scope=galaxy"); code != http.StatusBadRequest {
		t.Errorf("scope galaxy: %d", code)
	}
}

// Level 3 across projects: with scope "projects", the knowledge graph
// answers from another project's graph too, its item and every citation
// in it labelled with that project; by default it never does, and the
// opted-out project's graph is never read.
func TestRecallGraphAcrossProjectsOnlyWhenAsked(t *testing.T) {
	billing, env, ids := deskProjects(t)
	ledger := filepath.Join(filepath.Dir(billing), "ledger")
	vault := filepath.Join(filepath.Dir(billing), "vault")
	for _, link := range [][]string{
		{"Quartermaster", "Nightingale", "--rel", "replicates to", "--project", ledger},
		{"Quartermaster", "Nightingale", "--rel", "mirrors", "--project", vault},
	} {
		if _, errOut, code := run(t, env, "", append([]string{"graph", "link"}, link...)...); code != 0 {
			t.Fatalf("graph link %v: %s", link, errOut)
		}
	}
	const q = "how is Quartermaster related to Nightingale"
	out, _, code := run(t, env, "", "recall", "--project", billing, q)
	if code != 0 || strings.Contains(out, ids["ledger"]) || strings.Contains(out, "replicates to") {
		t.Errorf("recall reached another project's graph by default (exit %d): %s", code, out)
	}
	out, errOut, code := run(t, env, "", "recall", "--project", billing, "--scope", "projects", q)
	if code != 0 {
		t.Fatalf("recall --scope projects: exit %d %s", code, errOut)
	}
	ans := object(t, out)
	if ans["depth_used"].(float64) != 3 {
		t.Fatalf("depth %v, want the graph (3): %s", ans["depth_used"], out)
	}
	items, _ := ans["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("items %v", items)
	}
	it := items[0].(map[string]any)
	if it["project"] != ids["ledger"] {
		t.Errorf("the graph item is not labelled with its project: %v", it)
	}
	data, _ := json.Marshal(it["data"])
	if !strings.Contains(string(data), `"cite":"`+ids["ledger"]+`:.claude/memory_long/graph/relations.md#L`) || !strings.Contains(string(data), "replicates to") {
		t.Errorf("the path's citations do not name the project: %s", data)
	}
	if strings.Contains(out, ids["vault"]) || strings.Contains(out, "mirrors") {
		t.Errorf("the opted-out project's graph was read: %s", out)
	}
}
