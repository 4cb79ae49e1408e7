package serve_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// pluginCheckout is a plugin checkout whose skill has two versions in the
// checkout's own git: what a revert from the page would change.
func pluginCheckout(t *testing.T, dir string) skill.Ref {
	t.Helper()
	file := filepath.Join(dir, "skills", "use-memory", "SKILL.md")
	now := time.Now()
	for i, body := range []string{"Recall before you answer.", "Recall before you answer; remember what the person states."} {
		write(t, file, "---\nname: use-memory\ndescription: Use to store a fact for later sessions or to look up what this project remembers (memhook remember / recall).\n---\n\n"+body+"\n")
		ref, _ := skill.Locate(file)
		if _, err := skill.Commit(ref, "merge firsthour: release "+string(rune('1'+i)), now.Add(time.Duration(i-2)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	ref, _ := skill.Locate(file)
	return ref
}

// TestPluginSkillIsReadOnly: a plugin skill's page shows its text and
// that it is the plugin's, none of the checkout's history and no revert;
// a revert POST of it is refused by the server (not only hidden), and the
// checkout is left as it was. The project's own skill keeps its versions
// and its revert.
func TestPluginSkillIsReadOnly(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "atlas")
	plugin := pluginCheckout(t, filepath.Join(tmp, "plugin"))
	own := filepath.Join(root, ".claude", "skills", "use-tables", "SKILL.md")
	for i, body := range []string{"Write values in place.", "Write values in place; promote a kind to a list."} {
		write(t, own, "---\nname: use-tables\n---\n\n"+body+"\n")
		ref, _ := skill.Locate(own)
		if _, err := skill.Commit(ref, "Edit", time.Now().Add(time.Duration(i-2)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	before, err := skill.Log(plugin, 0)
	if err != nil || len(before) != 2 {
		t.Fatalf("the plugin checkout's log: %v, %d commits", err, len(before))
	}
	srv, err := serve.New(serve.Options{Addr: "127.0.0.1:3700", Start: serve.Project{ID: "atlas-1", Name: "atlas", Root: root},
		OpenBox: func(string) (*blackbox.Box, func(), error) { return nil, nil, errors.New("no memory in this test") },
		SkillsDirs: func(string) []serve.SkillsDir {
			return serve.SkillsDirsOf([]string{filepath.Join(root, ".claude", "skills"), plugin.Root}, "")
		}})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	do := func(method, path string, form url.Values) (int, string) {
		req := httptest.NewRequest(method, "http://127.0.0.1:3700"+path, strings.NewReader(form.Encode()))
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}

	code, body := do("GET", "/en/skills/use-memory?confirm=revert", nil)
	if code != http.StatusOK || !strings.Contains(body, "remember what the person states") || !strings.Contains(body, `id="plugin-skill"`) {
		t.Fatalf("the plugin skill's page: %d\n%s", code, body)
	}
	for _, c := range before {
		if strings.Contains(body, c.Message) || strings.Contains(body, c.Hash[:12]) {
			t.Errorf("the plugin skill's page shows the checkout's commit %q", c.Message)
		}
	}
	for _, no := range []string{`id="revert"`, `id="confirm"`, `id="log"`, `/revert"`} {
		if strings.Contains(body, no) {
			t.Errorf("the plugin skill's page offers %s", no)
		}
	}
	// Comparing two of the checkout's commits is refused too.
	if code, _ := do("GET", "/en/skills/use-memory?from="+before[1].Hash+"&to="+before[0].Hash, nil); code != http.StatusBadRequest {
		t.Errorf("a diff of the plugin's commits: %d, want 400", code)
	}
	// The token from the project skill's confirmation, the one form a
	// skill page holds.
	_, confirm := do("GET", "/en/skills/use-tables?confirm=revert", nil)
	tok := tokenRE.FindStringSubmatch(confirm)
	if tok == nil {
		t.Fatalf("no CSRF token on the confirmation:\n%s", confirm)
	}
	for _, form := range []url.Values{{"csrf": {tok[1]}, "confirm": {"yes"}}, {"csrf": {tok[1]}}} {
		if code, body := do("POST", "/en/skills/use-memory/revert", form); code != http.StatusForbidden || !strings.Contains(body, "read-only") {
			t.Errorf("revert of the plugin skill (%v): %d\n%s", form, code, body)
		}
	}
	after, _ := skill.Log(plugin, 0)
	data, _ := os.ReadFile(plugin.File)
	if len(after) != len(before) || !strings.Contains(string(data), "remember what the person states") {
		t.Errorf("the plugin checkout changed: %d commits, file:\n%s", len(after), data)
	}

	// The project's own skill: its versions and a working revert.
	code, body = do("GET", "/en/skills/use-tables", nil)
	if code != http.StatusOK || !strings.Contains(body, `id="log"`) || !strings.Contains(body, `id="revert"`) || strings.Contains(body, `id="plugin-skill"`) {
		t.Fatalf("the project's skill page: %d\n%s", code, body)
	}
	if code, body := do("POST", "/en/skills/use-tables/revert", url.Values{"csrf": {tok[1]}, "confirm": {"yes"}}); code != http.StatusOK {
		t.Fatalf("revert of the project's skill: %d\n%s", code, body)
	}
	if data, _ := os.ReadFile(own); strings.Contains(string(data), "promote") {
		t.Errorf("the project's skill was not reverted:\n%s", data)
	}
}
