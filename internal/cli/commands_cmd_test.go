package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortcmd"
	"github.com/cerebro-mem/cerebro/internal/testfile"
	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
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
	for _, want := range []string{"allowed-tools: Bash(" + mh + " slash org ingest:*)", "```!\n" + mh + " slash org ingest " + slashHeredoc + "\n```", shortcmd.Marker,
		// The model is offered /cerebro:org_ingest; the short one is the person's.
		"---\n" + shortcmd.Marker + "\ndisable-model-invocation: true\n"} {
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

// A short command installed from an older text of the plugin's command
// (or for a checkout that has moved) still runs what it was given, so
// status and doctor say it is out of date, and install refreshes it.
func TestShortCommandOutOfDate(t *testing.T) {
	home := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "CLAUDE_PLUGIN_ROOT": root}
	if out, errOut, code := run(t, env, "", "commands", "install", "--plugin-root", root); code != 0 {
		t.Fatalf("install: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, _ := run(t, env, "", "commands", "status"); strings.Contains(out, "out of date") || !strings.Contains(out, "/recall              installed") {
		t.Fatalf("status right after install:\n%s", out)
	}
	if out, _, _ := run(t, env, "", "doctor"); strings.Contains(out, "out of date") || !strings.Contains(out, "11 installed") {
		t.Fatalf("doctor right after install:\n%s", out)
	}

	recall := filepath.Join(home, ".claude", "commands", "recall.md")
	data, err := os.ReadFile(recall)
	if err != nil {
		t.Fatal(err)
	}
	older := strings.Replace(string(data), "Do not run the same recall again.", "Do not run the recall again.", 1)
	if older == string(data) {
		t.Fatal("the test's edit did not apply: the command's text has changed")
	}
	os.WriteFile(recall, []byte(older), 0o644)

	out, _, _ := run(t, env, "", "commands", "status")
	if !strings.Contains(out, "/recall              installed, out of date") || strings.Contains(out, "/flush               installed, out of date") {
		t.Errorf("status after the plugin's recall changed:\n%s", out)
	}
	out, _, _ = run(t, env, "", "doctor")
	if !strings.Contains(out, "short commands out of date, written from an older plugin or for a moved checkout: /recall") || !strings.Contains(out, "memhook commands install") {
		t.Errorf("doctor after the plugin's recall changed:\n%s", out)
	}
	// Without a checkout to compare with, nothing is called out of date.
	delete(env, "CLAUDE_PLUGIN_ROOT")
	if out, _, _ := run(t, env, "", "commands", "status"); strings.Contains(out, "out of date") {
		t.Errorf("status with no checkout to compare with:\n%s", out)
	}

	run(t, env, "", "commands", "install", "--plugin-root", root)
	if got, _ := os.ReadFile(recall); string(got) != string(data) {
		t.Errorf("install did not refresh the out-of-date /recall:\n%s", got)
	}
}

// A link or a FIFO under a short command's name is nobody's to overwrite
// or remove: install skips it without following or blocking on it, and
// remove keeps it.
func TestShortCommandLinkAndFIFOAreLeftAlone(t *testing.T) {
	home := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home}
	dir := filepath.Join(home, ".claude", "commands")
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(home, "elsewhere.md")
	os.WriteFile(target, []byte("# cerebro: installed by memhook commands install\n"), 0o644)
	if err := os.Symlink(target, filepath.Join(dir, "recall.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	testfile.FIFO(t, filepath.Join(dir, "flush.md"))
	out, errOut, code := run(t, env, "", "commands", "install", "--plugin-root", root)
	if code != 0 || !strings.Contains(out, "skipped /recall") || !strings.Contains(out, "skipped /flush") {
		t.Fatalf("install: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(target); !strings.HasPrefix(string(got), "# cerebro") || strings.Contains(string(got), "allowed-tools") {
		t.Errorf("install wrote through the link:\n%s", got)
	}
	if out, _, _ = run(t, env, "", "commands", "remove"); !strings.Contains(out, "removed 9 short commands") {
		t.Errorf("remove:\n%s", out)
	}
	for _, n := range []string{"recall.md", "flush.md"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("remove took %s: %v", n, err)
		}
	}
}

// TestShortCommandsAreHiddenFromTheModel: every short command install
// writes is a valid frontmatter with disable-model-invocation set, exactly
// once, so Claude Code offers the model only the plugin's /cerebro:NAME.
func TestShortCommandsAreHiddenFromTheModel(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ShortCommands {
		text, err := shortcmd.Text(root, name, ShortCommands)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Description string `yaml:"description"`
			Hidden      bool   `yaml:"disable-model-invocation"`
		}
		if _, err := frontmatter.Parse([]byte(text), &meta); err != nil {
			t.Fatalf("/%s: %v", name, err)
		}
		if !meta.Hidden || meta.Description == "" || strings.Count(text, "disable-model-invocation:") != 1 {
			t.Errorf("/%s is offered to the model or lost its description:\n%s", name, text)
		}
	}
}
