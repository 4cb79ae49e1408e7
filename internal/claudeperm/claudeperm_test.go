package claudeperm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const (
	search = "mcp__plugin_cerebro_memory__memory_search"
	get    = "mcp__plugin_cerebro_memory__memory_get"
)

// claudeWritten is a settings file as Claude Code writes it
// (JSON.stringify with two spaces): keys in its order, unicode, numbers a
// Go float would rewrite, hooks and an env block.
const claudeWritten = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "env": {
    "BIG": 12345678901234567890,
    "RATIO": 1.50,
    "NOTE": "<b>&é \u2028"
  },
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Bash(curl:*)"
    ],
    "defaultMode": "acceptEdits"
  },
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo done"
          }
        ]
      }
    ]
  },
  "statusLine": null,
  "cleanupPeriodDays": 30
}
`

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAllowAddsToAClaudeWrittenFileAndKeepsEveryByteElse: the two rules
// are appended to permissions.allow; every other line of the file is as
// it was (the big integer, the decimal's trailing zero, the escapes, the
// key order), and Revoke gives back the very file.
func TestAllowAddsToAClaudeWrittenFileAndKeepsEveryByteElse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	write(t, path, claudeWritten)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	ch, err := Allow(path, []string{search, get})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ch.Added, []string{search, get}) || len(ch.Present)+len(ch.Refused) != 0 || ch.Path != path {
		t.Fatalf("change = %+v", ch)
	}
	want := strings.Replace(claudeWritten, `      "Read(~/.zshrc)"
`, `      "Read(~/.zshrc)",
      "`+search+`",
      "`+get+`"
`, 1)
	if got := readText(t, path); got != want {
		t.Fatalf("file after Allow:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	ch, err = Revoke(path, []string{search, get})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ch.Removed, []string{search, get}) {
		t.Fatalf("removed %v", ch.Removed)
	}
	if got := readText(t, path); got != claudeWritten {
		t.Fatalf("Revoke did not give back the file:\n%s", got)
	}
}

// TestAllowCreatesAMissingFile: no ~/.claude yet (Claude Code never run
// by this user): the folder and a file holding only the rules.
func TestAllowCreatesAMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	if _, err := Allow(path, []string{search, get}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"permissions\": {\n    \"allow\": [\n      \"" + search + "\",\n      \"" + get + "\"\n    ]\n  }\n}\n"
	if got := readText(t, path); got != want {
		t.Fatalf("got:\n%s", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a new settings file has mode %v, want 0600", fi.Mode().Perm())
	}
	// Revoke leaves no permissions object it emptied.
	if _, err := Revoke(path, []string{search, get}); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); got != "{}\n" {
		t.Fatalf("after Revoke: %q, want {}", got)
	}
}

// TestAllowLeavesWhatIsAlreadyDecided: a rule already allowed (itself or
// by its server's rule) is not added twice; one the person denies or asks
// for is not added at all; a file with nothing to add is not rewritten.
func TestAllowLeavesWhatIsAlreadyDecided(t *testing.T) {
	for _, tc := range []struct {
		name, text       string
		present, refused []string
		added            []string
	}{
		{"server allowed", `{"permissions":{"allow":["mcp__plugin_cerebro_memory"]}}`, []string{search, get}, nil, nil},
		{"one allowed", `{"permissions":{"allow":["` + search + `"]}}`, []string{search}, nil, []string{get}},
		{"denied", `{"permissions":{"deny":["` + get + `"]}}`, nil, []string{get}, []string{search}},
		{"asked for, the server", `{"permissions":{"ask":["mcp__plugin_cerebro_memory"]}}`, nil, []string{search, get}, nil},
		{"another server's rule", `{"permissions":{"allow":["mcp__plugin_cerebro"]}}`, nil, nil, []string{search, get}},
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		write(t, path, tc.text)
		before, _ := os.Stat(path)
		ch, err := Allow(path, []string{search, get})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(ch.Present, tc.present) || !reflect.DeepEqual(ch.Refused, tc.refused) || !reflect.DeepEqual(ch.Added, tc.added) {
			t.Errorf("%s: change %+v", tc.name, ch)
		}
		after, _ := os.Stat(path)
		if len(tc.added) == 0 && (!os.SameFile(before, after) || readText(t, path) != tc.text) {
			t.Errorf("%s: nothing to add, but the file was rewritten", tc.name)
		}
		var doc struct{ Permissions map[string][]string }
		if err := json.Unmarshal([]byte(readText(t, path)), &doc); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, r := range tc.added {
			n := 0
			for _, a := range doc.Permissions["allow"] {
				if a == r {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: %s is in allow %d times", tc.name, r, n)
			}
		}
	}
}

// TestBadFilesAreLeftAsTheyAre: a file Claude Code could not read either,
// or permissions of the wrong shape, is an error naming the file, and the
// file is not changed.
func TestBadFilesAreLeftAsTheyAre(t *testing.T) {
	for _, text := range []string{
		`{"model": "opus",`,
		`["not", "an", "object"]`,
		`{"permissions": "all"}`,
		`{"permissions": {"allow": "Bash"}}`,
		`{"permissions": {"deny": {"x": 1}}}`,
		`{"a": 1} {"b": 2}`,
		"// a comment\n{}",
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		write(t, path, text)
		_, err := Allow(path, []string{search})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%q: err = %v, want one naming the file and saying nothing was changed", text, err)
		}
		if got := readText(t, path); got != text {
			t.Errorf("%q: file became %q", text, got)
		}
	}
	// A folder where the file should be.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "settings.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Allow(filepath.Join(dir, "settings.json"), []string{search}); err == nil {
		t.Error("a folder named settings.json was taken for a settings file")
	}
}

// TestRevokeTakesOutExactlyItsRules: the person's other rules, deny and
// ask lists stay; a rule for the whole server is not one of the rules to
// revoke and stays; every copy of a revoked rule goes.
func TestRevokeTakesOutExactlyItsRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	write(t, path, `{"permissions":{"allow":["Bash(ls)","`+search+`","mcp__plugin_cerebro_memory","`+search+`","`+get+`"],"deny":["`+get+`"]},"model":"x"}`)
	ch, err := Revoke(path, []string{search, get})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ch.Removed, []string{search, get}) {
		t.Fatalf("removed %v", ch.Removed)
	}
	want := "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls)\",\n      \"mcp__plugin_cerebro_memory\"\n    ],\n    \"deny\": [\n      \"" + get + "\"\n    ]\n  },\n  \"model\": \"x\"\n}\n"
	if got := readText(t, path); got != want {
		t.Fatalf("got:\n%s", got)
	}
	// Nothing of ours left: no change, no write; a missing file stays missing.
	before, _ := os.Stat(path)
	if ch, err := Revoke(path, []string{search}); err != nil || len(ch.Removed) != 0 {
		t.Fatalf("second Revoke: %+v, %v", ch, err)
	}
	if after, _ := os.Stat(path); !os.SameFile(before, after) {
		t.Error("a Revoke with nothing to remove rewrote the file")
	}
	missing := filepath.Join(t.TempDir(), "settings.json")
	if _, err := Revoke(missing, []string{search}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Error("Revoke created a missing file")
	}
}

// TestALinkedSettingsFileIsChangedWhereItPoints: a dotfiles checkout's
// settings.json, linked into ~/.claude, gets the rules and stays linked.
func TestALinkedSettingsFileIsChangedWhereItPoints(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude-settings.json")
	write(t, target, `{"model":"opus"}`)
	link := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	ch, err := Allow(link, []string{search})
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(target); ch.Path != real && ch.Path != target {
		t.Errorf("wrote %s, want the link's target %s", ch.Path, target)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings.json is no longer a link: %v %v", fi, err)
	}
	if got := readText(t, target); !strings.Contains(got, search) || !strings.Contains(got, `"model": "opus"`) {
		t.Fatalf("target: %s", got)
	}
}

// TestAChangeMadeMeanwhileIsKept: when another program writes the file
// between the read and the write, the edit starts again on its text, so
// both changes are in the file.
func TestAChangeMadeMeanwhileIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	write(t, path, `{"model":"opus"}`)
	once := false
	beforeWrite = func(p string) {
		if !once {
			once = true
			write(t, p, `{"model":"opus","theme":"dark"}`)
		}
	}
	defer func() { beforeWrite = func(string) {} }()
	if _, err := Allow(path, []string{search}); err != nil {
		t.Fatal(err)
	}
	got := readText(t, path)
	if !strings.Contains(got, `"theme": "dark"`) || !strings.Contains(got, search) {
		t.Fatalf("a change made meanwhile was lost:\n%s", got)
	}
	// One that never stops changing is refused, and not overwritten.
	n := 0
	beforeWrite = func(p string) {
		n++
		write(t, p, `{"n":`+strings.Repeat("1", n)+`}`)
	}
	if _, err := Allow(path, []string{get}); err == nil || !strings.Contains(err.Error(), "keeps changing") {
		t.Fatalf("err = %v", err)
	}
	if got := readText(t, path); strings.Contains(got, get) {
		t.Fatalf("wrote over a file that kept changing: %s", got)
	}
}
