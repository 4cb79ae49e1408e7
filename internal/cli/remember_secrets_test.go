package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// TestRememberKeepsEverySecretKindOut: a secret of each kind a person
// pastes — an API key, an AWS secret, a GitHub token, a database password,
// a private key, a service token — given to `remember` as its text, in a
// --request file and as a table's value reaches no store in clear: not
// the records, the tables' journal and cache, the run records, the search
// index, the night's prompts, nor what `long sync` pushes to the remote
// (read back from a clone of it).
func TestRememberKeepsEverySecretKindOut(t *testing.T) {
	e := newNightEnv(t, true)
	remotes := t.TempDir()
	e.env["CEREBRO_LONG_REMOTE"] = "file://" + filepath.Join(remotes, "{project}-memory.git")
	kinds := []struct{ name, text, secret string }{
		{"api key", "the billing API key: sk-ant-api03-Q7vX2mK9pL4wR8tY3nB6cF1hJ5dG0sA2eZ7uI4oP9qW3xV6bN8mK1lJ5hG2fD4sA", "sk-ant-api03-Q7vX2mK9pL4wR8tY3nB6cF1h"},
		{"aws secret", "aws_secret_access_key = q8Hn2vT5kP0sLr7wXc4yBz1mFg6jDa9eUi3oNb5R", "q8Hn2vT5kP0sLr7wXc4yBz1mFg6jDa9eUi3oNb5R"},
		{"github token", "push with ghp_R8kT2mW5qZ9xV3bN7cL1pH4sF6gJ0dYaE2uI", "ghp_R8kT2mW5qZ9xV3bN7cL1pH4sF6gJ0dYaE2uI"},
		{"database password", "DATABASE_URL=postgres://billing:Wq7rT2zX9kLm4Np@db.internal:5432/billing", "Wq7rT2zX9kLm4Np"},
		{"service token", "the alerts bot token is xoxb-284910375612-Tq8Wn3Kd7Lm2Xp5Rv9Zb4Hc6", "xoxb-284910375612-Tq8Wn3Kd7Lm2Xp5Rv9Zb4Hc6"},
		{"private key", "deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBv7Qm2Zk9Xc3Lr8Tn5Wq1Yp4Ha6Jd0Fs2Gu7Ke9Bi3MAAAAJgH5vT0B+b0\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"},
	}
	// A --request file holding a private key is refused whole (a key
	// file): the key goes in as a table's value instead.
	for i, k := range kinds {
		args := []string{"remember", "--project", e.proj}
		switch i % 3 {
		case 0:
			args = append(args, k.text)
		case 1:
			req := filepath.Join(t.TempDir(), "request.json")
			data, _ := json.Marshal(map[string]any{"text": k.text})
			os.WriteFile(req, data, 0o644)
			args = append(args, "--request", req)
		case 2:
			args = append(args, "--table", "credentials", "--key", strings.ReplaceAll(k.name, " ", "-"), k.text)
		}
		out, errOut, code := e.run(t, "", args...)
		if code != 0 || !strings.Contains(errOut, "redacted") || strings.Contains(out+errOut, k.secret) {
			t.Fatalf("remember %s: exit %d\n%s%s", k.name, code, out, errOut)
		}
	}
	// The MCP server's remember and a recall --request go through the same door.
	if out, errOut, code := e.run(t, "", "recall", "--project", e.proj, "what is ghp_R8kT2mW5qZ9xV3bN7cL1pH4sF6gJ0dYaE2uI for"); code != 0 {
		t.Fatalf("recall: %s%s", out, errOut)
	}
	if _, errOut, code := e.run(t, "", "index", "--project", e.proj); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	e.writeDay(t, time.Now().AddDate(0, 0, -2), 1)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj); code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if _, errOut, code := e.run(t, "", "long", "sync", "--project", e.proj); code != 0 {
		t.Fatalf("long sync: %s", errOut)
	}
	clone := t.TempDir()
	r, err := gitrepo.Init(clone)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := r.Sync(t.Context(), "file://"+filepath.Join(remotes, "apollo-memory.git"), gitrepo.Kind{Name: "a clone"}, time.Now()); err != nil || res.State != gitrepo.SyncFastForward {
		t.Fatalf("clone the remote: %+v %v", res, err)
	}
	if got := holds(t, clone, "[REDACTED:"); len(got) == 0 {
		t.Error("the remote holds no redacted record: the records did not reach it")
	}
	// Everything the test's home holds — the project, the state dir, the
	// desk, the night's prompts — and the remote's clone.
	home := e.env["HOME"]
	for _, k := range kinds {
		for _, dir := range []string{home, clone} {
			if got := holds(t, dir, k.secret); len(got) > 0 {
				t.Errorf("%s is kept in clear in %v", k.name, got)
			}
		}
	}
	for _, store := range []string{"records", "tables/journal.jsonl"} {
		if got := holds(t, e.long(store), "[REDACTED:"); len(got) == 0 {
			t.Errorf("%s holds no redacted text", store)
		}
	}
}
