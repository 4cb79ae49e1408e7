//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hostile-repository suite: a cloned repository controls everything
// under its .claude/, and a hook's input names the transcript. Each case
// plants something there and runs the built memhook as Claude Code would,
// then checks the behaviour bounds of docs/safety.md:
//
//   - hooks exit 0; a command refuses with a clear error, never crashes;
//   - no byte is written outside the project, desk and state roots (the
//     "outside" folder and its bashrc stay as they were);
//   - peak RSS of every process stays under hostileRSS;
//   - every process returns before its deadline (a hang is killed and
//     fails the test);
//   - once the planted thing is removed, the session is recovered.
//
// The per-turn hooks run memhook-hot, as scripts/memhook routes them, so
// the suite covers what a user runs; memhook takes the events it is handed.

// hostileRSS is the peak resident memory any one process may reach.
const hostileRSS = 200 << 20

// hostileDeadline is how long one process may take before it counts as hung.
const hostileDeadline = 20 * time.Second

type hostile struct {
	*hookEnv
	outside string // a folder outside every root, holding bashrc
	bashrc  string
}

func newHostile(t *testing.T) *hostile {
	h := &hostile{hookEnv: newHookEnv(t)}
	h.hot = true
	h.outside = filepath.Join(filepath.Dir(h.proj), "outside")
	os.MkdirAll(h.outside, 0o755)
	h.bashrc = filepath.Join(h.outside, "bashrc")
	os.WriteFile(h.bashrc, []byte("original\n"), 0o644)
	os.MkdirAll(filepath.Join(h.proj, ".claude", "memory_short", "daily"), 0o755)
	return h
}

// exec runs the built memhook and checks the deadline and the RSS bound.
func (h *hostile) exec(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.binFor(args), args...)
	cmd.Env = envList(h.env)
	cmd.Dir = h.proj
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("memhook %v did not return within %s", args, hostileDeadline)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		if rss := ru.Maxrss << 10; rss > hostileRSS {
			t.Errorf("memhook %v peaked at %d MB RSS, bound %d MB", args, rss>>20, hostileRSS>>20)
		}
	}
	return out.String(), errb.String(), code
}

// hook runs one hook event and requires exit 0.
func (h *hostile) hookEvent(t *testing.T, event, stdin string) string {
	t.Helper()
	out, errOut, code := h.exec(t, stdin, "hook", event)
	if code != 0 {
		t.Fatalf("hook %s: exit %d, stderr %q", event, code, errOut)
	}
	if out != "" && !json.Valid([]byte(out)) {
		t.Fatalf("hook %s printed non-JSON %q", event, out)
	}
	return out
}

// session runs a four-turn session ending with SessionEnd.
func (h *hostile) session(t *testing.T, id string) {
	t.Helper()
	for i := 0; i < 4; i++ {
		h.hookEvent(t, "user-prompt-submit", h.input(id, "UserPromptSubmit", "prompt", fmt.Sprintf("Please add flag %d to the parser.", i)))
		h.hookEvent(t, "stop", h.input(id, "Stop", "last_assistant_message", fmt.Sprintf("I added flag %d.", i)))
	}
	h.hookEvent(t, "session-end", h.input(id, "SessionEnd", "reason", "other"))
}

// untouched checks that nothing was written outside the roots.
func (h *hostile) untouched(t *testing.T) {
	t.Helper()
	if got, _ := os.ReadFile(h.bashrc); string(got) != "original\n" {
		t.Fatalf("bashrc outside the roots was written: %q", got)
	}
	ents, _ := os.ReadDir(h.outside)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("files created outside the roots: %v", names)
	}
}

func (h *hostile) today() string {
	return filepath.Join(h.proj, ".claude", "memory_short", "daily", time.Now().Format("2006-01-02")+".md")
}

func (h *hostile) dailyText() string {
	data, _ := os.ReadFile(h.today())
	return string(data)
}

func TestHostileDailySymlinkIsNotWrittenThroughAndTheSessionIsRecovered(t *testing.T) {
	h := newHostile(t)
	os.Symlink(h.bashrc, h.today())
	h.session(t, "s1")
	h.untouched(t)
	os.Remove(h.today())
	out, errOut, code := h.exec(t, "", "flush", "--pending")
	if code != 0 {
		t.Fatalf("flush --pending: exit %d %s %s", code, out, errOut)
	}
	if got := h.dailyText(); !strings.Contains(got, "flag 3") {
		t.Fatalf("session not recovered once the link was removed:\n%s", got)
	}
	h.untouched(t)
}

func TestHostileClaudeDirSymlinkLeavingTheProject(t *testing.T) {
	h := newHostile(t)
	os.RemoveAll(filepath.Join(h.proj, ".claude"))
	os.Symlink(h.outside, filepath.Join(h.proj, ".claude"))
	h.session(t, "s1")
	h.hookEvent(t, "session-start", h.input("s2", "SessionStart", "source", "startup"))
	h.untouched(t)
	os.Remove(filepath.Join(h.proj, ".claude"))
	if _, _, code := h.exec(t, "", "flush", "--pending"); code != 0 {
		t.Fatalf("flush --pending: exit %d", code)
	}
	if got := h.dailyText(); !strings.Contains(got, "flag 3") {
		t.Fatalf("session not recovered once the link was removed:\n%s", got)
	}
}

func TestHostileLogSymlinkInLongTermMemory(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	logPath := filepath.Join(h.proj, ".claude", "memory_long", "log.md")
	os.Remove(logPath)
	os.Symlink(h.bashrc, logPath)
	_, errOut, code := h.exec(t, "", "core", "add", "--project", h.proj, "The parser lives in internal/parse.")
	if code == 0 {
		t.Fatalf("core add through a planted log.md succeeded")
	}
	if !strings.Contains(errOut, "symbolic link") {
		t.Errorf("the error does not say why: %q", errOut)
	}
	h.session(t, "s1")
	h.untouched(t)
	os.Remove(logPath)
	if _, errOut, code := h.exec(t, "", "core", "add", "--project", h.proj, "The parser lives in internal/parse."); code != 0 {
		t.Fatalf("core add after the link is gone: %s", errOut)
	}
}

// A project's План-факт.md as a link to /dev/zero, a FIFO or a sparse
// 3 GB file: SessionStart and the rollup answer in time and in bounded
// memory, the rollup names the problem, and a real file is read again.
func TestHostilePlanFact(t *testing.T) {
	for _, kind := range []string{"dev-zero", "fifo", "sparse"} {
		t.Run(kind, func(t *testing.T) {
			h := newHostile(t)
			if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
				t.Fatalf("long on: %s", errOut)
			}
			pf := filepath.Join(h.proj, ".claude", "memory_long", "План-факт.md")
			good, _ := os.ReadFile(pf)
			os.Remove(pf)
			switch kind {
			case "dev-zero":
				os.Symlink("/dev/zero", pf)
			case "fifo":
				syscall.Mkfifo(pf, 0o644)
			case "sparse":
				f, _ := os.Create(pf)
				f.Truncate(3 << 30)
				f.Close()
			}
			h.hookEvent(t, "session-start", h.input("s1", "SessionStart", "source", "startup"))
			out, errOut, code := h.exec(t, "", "rollup")
			if code != 0 {
				t.Fatalf("rollup: exit %d: %s %s", code, out, errOut)
			}
			dash, _ := os.ReadFile(filepath.Join(h.env["CEREBRO_HOME"], ".claude", "memory_short", "rollup.md"))
			if !strings.Contains(string(dash), "## Diagnostics") {
				t.Errorf("rollup does not report the planted План-факт.md:\n%s", dash)
			}
			os.Remove(pf)
			os.WriteFile(pf, good, 0o644)
			if _, _, code := h.exec(t, "", "rollup"); code != 0 {
				t.Fatal("rollup after recovery failed")
			}
			h.untouched(t)
		})
	}
}

// A transcript path that names /dev/zero, a FIFO or a sparse 2 GB file
// without a line end: every hook and flush --pending returns in time and
// in bounded memory; the session's prompts still reach the daily file.
func TestHostileTranscripts(t *testing.T) {
	for _, kind := range []string{"dev-zero", "fifo", "sparse"} {
		t.Run(kind, func(t *testing.T) {
			h := newHostile(t)
			// A deadline a loaded machine cannot reach: a hook that waits on
			// the transcript still runs into it, one that refuses never does.
			h.userConfig(t, "[hook]\ndeadline_ms = 60000\n")
			tr := filepath.Join(filepath.Dir(h.proj), "s1.jsonl")
			switch kind {
			case "dev-zero":
				tr = "/dev/zero"
			case "fifo":
				syscall.Mkfifo(tr, 0o644)
			case "sparse":
				f, _ := os.Create(tr)
				f.Truncate(2 << 30)
				f.Close()
			}
			in := func(event string, kv ...string) string {
				return h.input("s1", event, append([]string{"transcript_path", tr}, kv...)...)
			}
			h.hookEvent(t, "session-start", in("SessionStart", "source", "startup"))
			for i := 0; i < 4; i++ {
				h.hookEvent(t, "user-prompt-submit", in("UserPromptSubmit", "prompt", fmt.Sprintf("Please add flag %d to the parser.", i)))
				h.hookEvent(t, "stop", in("Stop", "last_assistant_message", fmt.Sprintf("I added flag %d.", i)))
			}
			h.hookEvent(t, "pre-compact", in("PreCompact", "trigger", "auto"))
			h.hookEvent(t, "session-end", in("SessionEnd", "reason", "other"))
			if _, _, code := h.exec(t, "", "flush", "--pending"); code != 0 {
				t.Fatal("flush --pending failed")
			}
			if got := h.dailyText(); !strings.Contains(got, "flag 3") {
				t.Errorf("the session's prompts were lost:\n%s", got)
			}
			// Refused at once, not waited on: a hook that sat out its
			// deadline on the transcript dropped its work.
			for _, e := range h.log(t) {
				if strings.Contains(e.Message, "deadline") {
					t.Errorf("%s hook ran into its deadline: %s", e.Event, e.Message)
				}
			}
			h.untouched(t)
		})
	}
}

// A config typo never costs a session: capture goes on with the default
// for the bad key, and doctor names the key.
func TestHostileConfig(t *testing.T) {
	for name, body := range map[string]string{
		"string":   "[short]\nflush_chars = \"lots\"\n",
		"syntax":   "[short]\nflush_chars = lots\n",
		"negative": "[short]\nflush_replies = -3\nmin_replies = 99999999\n",
		"unknown":  "[shortt]\nflush_chars = 5\n",
		"dev-zero": "",
	} {
		t.Run(name, func(t *testing.T) {
			h := newHostile(t)
			cfg := filepath.Join(h.proj, ".claude", "cerebro.toml")
			if name == "dev-zero" {
				os.Symlink("/dev/zero", cfg)
			} else {
				os.WriteFile(cfg, []byte(body), 0o644)
			}
			h.session(t, "s1")
			if got := h.dailyText(); !strings.Contains(got, "flag 3") {
				t.Fatalf("a config problem cost the session:\n%s", got)
			}
			out, _, _ := h.exec(t, "", "doctor", "--project", h.proj)
			if !strings.Contains(out, "configuration:") {
				t.Errorf("doctor is silent about the config:\n%s", out)
			}
		})
	}
	t.Run("env", func(t *testing.T) {
		h := newHostile(t)
		h.env["CEREBRO_SHORT_FLUSH_CHARS"] = "abc"
		h.session(t, "s1")
		if got := h.dailyText(); !strings.Contains(got, "flag 3") {
			t.Fatalf("a bad variable cost the session:\n%s", got)
		}
	})
}

// org ingest of /dev/zero, a link to a secret file and a 3 GB sparse file:
// refused before copying, in bounded memory, nothing committed or left.
func TestHostileOrgIngest(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "org", "init"); code != 0 {
		t.Fatalf("org init: %s", errOut)
	}
	src := filepath.Join(filepath.Dir(h.proj), "src")
	os.MkdirAll(src, 0o755)
	link := filepath.Join(src, "pw.md")
	os.Symlink(h.bashrc, link)
	big := filepath.Join(src, "big.md")
	f, _ := os.Create(big)
	f.Truncate(3 << 30)
	f.Close()
	fifo := filepath.Join(src, "pipe.md")
	syscall.Mkfifo(fifo, 0o644)
	desk := h.env["CEREBRO_HOME"]
	for p, want := range map[string]string{"/dev/zero": "not a regular file", link: "symbolic link", big: "over the ingest limit", fifo: "not a regular file"} {
		_, errOut, code := h.exec(t, "", "org", "ingest", p)
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("org ingest %s: exit %d, stderr %q, want %q", p, code, errOut, want)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(desk, "raw"))
	for _, e := range ents {
		if !e.IsDir() && e.Name() != ".gitkeep" {
			t.Errorf("a refused source left raw/%s", e.Name())
		}
	}
	h.untouched(t)
}
