package spawn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const childEnv = "CEREBRO_SPAWN_TEST_OUT"

// TestMain lets the test binary play the child: it writes its session id
// where the parent asked and exits.
func TestMain(m *testing.M) {
	if out := os.Getenv(childEnv); out != "" {
		sid := session()
		os.WriteFile(out+".tmp", []byte(strconv.Itoa(sid)), 0o644)
		os.Rename(out+".tmp", out)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A started child leads a session of its own, so the end of the caller's
// process group (Claude Code ending a hook) does not reach it.
func TestStartLeavesTheCallersSession(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sid")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+out)
	pid, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if pid <= 0 {
		t.Fatalf("pid %d", pid)
	}
	var data []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err = os.ReadFile(out); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("the child never wrote its session: %v", err)
	}
	sid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	mine := session()
	if sid != pid || sid == mine {
		t.Fatalf("child session %d, child pid %d, caller session %d: want the child to lead its own", sid, pid, mine)
	}
}

// session is this process's session id, field 6 of /proc/self/stat (the
// command in field 2 is parenthesised and may hold spaces).
func session() int {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 4 {
		return -1
	}
	n, _ := strconv.Atoi(f[3])
	return n
}
