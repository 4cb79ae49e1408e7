package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDoctorChecksTheHotBinary(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "memhook")
	os.WriteFile(exe, []byte("x"), 0o755)
	check := func() Finding {
		rep := &Report{}
		checkHotBinary(rep, exe)
		if len(rep.Findings) != 1 {
			t.Fatalf("findings %+v", rep.Findings)
		}
		return rep.Findings[0]
	}
	if f := check(); f.Level != "warn" || !strings.Contains(f.What, "missing") {
		t.Fatalf("no memhook-hot: %+v", f)
	}
	hot := filepath.Join(dir, "memhook-hot")
	os.WriteFile(hot, []byte("x"), 0o755)
	if f := check(); f.Level != "ok" {
		t.Fatalf("fresh memhook-hot: %+v", f)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(hot, old, old)
	if f := check(); f.Level != "warn" || !strings.Contains(f.What, "older") {
		t.Fatalf("stale memhook-hot: %+v", f)
	}
}

// doctor compares the binary with the checkout it is given, and says
// when it has none to compare with.
func TestVersionIsComparedWithThePluginRoot(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(root, ".claude-plugin", "plugin.json"), []byte(`{"name":"cerebro","version":"7.7.7"}`), 0o644)
	for _, c := range []struct {
		env        Env
		level, has string
	}{
		{Env{PluginRoot: root, Version: "7.7.7-3-gabc"}, "ok", "memhook 7.7.7-3-gabc, plugin 7.7.7"},
		{Env{PluginRoot: root, Version: "8.0.0"}, "warn", "binary version 8.0.0 differs from plugin version 7.7.7"},
		{Env{Version: "8.0.0"}, "warn", "plugin.json not found to compare"},
	} {
		rep := &Report{}
		checkVersion(rep, &c.env)
		if len(rep.Findings) != 1 || rep.Findings[0].Level != c.level || !strings.Contains(rep.Findings[0].What, c.has) {
			t.Errorf("%+v: %+v, want %s %q", c.env, rep.Findings, c.level, c.has)
		}
	}
}
