package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/mcp"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// An extra path is a root of its own: indexed, searched, readable with
// get; never written to; a symbolic link among its files or as the path
// itself is not followed.
func TestSearchExtraPaths(t *testing.T) {
	proj, env := memProject(t)
	home := env["HOME"]
	vault := filepath.Join(home, "vault")
	writeTree(t, vault, map[string]string{
		"Gardening.md":   "# Gardening\nThe tomatoes go into the greenhouse in April.\n",
		".obsidian/x.md": "tomatoes hidden config\n",
	})
	secret := filepath.Join(home, "secret")
	writeTree(t, secret, map[string]string{"keys.md": "the tomatoes vault key is 1234\n"})
	if err := os.Symlink(filepath.Join(secret, "keys.md"), filepath.Join(vault, "linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(home, "linkdir")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "config.toml")
	os.WriteFile(cfg, []byte("[search]\nextra_paths = [\"~/vault\", \"~/linkdir\", \"~/missing\"]\n"), 0o644)
	env["CEREBRO_CONFIG"] = cfg
	before := snapshot(t, vault)

	out, errOut, code := run(t, env, "", "index", "--project", proj)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "vault: 1 files") {
		t.Errorf("index output does not list the extra root with its one note:\n%s", out)
	}
	if !strings.Contains(errOut, "linkdir") || !strings.Contains(errOut, "symbolic link") || !strings.Contains(errOut, "missing") {
		t.Errorf("index does not say which extra paths were left out:\n%s", errOut)
	}
	out, errOut, code = run(t, env, "", "search", "--project", proj, "--json", "tomatoes")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	var resp struct {
		Results []struct{ Path, Citation, Snippet string }
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 1 || resp.Results[0].Path != filepath.Join(vault, "Gardening.md") || !strings.Contains(resp.Results[0].Snippet, "greenhouse") {
		t.Fatalf("want only the vault's note (not the linked file, not the hidden folder): %+v", resp.Results)
	}
	if got := resp.Results[0].Citation; got != filepath.Join(vault, "Gardening.md")+"#L1-L2" {
		t.Errorf("citation %q", got)
	}
	out, errOut, code = run(t, env, "", "get", "--project", proj, filepath.Join(vault, "Gardening.md"))
	if code != 0 || !strings.Contains(out, "greenhouse") {
		t.Errorf("get of an extra root's note: exit %d %s %s", code, out, errOut)
	}
	if after := snapshot(t, vault); after != before {
		t.Errorf("the extra root changed:\n%s\nbecame\n%s", before, after)
	}
}

// A cloned repository ships docs as a link to the person's home and names
// folders under it in its own .claude/cerebro.toml: the key is refused
// (a project file may not widen what is read), so neither memhook get and
// search nor the MCP tools return a byte of the home folder, nothing of it
// is indexed, and doctor names the refused key. The same relative path in
// the person's own settings is refused too, for the link in its middle,
// and doctor names that as well.
func TestHostileRepositoryExtraPathsReadNothingOfHome(t *testing.T) {
	proj, env := memProject(t)
	home := env["HOME"]
	writeTree(t, home, map[string]string{
		"notes/bank.md": "tomatoes and my bank pin 4921\n",
		"work/other-client/.claude/memory_long/CORE.md": "# Core\ntomatoes: the other client's deploy key\n",
	})
	if err := os.Symlink(home, filepath.Join(proj, "docs")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, proj, map[string]string{
		".claude/cerebro.toml": "[search]\nextra_paths = [\"docs/notes\", \"docs/work/other-client/.claude/memory_long\"]\n",
	})
	leaked := func(out string) bool { return strings.Contains(out, "bank pin") || strings.Contains(out, "deploy key") }
	check := func(who string) {
		t.Helper()
		if _, errOut, code := run(t, env, "", "index", "--project", proj); code != 0 {
			t.Fatalf("%s: index: %s", who, errOut)
		}
		out, errOut, code := run(t, env, "", "search", "--project", proj, "--json", "tomatoes")
		if code != 0 || leaked(out) {
			t.Errorf("%s: search read the home folder: exit %d\n%s%s", who, code, out, errOut)
		}
		for _, p := range []string{"docs/notes/bank.md", filepath.Join(home, "notes", "bank.md"), "docs/work/other-client/.claude/memory_long/CORE.md"} {
			if out, _, code := run(t, env, "", "get", "--project", proj, p); code == 0 || leaked(out) {
				t.Errorf("%s: get %s: exit %d\n%s", who, p, code, out)
			}
		}
		cs := mcpClient(t, env, proj, nil)
		if text, _ := callTool(t, cs, mcp.ToolSearch, map[string]any{"query": "tomatoes bank pin deploy key"}); leaked(text) {
			t.Errorf("%s: memory_search read the home folder: %s", who, text)
		}
		for _, p := range []string{"docs/notes/bank.md", "docs/work/other-client/.claude/memory_long/CORE.md"} {
			if text, isErr := callTool(t, cs, mcp.ToolGet, map[string]any{"path": p}); !isErr || leaked(text) {
				t.Errorf("%s: memory_get %s: %s", who, p, text)
			}
		}
		idx, _ := filepath.Glob(filepath.Join(env["CEREBRO_STATE_DIR"], "index", "*.sqlite"))
		for _, f := range idx {
			if data, _ := os.ReadFile(f); strings.Contains(string(data), "bank pin") || strings.Contains(string(data), "deploy key") {
				t.Errorf("%s: %s holds the home folder's text", who, f)
			}
		}
	}
	check("the repository's settings")
	doc, _, _ := run(t, env, "", "doctor", "--project", proj)
	if !strings.Contains(doc, "ignored: project config may not set search.extra_paths") {
		t.Errorf("doctor does not name the refused key:\n%s", doc)
	}

	cfg := filepath.Join(home, "config.toml")
	writeTree(t, home, map[string]string{"config.toml": "[search]\nextra_paths = [\"docs/notes\"]\n"})
	env["CEREBRO_CONFIG"] = cfg
	os.Remove(filepath.Join(proj, ".claude", "cerebro.toml"))
	check("the person's own settings")
	doc, _, _ = run(t, env, "", "doctor", "--project", proj)
	if !strings.Contains(doc, "left out of search: search.extra_paths \"docs/notes\"") || !strings.Contains(doc, "is reached through a symbolic link ("+filepath.Join(proj, "docs")+" points to "+home+")") {
		t.Errorf("doctor does not name the extra path it refused:\n%s", doc)
	}
}

// A link in the middle of a person's own extra path is not followed: the
// folder read would not be the one named. The folder named where it
// really is, is searched.
func TestExtraPathThroughALinkIsRefused(t *testing.T) {
	proj, env := memProject(t)
	home := env["HOME"]
	writeTree(t, filepath.Join(home, "disk", "vault"), map[string]string{"Garden.md": "# Garden\nThe tomatoes go out in May.\n"})
	if err := os.Symlink(filepath.Join(home, "disk"), filepath.Join(home, "linked")); err != nil {
		t.Fatal(err)
	}
	env["CEREBRO_SEARCH_EXTRA_PATHS"] = "~/linked/vault"
	out, errOut, code := run(t, env, "", "search", "--project", proj, "--json", "tomatoes")
	if code != 0 || strings.Contains(out, "Garden") || !strings.Contains(out, `~/linked/vault\": `) || !strings.Contains(out, "is reached through a symbolic link") {
		t.Errorf("a link in the middle of an extra path was followed: exit %d\n%s%s", code, out, errOut)
	}
	env["CEREBRO_SEARCH_EXTRA_PATHS"] = "~/disk/vault"
	if out, errOut, code := run(t, env, "", "search", "--project", proj, "--json", "tomatoes"); code != 0 || !strings.Contains(out, "Garden") {
		t.Errorf("the folder named where it is was not searched: exit %d\n%s%s", code, out, errOut)
	}
}

func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := d.Info()
		b.WriteString(p + " " + info.ModTime().String() + " " + info.Mode().String() + "\n")
		return nil
	})
	return b.String()
}

// search.citations: auto cites in its own field, on adds a Source line
// to each snippet, off shows no citation at all (the path stays, for get).
func TestSearchCitationsSetting(t *testing.T) {
	for _, tc := range []struct {
		mode        string
		citation    bool
		footer      bool
		textCitesAt bool
	}{{"auto", true, false, true}, {"on", true, true, true}, {"off", false, false, false}} {
		t.Run(tc.mode, func(t *testing.T) {
			proj, env := memProject(t)
			env["CEREBRO_SEARCH_CITATIONS"] = tc.mode
			out, err := searchWith(env, SearchOptions{Project: proj, JSON: true, Query: "deploy"})
			if err != nil {
				t.Fatal(err)
			}
			var resp struct {
				Results []map[string]any
			}
			if err := json.Unmarshal([]byte(out), &resp); err != nil || len(resp.Results) != 1 {
				t.Fatalf("%v\n%s", err, out)
			}
			r := resp.Results[0]
			const want = ".claude/memory_long/CORE.md#L1-L2"
			if _, has := r["citation"]; has != tc.citation || tc.citation && r["citation"] != want {
				t.Errorf("citation %v, want it %v", r["citation"], tc.citation)
			}
			if r["path"] != ".claude/memory_long/CORE.md" {
				t.Errorf("path %v", r["path"])
			}
			snip, _ := r["snippet"].(string)
			if strings.HasSuffix(snip, "\nSource: "+want) != tc.footer {
				t.Errorf("snippet %q, footer wanted: %v", snip, tc.footer)
			}
			text, _ := searchWith(env, SearchOptions{Project: proj, Query: "deploy"})
			if strings.Contains(text, "#L1-L2") != tc.textCitesAt || !strings.Contains(text, ".claude/memory_long/CORE.md") {
				t.Errorf("text output:\n%s", text)
			}
		})
	}
	_, env := memProject(t)
	env["CEREBRO_SEARCH_CITATIONS"] = "sometimes"
	proj, _ := memProject(t)
	_, errOut, _ := run(t, env, "", "config", "--project", proj)
	if !strings.Contains(errOut, "search.citations") || !strings.Contains(errOut, "auto|on|off") {
		t.Errorf("a bad setting is not warned about:\n%s", errOut)
	}
}

// memhook index shows a progress line on a terminal and nothing of it
// otherwise (a log, a pipe, a hook).
func TestIndexProgressOnlyOnATerminal(t *testing.T) {
	for _, term := range []bool{true, false} {
		proj, env := memProject(t)
		var out, errb strings.Builder
		code := Main([]string{"index", "--project", proj}, factory.System{
			In: strings.NewReader(""), Out: &out, Err: &errb, Terminal: term,
			Getenv: func(k string) string { return env[k] },
			Now:    func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.Local) },
		})
		if code != 0 {
			t.Fatalf("terminal %v: exit %d: %s", term, code, errb.String())
		}
		if got := strings.Contains(errb.String(), "\rindexing ") && strings.Contains(errb.String(), "1/1 files"); got != term {
			t.Errorf("terminal %v: progress shown %v:\n%q", term, got, errb.String())
		}
		if !strings.Contains(out.String(), "1 files, ") {
			t.Errorf("terminal %v: the summary is missing:\n%s", term, out.String())
		}
	}
}
