package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
)

func bbEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	home := t.TempDir()
	proj := t.TempDir()
	return map[string]string{"HOME": home, "CEREBRO_STATE_DIR": filepath.Join(home, "state"), "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_DISTILLER_COMMAND": filepath.Join(home, "no-claude-here")}, proj
}

func object(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	return m
}

func TestRememberRecallFromFlagsAndRequest(t *testing.T) {
	env, proj := bbEnv(t)
	out, errOut, code := run(t, env, "", "remember", "--project", proj, "Dima's phone is 111",
		"--table", "Friends", "--key", "Dima", "--kind", "phone", "--value", "111", "--param", "mood=happy")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rem := object(t, out)
	if rem["tables_created"].([]any)[0] != "friends" || rem["params"].(map[string]any)["mood"].(map[string]any)["fate"] != "not_supported" {
		t.Fatalf("%s", out)
	}
	req := `{"text":"what is the phone of Dima","depth":"extreme","chain":true,"colour":"red","limit":"x"}`
	out, _, code = run(t, env, req, "recall", "--project", proj, "--request", "-")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	ans := object(t, out)
	if ans["depth_used"].(float64) != 1 || ans["kind"] != "affirmative" || ans["depth_requested"] != "extreme" || ans["chain"] == nil {
		t.Fatalf("%s", out)
	}
	params := ans["params"].(map[string]any)
	for k, f := range map[string]string{"depth": "accepted", "chain": "accepted", "colour": "not_supported", "limit": "bad_form"} {
		if params[k].(map[string]any)["fate"] != f {
			t.Errorf("%s: %v", k, params[k])
		}
	}
	out, _, _ = run(t, env, "", "tables", "--project", proj)
	if strings.TrimSpace(out) != "friends  kinds: phone  1 rows" {
		t.Fatalf("tables: %q", out)
	}
	// The journal in the project is the truth: a fresh state dir rebuilds.
	env["CEREBRO_STATE_DIR"] = filepath.Join(t.TempDir(), "fresh")
	out, _, _ = run(t, env, "", "recall", "--project", proj, "Dima", "phone")
	if object(t, out)["depth_used"].(float64) != 1 {
		t.Fatalf("tables not rebuilt from the journal: %s", out)
	}
	out, _, code = run(t, env, `{"depth":"deep"}`, "recall", "--project", proj, "--request", "-")
	if code != 1 || !strings.Contains(object(t, out)["error"].(string), "no text") {
		t.Fatalf("a request without text: exit %d %s", code, out)
	}
}

func TestDenyAndRelearnFromCLI(t *testing.T) {
	env, proj := bbEnv(t)
	run(t, env, "", "remember", "--project", proj, "The staging database lives on host kestrel")
	out, _, _ := run(t, env, "", "recall", "--project", proj, "staging database host")
	ans := object(t, out)
	items := ans["items"].([]any)
	if ans["depth_used"].(float64) != 2 || len(items) != 1 {
		t.Fatalf("%s", out)
	}
	id := items[0].(map[string]any)["id"].(string)
	out, errOut, code := run(t, env, "", "deny", id, "--project", proj, "--reason", "moved to heron last week")
	if code != 0 || object(t, out)["stored"] != true {
		t.Fatalf("deny: %d %s %s", code, out, errOut)
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "staging database host")
	if object(t, out)["kind"] != "none" {
		t.Fatalf("denied inference offered again: %s", out)
	}
	_, errOut, code = run(t, env, "", "deny", id, "--project", proj)
	if code != 1 || !strings.Contains(errOut, "reason") {
		t.Fatalf("deny without a reason: %d %s", code, errOut)
	}

	q := "which release added the Falcon exporter"
	out, _, _ = run(t, env, "", "recall", "--project", proj, q)
	if a := object(t, out); a["kind"] != "none" || a["depth_used"].(float64) != 3 {
		t.Fatalf("before relearn: %s", out)
	}
	art := filepath.Join(t.TempDir(), "research.md")
	os.WriteFile(art, []byte("# Falcon exporter\nAdded in release 4.2 (changelog line 88).\n"), 0o644)
	out, errOut, code = run(t, env, "", "relearn", "--project", proj, "--artifact", art,
		"--summary", "Release 4.2 added the Falcon exporter (changelog line 88).", "--about", "Falcon exporter")
	if code != 0 {
		t.Fatalf("relearn: %s %s", out, errOut)
	}
	rl := object(t, out)
	if rl["indexed"] != "search index updated" {
		t.Fatalf("relearn must index the summary through internal/search: %s", out)
	}
	for _, k := range []string{"object", "summary", "relation"} {
		if rl[k] == "" || rl[k] == nil {
			t.Fatalf("relearn must return every id (%s): %s", k, out)
		}
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, q)
	if a := object(t, out); a["depth_used"].(float64) != 2 || a["answer"].(map[string]any)["object"] != rl["object"] {
		t.Fatalf("after relearn: %s", out)
	}
	// What the black box writes is a valid part of the long-term wiki:
	// no broken links, every page typed.
	out, _, _ = run(t, env, "", "lint", "--project", proj, "--json")
	if strings.Contains(out, "broken-link") || strings.Contains(out, "missing-type") || strings.Contains(out, "frontmatter") {
		t.Fatalf("lint after remember, deny, relearn:\n%s", out)
	}
	out, _, code = run(t, env, "", "graph", "ask", "--project", proj, "Falcon exporter")
	if code != 0 || !strings.Contains(out, "Falcon exporter") || !strings.Contains(out, "summarises") || !strings.Contains(out, "graph/relations.md#L") {
		t.Fatalf("graph ask after relearn:\n%s", out)
	}
}

func TestGraphLinkAndAsk(t *testing.T) {
	env, proj := bbEnv(t)
	// through its run function (a line without --rel: below, through Main)
	graph := func(o GraphOptions) (string, error) {
		f, out := testFactory(env)
		o.Out, o.ProjectRoot, o.GraphLink, o.Project = f.Out, f.ProjectRoot, f.GraphLink, proj
		err := graphRun(&o)
		return out.String(), err
	}
	out, err := graph(GraphOptions{Action: "link", From: "Denis", To: "Kremlin regiment", Rel: "served in", JSON: true})
	if err != nil || !strings.HasPrefix(object(t, out)["id"].(string), "rel-") {
		t.Fatalf("%v %s", err, out)
	}
	if _, err := graph(GraphOptions{Action: "link", From: "Kremlin regiment", To: "Yeltsin", Rel: "guarded"}); err != nil {
		t.Fatal(err)
	}
	out, _ = graph(GraphOptions{Action: "ask", Question: "could Denis know Yeltsin", JSON: true})
	var c struct {
		Entities []struct{ Name string }
		Paths    []struct{ Steps []struct{ Via, Cite string } }
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || len(c.Entities) != 2 || len(c.Paths) != 1 || len(c.Paths[0].Steps) != 2 {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, errOut, code := run(t, env, "", "graph", "link", "--project", proj, "A", "B"); code != 2 || !strings.Contains(errOut, "--rel") {
		t.Fatalf("link without --rel: %d %s", code, errOut)
	}
}

func TestExtremeRecallRunsBoundedNestedClaude(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in claude is a shell script")
	}
	env, proj := bbEnv(t)
	bin := t.TempDir()
	stand := filepath.Join(bin, "claude")
	// It counts its calls, and answers only when nested and given the
	// prompt on stdin.
	os.WriteFile(stand, []byte("#!/bin/sh\necho x >> '"+bin+"/calls'\ngrep -q 'penguin census' && [ \"$CEREBRO_NESTED\" = 1 ] && echo 'The census is run by Ada (notes/census.md).' || echo 'not nested'\n"), 0o755)
	env["CEREBRO_DISTILLER_COMMAND"] = stand
	out, _, _ := run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "quarterly penguin census")
	a := object(t, out)
	if a["depth_used"].(float64) != 5 || !strings.Contains(a["answer"].(string), "Ada") || a["relearned"] == nil {
		t.Fatalf("%s", out)
	}
	// Relearned before it returned: the second ask costs no model call.
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "quarterly penguin census")
	callLog, _ := os.ReadFile(filepath.Join(bin, "calls"))
	if a := object(t, out); a["depth_used"].(float64) > 3 || strings.Count(string(callLog), "x") != 2 {
		t.Fatalf("second ask: %d calls\n%s", strings.Count(string(callLog), "x"), out)
	}
	env[claude.NestedEnv] = "1"
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "the walrus census")
	if a := object(t, out); a["depth_used"].(float64) != 3 {
		t.Fatalf("a nested recall must not climb to 5: %s", out)
	}
}

func TestChangesEnterTheLongTermChronology(t *testing.T) {
	env, proj := bbEnv(t)
	if _, errOut, code := run(t, env, "", "long", "on", "--project", proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	run(t, env, "", "remember", "--project", proj, "The lab opens at nine", "--table", "lab", "--key", "opening", "--value", "9")
	run(t, env, "", "graph", "link", "--project", proj, "Lab", "Campus", "--rel", "is on")
	art := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(art, []byte("x"), 0o644)
	run(t, env, "", "relearn", "--project", proj, "--artifact", art, "--summary", "The lab schedule", "--about", "Lab")
	log, err := os.ReadFile(filepath.Join(proj, ".claude", "memory_long", "log.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"· remember · r-", "table lab, key opening", "· graph link · Lab · is on · Campus", "· relearn · wiki/relearned/2026-11-30-lab-"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log.md lacks %q:\n%s", want, log)
		}
	}
	out, _, _ := run(t, env, "", "lint", "--project", proj, "--json")
	if strings.Contains(out, `"broken-link"`) || strings.Contains(out, `"missing-type"`) {
		t.Fatalf("lint:\n%s", out)
	}
}

func TestRememberReportsWhatWasStoredWhenATableFails(t *testing.T) {
	env, proj := bbEnv(t)
	// The journal's folder is a file: the table write cannot happen, the
	// record can.
	os.MkdirAll(filepath.Join(proj, ".claude", "memory_long"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "memory_long", "tables"), []byte("x"), 0o644)
	out, errOut, code := run(t, env, "", "remember", "--project", proj, "Dima's phone is 111", "--table", "friends", "--key", "Dima")
	a := object(t, out)
	if code != 1 || a["error"] == nil || len(a["stores"].([]any)) != 1 || !strings.Contains(errOut, "memhook: error:") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestReservedKindAndTablesRepair(t *testing.T) {
	env, proj := bbEnv(t)
	// The adversarial repro: a kind named like a column every row has. As
	// JSON it is the contract's bad_form; as a flag, a usage error.
	out, _, code := run(t, env, `{"text":"x","table":"offices","key":"madrid","kind":"geo","value":"1"}`, "remember", "--project", proj, "--request", "-")
	a := object(t, out)
	if code != 0 || a["params"].(map[string]any)["kind"].(map[string]any)["fate"] != "bad_form" || len(a["tables_created"].([]any)) != 0 {
		t.Fatalf("a reserved kind is bad_form, nothing journaled: exit %d\n%s", code, out)
	}
	if _, errOut, code := run(t, env, "", "remember", "--project", proj, "x", "--table", "offices", "--key", "madrid", "--kind", "geo", "--value", "1"); code != 2 || !strings.Contains(errOut, `remember: --kind "geo": `) {
		t.Fatalf("a reserved kind as a flag: exit %d\n%s", code, errOut)
	}
	out, _, code = run(t, env, "", "remember", "--project", proj, "Madrid office phone", "--table", "offices", "--key", "madrid", "--kind", "phone", "--value", "111")
	if code != 0 {
		t.Fatalf("the store still works: %s", out)
	}
	// A journal line an older memhook let through: the store keeps working,
	// tables says so, and repair moves the line out.
	journal := filepath.Join(proj, ".claude", "memory_long", "tables", "journal.jsonl")
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"kind","table":"offices","kind":"geo","at":"2026-11-30T10:00:00Z"}` + "\n")
	f.Close()
	out, errOut, code := run(t, env, "", "tables", "--project", proj)
	if code != 0 || !strings.Contains(out, "offices  kinds: phone  1 rows") || !strings.Contains(errOut, "tables repair") {
		t.Fatalf("tables with a bad op: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code = run(t, env, "", "recall", "--project", proj, "madrid offices phone")
	if rec := object(t, out); code != 0 || rec["depth_used"].(float64) != 1 || !strings.Contains(rec["report"].([]any)[0].(map[string]any)["note"].(string), "tables repair") {
		t.Fatalf("recall with a bad op in the journal answers and says so: %s", out)
	}
	out, _, code = run(t, env, "", "tables", "repair", "--project", proj)
	r := object(t, out)
	if code != 0 || len(r["removed"].([]any)) != 1 || r["kept"].(float64) != 3 {
		t.Fatalf("repair: exit %d\n%s", code, out)
	}
	if _, errOut, _ = run(t, env, "", "tables", "--project", proj); errOut != "" {
		t.Fatalf("after repair nothing is skipped: %s", errOut)
	}
}

// A thread's history lives in the state dir, across the processes of one
// cycle: the second command of the cycle is its call 2.
func TestThreadAcrossCommands(t *testing.T) {
	env, proj := bbEnv(t)
	out, _, code := run(t, env, "", "remember", "--project", proj, "The census is run by Ada", "--thread", "c1")
	th, _ := object(t, out)["thread"].(map[string]any)
	if code != 0 || th == nil || th["call"].(float64) != 1 {
		t.Fatalf("remember opens the cycle: %s", out)
	}
	out, _, _ = run(t, env, `{"text":"who runs the census","thread":"c1"}`, "recall", "--project", proj, "--request", "-")
	a := object(t, out)
	th, _ = a["thread"].(map[string]any)
	if th == nil || th["call"].(float64) != 2 || th["earlier"].(float64) != 1 || a["params"].(map[string]any)["thread"].(map[string]any)["fate"] != "accepted" {
		t.Fatalf("the next command continues it: %s", out)
	}
	kept, _ := filepath.Glob(filepath.Join(env["CEREBRO_STATE_DIR"], "index", "*", "threads", "*.json"))
	if len(kept) != 1 {
		t.Fatalf("the history is one file under the project's state dir: %v", kept)
	}
}
