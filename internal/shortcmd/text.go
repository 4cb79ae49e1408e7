package shortcmd

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Text is the short command install writes for name from the checkout at
// root; names are every short command, whose /cerebro:NAME mentions
// become /NAME.
func Text(root, name string, names []string) (string, error) {
	src := filepath.Join(root, "commands", name+".md")
	data, err := safefs.ReadFile(src, 64<<10)
	if err != nil {
		return "", fmt.Errorf("read the plugin's %s: %w", src, err)
	}
	text, err := commandText(string(data), root, names)
	if err != nil {
		return "", fmt.Errorf("%s: %w", src, err)
	}
	return text, nil
}

// commandText turns the plugin's command into the user-level one: the
// plugin's paths become the checkout's absolute path, the state dir is
// left to memhook's default (the installed plugin's data dir, which its
// hooks use), /cerebro:NAME becomes /NAME, and the marker is added. A
// short command is the person's way to type the plugin's: the model is
// offered the plugin's /cerebro:NAME already, so the short one is hidden
// from it (disable-model-invocation) and costs no request any context.
func commandText(plugin, root string, names []string) (string, error) {
	if !strings.HasPrefix(plugin, "---\n") {
		return "", errors.New("no frontmatter")
	}
	front, _, ok := strings.Cut(plugin[4:], "\n---\n")
	if !ok {
		return "", errors.New("frontmatter not closed")
	}
	hide := "disable-model-invocation: true\n"
	if strings.Contains("\n"+front+"\n", "\ndisable-model-invocation:") {
		hide = "" // the plugin's command says it already
	}
	t := "---\n" + Marker + "\n" + hide + plugin[4:]
	t = strings.ReplaceAll(t, ` --state-dir "${CLAUDE_PLUGIN_DATA}"`, "")
	t = strings.ReplaceAll(t, "${CLAUDE_PLUGIN_ROOT}", filepath.ToSlash(root))
	for _, n := range names {
		t = strings.ReplaceAll(t, "/cerebro:"+n, "/"+n)
	}
	if strings.Contains(t, "${CLAUDE_PLUGIN_") {
		return "", errors.New("a plugin variable is left that a user-level command cannot resolve")
	}
	return t, nil
}

// WriteStatus prints each short command's state, one line a command.
func WriteStatus(w io.Writer, names []string, st map[string]State) {
	for _, n := range names {
		fmt.Fprintf(w, "/%-19s %s\n", n, st[n])
	}
}

// WriteSkipped says which files install left as they were: a person's own.
func (r Installed) WriteSkipped(w io.Writer) {
	for _, path := range r.Skipped {
		n := strings.TrimSuffix(filepath.Base(path), ".md")
		fmt.Fprintf(w, "skipped /%s: %s is not cerebro's; kept as it is (/cerebro:%s still works)\n", n, path, n)
	}
}

// WriteText says what install wrote into dir.
func (r Installed) WriteText(w io.Writer, dir string) {
	fmt.Fprintf(w, "installed %d short commands in %s (running %s)", r.Count, dir, r.Runs)
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "; skipped %d", len(r.Skipped))
	}
	fmt.Fprintln(w)
}

// WriteKept says which files remove left: a person's own.
func (r Removed) WriteKept(w io.Writer) {
	for _, path := range r.Kept {
		fmt.Fprintf(w, "kept %s: not cerebro's\n", path)
	}
}
