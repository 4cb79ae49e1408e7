package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
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

// A project file may add folders inside the project only: a cloned
// repository must not widen a search to the person's other folders.
func TestProjectFileExtraPathsStayInside(t *testing.T) {
	proj, env := memProject(t)
	home := env["HOME"]
	writeTree(t, filepath.Join(home, "private"), map[string]string{"diary.md": "tomatoes and my bank pin\n"})
	writeTree(t, proj, map[string]string{
		"docs/plan.md":         "tomatoes are the plan\n",
		".claude/cerebro.toml": "[search]\nextra_paths = [\"docs\", \"../private\", \"" + filepath.Join(home, "private") + "\", \"~/private\"]\n",
	})
	out, errOut, code := run(t, env, "", "search", "--project", proj, "--json", "tomatoes")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "bank pin") || strings.Contains(out, "diary") {
		t.Fatalf("a project file added a folder outside the project:\n%s", out)
	}
	if !strings.Contains(out, "docs/plan.md") {
		t.Errorf("the project's own docs folder is not searched:\n%s", out)
	}
	if _, errOut, _ := run(t, env, "", "config", "--project", proj); !strings.Contains(errOut, "outside the project") || !strings.Contains(errOut, "../private") {
		t.Errorf("memhook config does not warn about the refused paths:\n%s", errOut)
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
			out, errOut, code := run(t, env, "", "search", "--project", proj, "--json", "deploy")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
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
			text, _, _ := run(t, env, "", "search", "--project", proj, "deploy")
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
