package cli

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// tree lists every path under dir, for "nothing was created" checks.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestBadFlagValuesAreUsageErrors gives each command a flag value out of
// its set or form, and a mistyped flag or command: exit 2, one error line
// naming the command, the flag and the value, one hint line (a
// did-you-mean when a name is near), and nothing created — not the org
// vault, not an index, not a record — in a sandbox where nothing exists yet.
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	proj := filepath.Join(dir, "proj")
	testfile.Write(t, filepath.Join(proj, "notes.md"), "# notes\n")
	env := map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "CEREBRO_HOME": filepath.Join(dir, "desk"),
		"CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "PATH": filepath.Join(dir, "no-bin"),
	}
	for _, tc := range []struct {
		args       []string
		want, hint string
	}{
		{[]string{"serv", "--port", "3701"}, `error: unknown command "serv"`, "did you mean `memhook serve`?"},
		{[]string{"serve", "--port", "3701"}, "error: serve: unknown flag --port", "did you mean --addr? (host:port to listen on)"},
		{[]string{"search", "q", "--limt", "3"}, "error: search: unknown flag --limt", "did you mean --limit?"},
		{[]string{"search", "q", "--limit", "many"}, `error: search: --limit "many": want a whole number`, "memhook search --help"},
		{[]string{"search", "q", "--zzz"}, "error: search: unknown flag --zzz", "memhook search takes --json, --limit, --project, --root, --scope"},
		{[]string{"recall", "hello", "--depth", "extrem"}, `error: recall: --depth "extrem": want standard, deep or extreme`, "did you mean --depth extreme?"},
		{[]string{"recall", "hello", "--limit", "0"}, "error: recall: --limit 0: limit must be a whole number from 1 to 50", "for example --limit 5"},
		{[]string{"remember", "a fact", "--claim", "statd"}, `error: remember: --claim "statd": want stated, inferred or computed`, "did you mean --claim stated?"},
		{[]string{"remember", "a fact", "--calendar", "2026-13"}, `error: remember: --calendar "2026-13": calendar`, "memhook remember --help"},
		{[]string{"rollup", "--now", "yesterday"}, `error: rollup: --now "yesterday": want a date YYYY-MM-DD`, "for example --now 2026-11-30"},
		{[]string{"night", "--now", "tomorrow"}, `error: night: --now "tomorrow": want a date YYYY-MM-DD`, "for example --now"},
		{[]string{"rollup-days", "--now", "x", "--project", proj}, `error: rollup-days: --now "x": want a date`, "for example --now"},
		{[]string{"flush", "--trigger", "manul"}, `error: flush: --trigger "manul": want auto, pre-compact, session-end, recovery or manual`, "did you mean --trigger manual?"},
		{[]string{"runs", "--kind", "recal"}, `error: runs: --kind "recal": want recall, remember, relearn, turn or shadow`, "did you mean --kind recall?"},
		{[]string{"runs", "--limit", "-1"}, "error: runs: --limit -1: want 0 or more", "for example --limit 5"},
		{[]string{"search", "q", "--scope", "orgs"}, `error: search: --scope "orgs": want project, org, all, projects or everything`, "did you mean --scope org?"},
		{[]string{"index", "--scope", "everything"}, `error: index: --scope "everything": want project, org or all`, "use --scope project|org|all"},
		{[]string{"org", "query", "retro", "--limit", "0"}, "error: org query: --limit 0: want 1 or more", "for example --limit 5"},
		{[]string{"evolve", "judge", "--pair", "p1", "--better", "3"}, `error: evolve judge: --better "3": want 1, 2, both or neither`, "use --better 1|2|both|neither"},
		{[]string{"evolve", "log", "--limit", "-2"}, "error: evolve log: --limit -2: want 0 or more", "for example"},
		{[]string{"verdict", "r1", "god"}, `error: verdict "god": want good or bad`, "did you mean good?"},
		{[]string{"verdict", "r1", "good", "--source", "me"}, `error: verdict: --source "me": want person or caller`, "use --source person|caller"},
		{[]string{"schedule", "install", "--dry-run", "--at", "7"}, `error: schedule: --at "7": want a time of day HH:MM`, "for example --at 07:30"},
		{[]string{"schedule", "install", "--dry-run", "--os", "darwn"}, `error: schedule: --os "darwn": want linux, darwin or windows`, "did you mean --os darwin?"},
		{[]string{"fact", "add", "wiki/a.md", "a fact", "--evidence", "2026-11-01"}, `error: fact add: --evidence "2026-11-01": want daily/YYYY-MM-DD`, "for example --evidence daily/2026-11-30"},
		{[]string{"fact", "add", "wiki/a.md", "a fact", "--evidence", "daily/2026-11-01", "--time", "25:00"}, `error: fact add: --time "25:00": want a time of day HH:MM`, "for example --time 07:30"},
		{[]string{"fact", "add", "wiki/a.md", "a fact"}, "error: fact add: --evidence is required", "usage: memhook fact add"},
		{[]string{"get", "notes.md", "--from", "0", "--project", proj}, "error: get: --from 0: want 1 or more", "for example"},
		{[]string{"long", "log", "--limit", "-1", "--project", proj}, "error: long log: --limit -1: want 0 or more", "for example"},
	} {
		name := strings.Join(tc.args, " ")
		before := tree(t, dir)
		_, errOut, code := run(t, env, "", tc.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != 2 || len(lines) != 2 {
			t.Errorf("memhook %s: exit %d with %d stderr lines, want 2 and an error with a hint:\n%s", name, code, len(lines), errOut)
			continue
		}
		if lines[0] != "memhook: "+tc.want && !strings.HasPrefix(lines[0], "memhook: "+tc.want) {
			t.Errorf("memhook %s: error line %q, want %q", name, lines[0], "memhook: "+tc.want)
		}
		if strings.Count(lines[0], "memhook:") != 1 {
			t.Errorf("memhook %s: the prefix is doubled: %q", name, lines[0])
		}
		if !strings.HasPrefix(lines[1], "memhook: hint: ") || !strings.Contains(lines[1], tc.hint) {
			t.Errorf("memhook %s: hint %q, want one with %q", name, lines[1], tc.hint)
		}
		if after := tree(t, dir); strings.Join(after, "\n") != strings.Join(before, "\n") {
			t.Errorf("memhook %s: created files before rejecting the flag:\nbefore %v\nafter  %v", name, before, after)
		}
	}
}

// TestJSONRequestKeepsItsFates: the same bad depth sent as JSON is no
// usage error: the answer object gives it the contract's fate, bad_form,
// and the recall runs at the default depth, exit 0.
func TestJSONRequestKeepsItsFates(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "CEREBRO_HOME": filepath.Join(dir, "desk"),
		"CEREBRO_STATE_DIR": filepath.Join(dir, "state")}
	out, errOut, code := run(t, env, `{"text":"hello","depth":"extrem"}`, "recall", "--request", "-")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"fate": "bad_form"`) || !strings.Contains(out, `"depth_requested": "standard"`) {
		t.Errorf("the JSON request's bad depth is not a bad_form fate:\n%s", out)
	}
}
