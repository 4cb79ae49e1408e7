package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
)

// benchProject fills a project with 2,000 remembered records and a table,
// through the same box memhook opens.
func benchProject(b *testing.B) (map[string]string, string) {
	b.Helper()
	home, proj := b.TempDir(), b.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_STATE_DIR": filepath.Join(home, "state"), "CEREBRO_HOME": filepath.Join(home, "desk"),
		"CEREBRO_DISTILLER_COMMAND": filepath.Join(home, "none")}
	getenv := func(k string) string { return env[k] }
	f := factory.New(factory.System{Getenv: getenv, Now: time.Now})
	box, done, err := f.OpenBox(proj)
	if err != nil {
		b.Fatal(err)
	}
	defer done()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 2000; i++ {
		text, _ := json.Marshal(fmt.Sprintf("Meeting %d decided that service s%d uses port %d and owner o%d", i, i, 8000+i, i%37))
		req, fates, _ := blackbox.ParseRemember(blackbox.Raw{"text": text})
		if _, err := box.Remember(context.Background(), req, fates, now.Add(time.Duration(i)*time.Minute)); err != nil {
			b.Fatal(err)
		}
	}
	return env, proj
}

func benchMain(b *testing.B, env map[string]string, want int, args ...string) {
	b.Helper()
	for i := 0; i < b.N; i++ {
		var out, errb bytes.Buffer
		code := Main(args, factory.System{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }, Now: time.Now})
		var ans struct {
			DepthUsed int `json:"depth_used"`
		}
		if code != 0 || json.Unmarshal(out.Bytes(), &ans) != nil || ans.DepthUsed != want {
			b.Fatalf("exit %d depth %d: %s %s", code, ans.DepthUsed, out.String(), errb.String())
		}
	}
}

// BenchmarkRecallCommandLevel2 is `memhook recall` as a process runs it
// (config, stores, index catch-up, ladder) answered by the memory text.
func BenchmarkRecallCommandLevel2(b *testing.B) {
	env, proj := benchProject(b)
	benchMain(b, env, 2, "recall", "--project", proj, "which port does service s1500 use") // first run builds the index
	b.ResetTimer()
	benchMain(b, env, 2, "recall", "--project", proj, "which port does service s1500 use")
}

// BenchmarkRecallCommandNone climbs levels 1–3 and finds nothing.
func BenchmarkRecallCommandNone(b *testing.B) {
	env, proj := benchProject(b)
	benchMain(b, env, 3, "recall", "--project", proj, "quarterly penguin census")
	b.ResetTimer()
	benchMain(b, env, 3, "recall", "--project", proj, "quarterly penguin census")
}
