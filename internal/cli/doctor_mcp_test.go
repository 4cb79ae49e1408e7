package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
)

// doctor starts the real memhook mcp, lists its tools, and leaves no
// trace of it; it names the permission rule that lets the tools run.
func TestDoctorChecksTheMCPServer(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	doctor := func() string {
		var out bytes.Buffer
		Main([]string{"doctor", "--project", proj}, factory.System{
			In: strings.NewReader(""), Out: &out, Err: &out,
			Getenv: func(k string) string { return env[k] }, Environ: func() []string { return envList(env) },
			Now: time.Now, Executable: memhookBin,
		})
		return out.String()
	}
	out := doctor()
	for _, want := range []string{
		"memory tools: memhook mcp starts and lists 4 tools in",
		"memory tools ask before their first use",
		"extreme recall: 0 of 30 model calls spent today",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); err == nil {
		t.Errorf("doctor's check of the MCP server left files in HOME")
	}
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	settings := filepath.Join(proj, ".claude", "settings.local.json")
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["mcp__plugin_cerebro_memory"]}}`), 0o644)
	if out := doctor(); !strings.Contains(out, "memory tools run without asking: "+settings+" allows mcp__plugin_cerebro_memory") {
		t.Errorf("doctor misses the allow rule:\n%s", out)
	}
}
