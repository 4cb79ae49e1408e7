package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/runlog"
)

func runOnce(t *testing.T, env map[string]string, stdin string, h Handler) (*HandOver, string, []runlog.Entry) {
	t.Helper()
	getenv := func(k string) string { return env[k] }
	paths := config.ResolvePaths(getenv)
	var out bytes.Buffer
	p := Process{In: strings.NewReader(stdin), Out: &out, Getenv: getenv, Now: time.Now, Paths: paths,
		Config: func(root string) *config.Effective { return config.Load(getenv, root) }, TakeHandOver: true}
	ho, _ := Run(p, "stop", map[string]Handler{"stop": h})
	entries, err := runlog.Open(paths.Logs(), 0).Read()
	if err != nil {
		t.Fatal(err)
	}
	return ho, out.String(), entries
}

func TestRunLogsOnceAndHandsOverSilently(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": dir, "CEREBRO_STATE_DIR": filepath.Join(dir, "state"), "CEREBRO_CONFIG": filepath.Join(dir, "none.toml")}
	in := `{"session_id":"s1","cwd":"` + proj + `","hook_event_name":"Stop"}`

	ho, out, entries := runOnce(t, env, in, func(ctx context.Context, c *Call) ([]byte, error) {
		if c.Root != proj || c.In.SessionID != "s1" {
			t.Errorf("call %+v", c)
		}
		return []byte(`{"x":1}`), nil
	})
	if ho != nil || out != `{"x":1}` || len(entries) != 1 || entries[0].Session != "s1" || entries[0].Level == "error" {
		t.Fatalf("plain run: %v %q %+v", ho, out, entries)
	}

	ho, out, entries = runOnce(t, env, in, func(ctx context.Context, c *Call) ([]byte, error) {
		return nil, &HandOver{Handed: Handed{Reason: "flush due"}}
	})
	if ho == nil || ho.Reason != "flush due" || out != "" || len(entries) != 1 {
		t.Fatalf("a hand-over printed %q or wrote a log entry of its own (%d entries)", out, len(entries))
	}

	// memhook, started on the handed-over event, takes the project
	// handed and names the reason in its entry.
	env[HandOverEnv] = strings.TrimPrefix(Handed{Reason: "flush due", Session: "s1", Root: proj, Captured: true, FlushDue: true}.Env(), HandOverEnv+"=")
	_, _, entries = runOnce(t, env, in, func(ctx context.Context, c *Call) ([]byte, error) {
		if c.Handed == nil || c.Root != proj || !c.Handed.FlushDue || !c.Handed.Captured {
			t.Errorf("handed %+v, root %q", c.Handed, c.Root)
		}
		return nil, nil
	})
	if len(entries) != 2 || entries[1].Message != "from memhook-hot: flush due" || entries[1].Level != "info" {
		t.Fatalf("entries %+v", entries)
	}
	// A record that is not one is refused whole, and said so.
	env[HandOverEnv] = "flush due"
	_, _, entries = runOnce(t, env, in, func(ctx context.Context, c *Call) ([]byte, error) {
		if c.Handed != nil || c.Root != proj {
			t.Errorf("handed %+v, root %q", c.Handed, c.Root)
		}
		return nil, nil
	})
	if len(entries) != 3 || entries[2].Level != "warn" || !strings.Contains(entries[2].Message, "not a record") {
		t.Fatalf("entries %+v", entries)
	}
}

func TestBriefInputKeepsIdsAndPaths(t *testing.T) {
	in, err := Decode(strings.NewReader(`{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/p","hook_event_name":"Stop","last_assistant_message":"a long answer"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(in.Brief()))
	if err != nil || got.SessionID != "s1" || got.TranscriptPath != "/t/s1.jsonl" || got.CWD != "/p" || got.Event != Stop || got.LastAssistantMessage != "" {
		t.Fatalf("brief %s decoded as %+v (%v)", in.Brief(), got, err)
	}
}
