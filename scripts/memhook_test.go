// Tests of the scripts/memhook shim that hooks.json, the commands and the
// skills call: it must run bin/memhook, build it on first use, and never
// fail a hook when it cannot.
package scripts_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// plugin copies what the shim needs to build memhook into a fresh folder,
// as a plugin cache without bin/ would hold it.
func plugin(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum", "cmd", "internal", "scripts/memhook"} {
		src := filepath.Join("..", p)
		if err := copyTree(src, filepath.Join(dst, p)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			if fi.Name() == "testdata" {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Dir(target), 0o755)
		return os.WriteFile(target, data, fi.Mode())
	})
}

func shim(t *testing.T, root, path string, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{filepath.Join(root, "scripts", "memhook")}, args...)...)
	// A fresh HOME keeps the test away from the user's state; the Go caches
	// stay where they are so the build reuses what is already compiled.
	cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+t.TempDir(), "CEREBRO_STATE_DIR="+t.TempDir(),
		"GOCACHE="+goEnv("GOCACHE"), "GOMODCACHE="+goEnv("GOMODCACHE"), "GOPATH="+goEnv("GOPATH"))
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func goEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// A PATH with the shell tools the shim uses but no Go toolchain.
func pathWithoutGo(t *testing.T) string {
	dir := t.TempDir()
	for _, tool := range []string{"sh", "dirname", "uname", "mkdir", "rmdir", "mv", "cat"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s not found", tool)
		}
		os.Symlink(p, filepath.Join(dir, tool))
	}
	return dir
}

func TestShimWithoutBinaryOrGo(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the shim runs under sh")
	}
	root := plugin(t)
	noGo := pathWithoutGo(t)
	out, code := shim(t, root, noGo, `{"session_id":"s"}`, "hook", "stop")
	if code != 0 || !strings.Contains(out, "make -C") {
		t.Fatalf("hook without binary or Go: exit %d, output %q; want exit 0 and what to run", code, out)
	}
	if _, code := shim(t, root, noGo, "", "search", "x"); code == 0 {
		t.Fatal("a command without binary or Go must fail")
	}
}

func TestShimBuildsOnFirstUse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the shim runs under sh")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain")
	}
	root := plugin(t)
	path := filepath.Dir(goBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	// A hook does not wait for the build: it starts it and lets the event pass.
	out, code := shim(t, root, path, `{"session_id":"s"}`, "hook", "stop")
	if code != 0 || !strings.Contains(out, "building memhook") {
		t.Fatalf("first hook: exit %d, output %q", code, out)
	}
	exe := filepath.Join(root, "bin", "memhook")
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if _, err := os.Stat(exe); err == nil {
			if _, err := os.Stat(filepath.Join(root, "bin", ".building")); os.IsNotExist(err) {
				break
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(root, "bin", "build.log"))
			t.Fatalf("background build did not finish; log:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	out, code = shim(t, root, path, "", "--version")
	if code != 0 || !strings.Contains(out, "memhook version") {
		t.Fatalf("after the build: exit %d, output %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "memhook-hot")); err != nil {
		t.Fatalf("the first-use build left out memhook-hot: %v", err)
	}
}

// Once bin/memhook exists, every hook goes straight to it without running
// another program (dirname, uname): PATH here holds nothing but sh.
func TestShimFastPathRunsNoOtherProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the shim runs under sh")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	root := t.TempDir()
	if err := copyTree(filepath.Join("..", "scripts", "memhook"), filepath.Join(root, "scripts", "memhook")); err != nil {
		t.Fatal(err)
	}
	// A stand-in binary that shows the arguments it got.
	stub := "#!" + sh + "\necho \"memhook stand-in: $*\"\n"
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "memhook"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	onlySh := t.TempDir()
	if err := os.Symlink(sh, filepath.Join(onlySh, "sh")); err != nil {
		t.Fatal(err)
	}
	out, code := shim(t, root, onlySh, "{}", "hook", "stop")
	if code != 0 || strings.TrimSpace(out) != "memhook stand-in: hook stop" {
		t.Fatalf("exit %d, output %q", code, out)
	}
	// With memhook-hot beside it, the per-turn and per-tool hooks go there
	// and every other event to memhook, still without another program.
	hot := "#!" + sh + "\necho \"memhook-hot stand-in: $*\"\n"
	if err := os.WriteFile(filepath.Join(root, "bin", "memhook-hot"), []byte(hot), 0o755); err != nil {
		t.Fatal(err)
	}
	for event, want := range map[string]string{
		"user-prompt-submit": "memhook-hot stand-in", "stop": "memhook-hot stand-in", "post-tool-use": "memhook-hot stand-in",
		"session-start": "memhook stand-in", "pre-compact": "memhook stand-in", "session-end": "memhook stand-in",
	} {
		out, code := shim(t, root, onlySh, "{}", "hook", event)
		if code != 0 || strings.TrimSpace(out) != want+": hook "+event {
			t.Errorf("hook %s: exit %d, output %q, want %q", event, code, out, want)
		}
	}
	if out, _ := shim(t, root, onlySh, "", "search", "stop"); strings.TrimSpace(out) != "memhook stand-in: search stop" {
		t.Errorf("a command went to %q", out)
	}
}
