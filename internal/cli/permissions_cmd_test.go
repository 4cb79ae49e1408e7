package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

const (
	toolSearch = mcpToolPrefix + "__memory_search"
	toolGet    = mcpToolPrefix + "__memory_get"
)

// allowList is permissions.allow of a settings file.
func allowList(t *testing.T, path string) []string {
	t.Helper()
	var doc struct {
		Permissions struct{ Allow []string }
	}
	if err := json.Unmarshal([]byte(testfile.Read(t, path)), &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc.Permissions.Allow
}

// TestPermissionsInstallAndRemove: install adds the two read-only tools
// to the person's ~/.claude/settings.json, keeps all it held and says so
// on one line; a second install adds nothing; remove takes out exactly
// those two and gives back the file as it was.
func TestPermissionsInstallAndRemove(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	settings := filepath.Join(home, ".claude", "settings.json")
	person := "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test)\"\n    ]\n  },\n  \"enabledPlugins\": {\n    \"cerebro@cerebro\": true\n  }\n}\n"
	testfile.Write(t, settings, person)

	out, errOut, code := run(t, env, "", "permissions", "install")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "memory tools: added " + toolSearch + ", " + toolGet + " to permissions.allow in " + settings
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], "recall and remember still ask") {
		t.Fatalf("install said:\n%s\nwant one line starting %q", out, want)
	}
	if got := allowList(t, settings); !reflect.DeepEqual(got, []string{"Bash(npm test)", toolSearch, toolGet}) {
		t.Fatalf("allow = %v", got)
	}
	if text := testfile.Read(t, settings); !strings.Contains(text, `"model": "opus"`) || !strings.Contains(text, `"cerebro@cerebro": true`) {
		t.Fatalf("install lost the person's settings:\n%s", text)
	}

	out, _, code = run(t, env, "", "permissions", "install")
	if code != 0 || strings.TrimSpace(out) != "memory tools: memory_search, memory_get already allowed by "+settings {
		t.Fatalf("second install: exit %d, %q", code, out)
	}
	if got := allowList(t, settings); len(got) != 3 {
		t.Fatalf("second install changed allow: %v", got)
	}

	out, _, code = run(t, env, "", "permissions", "remove")
	if code != 0 || !strings.Contains(out, "removed "+toolSearch+", "+toolGet+" from permissions.allow in "+settings) {
		t.Fatalf("remove: exit %d, %q", code, out)
	}
	if got := testfile.Read(t, settings); got != person {
		t.Fatalf("remove did not give back the person's file:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "cerebro", "claude-permissions.json")); !os.IsNotExist(err) {
		t.Errorf("remove left its record: %v", err)
	}
	out, _, code = run(t, env, "", "permissions", "remove")
	if code != 0 || !strings.Contains(out, "nothing removed") {
		t.Fatalf("second remove: exit %d, %q", code, out)
	}
}

// TestPermissionsRemoveLeavesThePersonsOwnRule: a rule the person had
// before install is theirs: install adds only the other tool, remove
// takes out only that one. A deny rule is left to decide.
func TestPermissionsRemoveLeavesThePersonsOwnRule(t *testing.T) {
	cfg := t.TempDir()
	env := map[string]string{"HOME": t.TempDir(), "CLAUDE_CONFIG_DIR": cfg}
	settings := filepath.Join(cfg, "settings.json")
	testfile.Write(t, settings, `{"permissions":{"allow":["`+toolSearch+`"]}}`)
	// through its run function (its command lines: options_test.go)
	perm := func(action string) (string, error) {
		f, out := testFactory(env)
		err := permissionsRun(&PermissionsOptions{Out: f.Out, Getenv: f.Getenv, PermissionsRecords: f.PermissionsRecords, Action: action})
		return out.String(), err
	}
	out, err := perm("install")
	if err != nil || !strings.Contains(out, "added "+toolGet+" to") || !strings.Contains(out, "memory_search already allowed by "+settings) {
		t.Fatalf("install: %v, %q", err, out)
	}
	if _, err := perm("remove"); err != nil {
		t.Fatalf("remove failed: %v", err)
	}
	if got := allowList(t, settings); !reflect.DeepEqual(got, []string{toolSearch}) {
		t.Fatalf("after remove allow = %v, want the person's own rule only", got)
	}

	testfile.Write(t, settings, `{"permissions":{"deny":["`+mcpToolPrefix+`"]}}`)
	out, _ = perm("install")
	if !strings.Contains(out, "memory_search, memory_get left to your deny or ask rule in "+settings) || len(allowList(t, settings)) != 0 {
		t.Fatalf("install over a deny rule: %q, allow %v", out, allowList(t, settings))
	}
}

// TestPermissionsInstallOnAFreshHome: no ~/.claude yet; the file is made
// with the two rules, and doctor then says those two run without asking
// while recall and remember ask.
func TestPermissionsInstallOnAFreshHome(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	if _, errOut, code := run(t, env, "", "permissions", "install"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	if got := allowList(t, settings); !reflect.DeepEqual(got, []string{toolSearch, toolGet}) {
		t.Fatalf("allow = %v", got)
	}
	out, _, _ := run(t, env, "", "doctor", "--project", t.TempDir())
	want := "memory tools: memory_search, memory_get run without asking (allowed in " + settings + "); recall, remember ask before their first use in a session\n"
	if !strings.Contains(out, want) {
		t.Fatalf("doctor:\n%s\nwant %q", out, want)
	}
}

// TestPermissionsInstallRefusesABrokenFile: a settings file that is not
// JSON is named in one error line with a hint, exit 1, and is left as it
// is; nothing is recorded.
func TestPermissionsInstallRefusesABrokenFile(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	broken := `{"model": "opus",`
	testfile.Write(t, settings, broken)
	_, errOut, code := run(t, map[string]string{"HOME": home}, "", "permissions", "install")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 1 || len(lines) != 2 || !strings.Contains(lines[0], "memhook: error: permissions install: read "+settings) || !strings.HasPrefix(lines[1], "memhook: hint: ") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	if testfile.Read(t, settings) != broken {
		t.Fatal("a broken settings file was changed")
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "cerebro", "claude-permissions.json")); !os.IsNotExist(err) {
		t.Errorf("a failed install left a record: %v", err)
	}
}
