package factory

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
)

// boxProject is a project with one note in its short-term memory, and the
// factory of a process whose settings come from env (a user file in
// CEREBRO_CONFIG, the project's own file), its state in a temp dir.
func boxProject(t *testing.T, env map[string]string) (*Factory, string) {
	t.Helper()
	root, state := t.TempDir(), t.TempDir()
	note := filepath.Join(root, ".claude", "memory_short", "2026-11-30.md")
	os.MkdirAll(filepath.Dir(note), 0o755)
	os.WriteFile(note, []byte("# 2026-11-30\n\nThe walrus census is run by Ada from the harbour office.\n"), 0o644)
	if env["CEREBRO_DISTILLER_COMMAND"] == "" {
		env["CEREBRO_DISTILLER_COMMAND"] = filepath.Join(state, "no-claude-here")
	}
	if env["CEREBRO_CONFIG"] == "" {
		env["CEREBRO_CONFIG"] = filepath.Join(state, "none.toml")
	}
	env["HOME"], env["CEREBRO_HOME"], env["CEREBRO_STATE_DIR"] = t.TempDir(), t.TempDir(), state
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f := New(System{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return now }})
	root, err := f.ProjectRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	return f, root
}

func boxRaw(t *testing.T, kv ...string) blackbox.Raw {
	t.Helper()
	r := blackbox.Raw{}
	for i := 0; i < len(kv); i += 2 {
		v, _ := json.Marshal(kv[i+1])
		r[kv[i]] = v
	}
	return r
}

func keep(ans any) any { return ans }

// Level 2 goes through the project's search index: the note is found as a
// passage of its file, and the tables' cache lives in the state dir.
func TestOpenSearchesTheIndexes(t *testing.T) {
	f, root := boxProject(t, map[string]string{})
	box, done, err := f.OpenBox(root)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, ok := box.Text.(*blackbox.Indexed); !ok {
		t.Fatalf("level 2 is %T, want the indexes", box.Text)
	}
	hits, err := box.Text.Search(context.Background(), "who runs the walrus census", 3)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Path, "2026-11-30.md") {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	if box.Vector != nil || box.VectorWhy != "no embedding provider configured" || box.Research != nil {
		t.Fatalf("levels 4 and 5 without a provider or claude: %+v", box)
	}
	if _, err := os.Stat(filepath.Join(f.Paths.Indexes(), project.ID(root), "tables.db")); err != nil {
		t.Fatalf("the tables' cache is not in the state dir: %v", err)
	}
}

// The day's model calls are the user's to set: a project file asking for
// more gets the user's limit, and once the day's calls are spent level 5
// is not offered, with the reason.
func TestResearchKeepsTheUsersDailyBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in claude is a shell script")
	}
	bin := t.TempDir()
	stand := filepath.Join(bin, "claude")
	os.WriteFile(stand, []byte("#!/bin/sh\ncat >/dev/null\necho x >> '"+bin+"/calls'\necho answer\n"), 0o755)
	user := filepath.Join(bin, "config.toml")
	os.WriteFile(user, []byte("[recall]\nextreme_daily_calls = 1\n"), 0o644)
	env := map[string]string{"CEREBRO_DISTILLER_COMMAND": stand, "CEREBRO_CONFIG": user}
	f, root := boxProject(t, env)
	os.WriteFile(filepath.Join(root, ".claude", "cerebro.toml"), []byte("[recall]\nextreme_daily_calls = 100\n"), 0o644)
	box, done, err := f.OpenBox(root)
	if err != nil {
		t.Fatal(err)
	}
	if box.Research == nil || box.Namer == nil {
		t.Fatalf("no research with a claude and calls left: %q %q", box.ResearchWhy, box.NamerWhy)
	}
	if _, err := box.Research.Call(context.Background(), "question", false); err != nil {
		t.Fatal(err)
	}
	if _, err := box.Namer.Call(context.Background(), "NAME-TABLE x", false); err == nil || !strings.Contains(err.Error(), "shared by extreme recall and table naming") {
		t.Fatalf("naming past the shared budget: %v", err)
	}
	done()
	if calls, _ := os.ReadFile(filepath.Join(bin, "calls")); strings.Count(string(calls), "x") != 1 {
		t.Fatalf("model calls: %q, want one", calls)
	}
	box, done, err = f.OpenBox(root)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if box.Research != nil || !strings.Contains(box.ResearchWhy, "the day's 1 model calls for extreme recall are spent") {
		t.Fatalf("spent budget: research %v, %q", box.Research, box.ResearchWhy)
	}
}

// A recall inside cerebro's own model call prints its answer through the
// secret guard; the person's own recall prints memory as it is.
func TestRecallInsideANestedCallIsGuarded(t *testing.T) {
	token := "ghp_" + strings.Repeat("aB3dE5gH7jK9", 3)
	env := map[string]string{}
	f, root := boxProject(t, env)
	ctx := context.Background()
	verb := func(do func(*blackbox.Box) (any, error)) (any, error) {
		t.Helper()
		box, done, err := f.OpenBox(root)
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		return do(box)
	}
	if _, err := verb(func(b *blackbox.Box) (any, error) {
		return blackbox.Remember(ctx, b, boxRaw(t, "text", "the deploy token of the walrus census is "+token), f.Now(), keep)
	}); err != nil {
		t.Fatal(err)
	}
	ask := func() string {
		t.Helper()
		ans, err := verb(func(b *blackbox.Box) (any, error) {
			return blackbox.Recall(ctx, b, boxRaw(t, "text", "deploy token walrus census"), f.Now(), keep)
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(ans)
		return string(b)
	}
	if out := ask(); !strings.Contains(out, token) {
		t.Fatalf("the person's recall lost the memory: %s", out)
	}
	env["CEREBRO_NESTED"] = "1"
	if out := ask(); strings.Contains(out, token) || !strings.Contains(out, "walrus") {
		t.Fatalf("a nested recall printed the token, or nothing: %s", out)
	}
}

// A request the contract refuses (nothing asked) never reaches the record.
func TestRecallRefusesABadRequestUnrecorded(t *testing.T) {
	f, root := boxProject(t, map[string]string{})
	box, done, err := f.OpenBox(root)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	recorded := false
	_, err = blackbox.Recall(context.Background(), box, boxRaw(t), f.Now(), func(a any) any { recorded = true; return a })
	if err == nil || recorded {
		t.Fatalf("an empty request: %v, recorded %v", err, recorded)
	}
}
