package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// install writes every short command from the plugin's own file, running
// the checkout's memhook with no plugin variable left; a person's own file
// is skipped and kept; remove deletes only cerebro's files and leaves no
// empty folder behind.
func TestShortCommandsInstallRemove(t *testing.T) {
	home := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home}
	dir := filepath.Join(home, ".claude", "commands")
	os.MkdirAll(dir, 0o755)
	mine := "---\ndescription: my own recall\n---\nRecall it my way: $ARGUMENTS\n"
	os.WriteFile(filepath.Join(dir, "recall.md"), []byte(mine), 0o644)

	out, errOut, code := run(t, env, "", "commands", "install", "--plugin-root", root)
	if code != 0 || !strings.Contains(out, "skipped /recall") || !strings.Contains(out, "installed 10 short commands") {
		t.Fatalf("install: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "recall.md")); string(got) != mine {
		t.Fatalf("install changed a person's command file:\n%s", got)
	}
	data, err := os.ReadFile(filepath.Join(dir, "org_ingest.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	mh := `"` + filepath.ToSlash(root) + `/scripts/memhook"`
	for _, want := range []string{"allowed-tools: Bash(" + mh + " slash org ingest:*)", "```!\n" + mh + " slash org ingest <<'!CEREBRO'\n$ARGUMENTS\n!CEREBRO\n```", shortMarker} {
		if !strings.Contains(text, want) {
			t.Errorf("org_ingest.md lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "${CLAUDE_PLUGIN") || strings.Contains(text, "/cerebro:org_") {
		t.Errorf("org_ingest.md keeps a plugin variable or a namespaced name:\n%s", text)
	}
	out, _, _ = run(t, env, "", "commands", "status")
	if !strings.Contains(out, "/org_ingest") || !strings.Contains(out, "/recall              a person's own file") {
		t.Errorf("status:\n%s", out)
	}
	// Installing again updates cerebro's files and still skips the person's.
	if out, _, code = run(t, env, "", "commands", "install", "--plugin-root", root); code != 0 || !strings.Contains(out, "skipped /recall") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}

	out, _, code = run(t, env, "", "commands", "remove")
	if code != 0 || !strings.Contains(out, "removed 10 short commands") {
		t.Fatalf("remove: exit %d\n%s", code, out)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "recall.md" {
		t.Errorf("after remove the folder holds %v, want only the person's recall.md", entries)
	}
	os.Remove(filepath.Join(dir, "recall.md"))
	run(t, env, "", "commands", "install", "--plugin-root", root)
	run(t, env, "", "commands", "remove")
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("remove left the empty %s behind", dir)
	}
}
