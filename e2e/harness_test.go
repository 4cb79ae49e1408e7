//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/tidwall/gjson"
)

// claudeBin is the Claude Code executable under test (CLAUDE_BIN, set by e2e/run).
var claudeBin string

// repoRoot is the plugin under test: this repository.
var repoRoot string

// cliVersion is what `claude --version` printed, e.g. "2.1.332 (Claude Code)".
var cliVersion string

// claudeVersion names the CLI under test in printed figures.
func claudeVersion() string { return "Claude Code " + strings.TrimSuffix(cliVersion, " (Claude Code)") }

func TestMain(m *testing.M) {
	claudeBin = os.Getenv("CLAUDE_BIN")
	if claudeBin == "" {
		fmt.Fprintln(os.Stderr, "e2e: CLAUDE_BIN is not set; run `make e2e`, which installs Claude Code and sets it")
		os.Exit(1)
	}
	out, err := exec.Command(claudeBin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Claude Code") {
		fmt.Fprintf(os.Stderr, "e2e: %s --version does not run Claude Code (%v): %s\n", claudeBin, err, out)
		os.Exit(1)
	}
	cliVersion = strings.TrimSpace(string(out))
	root, err := filepath.Abs("..")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	repoRoot = root
	for _, bin := range []string{"memhook", "memhook-hot"} {
		if _, err := os.Stat(filepath.Join(repoRoot, "bin", bin)); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: bin/%s is missing; run `make build` first (make e2e does)\n", bin)
			os.Exit(1)
		}
	}
	code := m.Run()
	printHookStats(os.Stdout)
	printContextCost(os.Stdout)
	os.Exit(code)
}

// Sandbox is one isolated Claude Code user: its own HOME, project directory,
// cerebro desk and state, and its own mock API.
type Sandbox struct {
	t       *testing.T
	Mock    *Mock
	Home    string
	Project string
	Desk    string // CEREBRO_HOME
	State   string // CEREBRO_STATE_DIR (hooks get CLAUDE_PLUGIN_DATA instead)
	// Env holds extra variables for every claude run (CEREBRO_* tuning).
	Env map[string]string
	// PluginDir is passed as --plugin-dir; empty runs without it.
	PluginDir string
	// AllowedTools is passed as --allowedTools (root may not skip permissions).
	AllowedTools string
	// Cwd, when set, is the directory claude runs in instead of Project
	// (e.g. Desk, for a session of the operator's own work).
	Cwd string

	runs []Result        // every claude run, for the hook checks
	cwds map[string]bool // every directory claude ran in, for the transcripts
}

// newSandbox makes a sandbox whose project is a fresh git repository.
func newSandbox(t *testing.T) *Sandbox {
	t.Helper()
	m, err := StartMock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	base := t.TempDir()
	s := &Sandbox{
		t: t, Mock: m,
		Home:         filepath.Join(base, "home"),
		Project:      filepath.Join(base, "proj"),
		Desk:         filepath.Join(base, "desk"),
		State:        filepath.Join(base, "state"),
		Env:          map[string]string{},
		PluginDir:    repoRoot,
		AllowedTools: "Bash,Write,Edit,Read,Skill",
	}
	for _, d := range []string{s.Home, s.Project, s.Desk, s.State} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initRepo(t, s.Project)
	// Cleanups run last registered first, so this one runs before
	// TempDir's removal: a flush a hook handed to a detached memhook may
	// still be writing under HOME when the test's assertions are done (on a
	// loaded machine the removal then failed with "directory not empty").
	t.Cleanup(func() { waitDetached(t, s.Home, 30*time.Second) })
	return s
}

// waitDetached waits until no process started for this sandbox (its
// environment names the sandbox's HOME) is left, for at most limit.
func waitDetached(t *testing.T, home string, limit time.Duration) {
	mark := []byte("HOME=" + home + "\x00")
	deadline := time.Now().Add(limit)
	for {
		var left []string
		pids, _ := filepath.Glob("/proc/[0-9]*/environ")
		for _, p := range pids {
			env, err := os.ReadFile(p)
			if err != nil {
				continue // gone, or not ours to read
			}
			if bytes.HasPrefix(env, mark) || bytes.Contains(env, append([]byte{0}, mark...)) {
				left = append(left, filepath.Base(filepath.Dir(p)))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Logf("processes of the sandbox still running after %s: %s", limit, strings.Join(left, ", "))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// PluginData is where Claude Code points CLAUDE_PLUGIN_DATA for cerebro's
// hooks: <plugin>-inline with --plugin-dir, <plugin>-<marketplace> when
// installed from the repository's marketplace (named cerebro).
func (s *Sandbox) PluginData() string {
	name := "cerebro-inline"
	if s.PluginDir == "" {
		name = "cerebro-cerebro"
	}
	return filepath.Join(s.Home, ".claude", "plugins", "data", name)
}

// workDir is where claude runs: Cwd, else Project; it is remembered so
// that the hook checks read the transcripts of every directory.
func (s *Sandbox) workDir() string {
	dir := s.Project
	if s.Cwd != "" {
		dir = s.Cwd
	}
	if s.cwds == nil {
		s.cwds = map[string]bool{}
	}
	s.cwds[dir] = true
	return dir
}

// Memhook runs the plugin's memhook (scripts/memhook) in the project with
// the sandbox's environment plus the CLAUDE_PLUGIN_DATA the hooks get, so it
// shares their state (search indexes, logs), and returns its combined
// output; a non-zero exit fails the test.
func (s *Sandbox) Memhook(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(filepath.Join(repoRoot, "scripts", "memhook"), args...)
	cmd.Dir = s.Project
	cmd.Env = append(s.environ(), "CLAUDE_PLUGIN_DATA="+s.PluginData())
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("memhook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *Sandbox) environ() []string {
	env := map[string]string{
		"PATH":                    os.Getenv("PATH"),
		"HOME":                    s.Home,
		"TMPDIR":                  os.TempDir(),
		"LANG":                    "C.UTF-8",
		"ANTHROPIC_BASE_URL":      s.Mock.URL,
		"ANTHROPIC_API_KEY":       "sk-ant-test-000",
		"CEREBRO_HOME":            s.Desk,
		"CEREBRO_STATE_DIR":       s.State,
		"DISABLE_TELEMETRY":       "1",
		"DISABLE_AUTOUPDATER":     "1",
		"DISABLE_ERROR_REPORTING": "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		// Needed to reach auto-compact (reference §8.3); harmless otherwise.
		"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000",
	}
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		env["GOROOT"] = goroot
	}
	for k, v := range s.Env {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// Result is one finished claude process.
type Result struct {
	Args     []string
	Stdout   string
	Stderr   string
	Code     int
	Duration time.Duration
}

// Lines parses stdout as JSON lines (for --output-format stream-json).
func (r Result) Lines() []gjson.Result {
	var out []gjson.Result
	for _, l := range strings.Split(r.Stdout, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, gjson.Parse(l))
		}
	}
	return out
}

// JSON is the final result object (the whole stdout with --output-format
// json, the "result" line with stream-json).
func (r Result) JSON() gjson.Result {
	lines := r.Lines()
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].Get("type").String() == "result" {
			return lines[i]
		}
	}
	return gjson.Result{}
}

// Init is the stream-json system/init line (tools, slash commands, skills, plugins).
func (r Result) Init() gjson.Result {
	for _, l := range r.Lines() {
		if l.Get("type").String() == "system" && l.Get("subtype").String() == "init" {
			return l
		}
	}
	return gjson.Result{}
}

// SessionID is the session the run ended in.
func (r Result) SessionID() string { return r.JSON().Get("session_id").String() }

// Text is the final reply text.
func (r Result) Text() string { return r.JSON().Get("result").String() }

// claudeLimit bounds one claude process: a hang guard, far above the few
// seconds a run takes, since the suite runs on machines loaded by others.
const claudeLimit = 5 * time.Minute

// Claude runs the CLI with args in the project directory, stdin from
// /dev/null, and fails the test when it does not exit 0 within claudeLimit.
func (s *Sandbox) Claude(args ...string) Result {
	s.t.Helper()
	r := s.ClaudeMayFail(args...)
	if r.Code != 0 {
		s.t.Fatalf("claude %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// ClaudeMayFail is Claude without the exit-status check.
func (s *Sandbox) ClaudeMayFail(args ...string) Result {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), claudeLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBin, args...)
	cmd.Dir = s.workDir()
	cmd.Env = s.environ()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		s.t.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdin = devnull
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start claude: %v", err)
	}
	var stdout strings.Builder
	sc := bufio.NewScanner(pipe)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		stdout.WriteString(sc.Text())
		stdout.WriteByte('\n')
	}
	err = cmd.Wait()
	r := Result{Args: args, Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	if err != nil {
		r.Code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			r.Code = ee.ExitCode()
		}
		if ctx.Err() != nil {
			s.t.Fatalf("claude %s: no exit within %s\nstderr: %s", strings.Join(args, " "), claudeLimit, r.Stderr)
		}
	}
	s.runs = append(s.runs, r)
	return r
}

// Prompt runs one `claude -p` turn with the plugin and the sandbox's
// allowed tools, streaming JSON with hook events; extra goes last (e.g.
// --session-id, --resume).
func (s *Sandbox) Prompt(prompt string, extra ...string) Result {
	s.t.Helper()
	args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events"}
	if s.PluginDir != "" {
		args = append(args, "--plugin-dir", s.PluginDir)
	}
	if s.AllowedTools != "" {
		args = append(args, "--allowedTools", s.AllowedTools)
	}
	return s.Claude(append(args, extra...)...)
}

// newSessionID is a fresh random session UUID for --session-id.
func newSessionID(t *testing.T) string {
	t.Helper()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func initRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := gitrepo.Init(dir); err != nil {
		t.Fatal(err)
	}
}

// readFile returns a file's text or fails the test.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Live is a claude process kept open across turns (stream-json input), so
// a test can look at files between turns while the session is still on.
type Live struct {
	s      *Sandbox
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	cancel context.CancelFunc
	stderr bytes.Buffer
	out    strings.Builder
	args   []string
}

// Live starts claude -p with stream-json input and output and the plugin;
// extra goes last (e.g. --session-id).
func (s *Sandbox) Live(extra ...string) *Live {
	s.t.Helper()
	args := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--include-hook-events"}
	if s.PluginDir != "" {
		args = append(args, "--plugin-dir", s.PluginDir)
	}
	if s.AllowedTools != "" {
		args = append(args, "--allowedTools", s.AllowedTools)
	}
	args = append(args, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*claudeLimit)
	l := &Live{s: s, cancel: cancel, args: args}
	l.cmd = exec.CommandContext(ctx, claudeBin, args...)
	l.cmd.Dir = s.workDir()
	l.cmd.Env = s.environ()
	l.cmd.Stderr = &l.stderr
	var err error
	if l.stdin, err = l.cmd.StdinPipe(); err != nil {
		s.t.Fatal(err)
	}
	pipe, err := l.cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	l.lines = bufio.NewScanner(pipe)
	l.lines.Buffer(make([]byte, 1<<20), 64<<20)
	if err := l.cmd.Start(); err != nil {
		s.t.Fatalf("start claude: %v", err)
	}
	s.t.Cleanup(func() { cancel(); _ = l.cmd.Wait() })
	return l
}

// Send writes one user turn and waits for its result line, which Claude
// Code emits after the turn's Stop hooks ran.
func (l *Live) Send(text string) gjson.Result {
	l.s.t.Helper()
	msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	if _, err := l.stdin.Write(append(msg, '\n')); err != nil {
		l.s.t.Fatalf("send %q: %v\nstderr: %s", text, err, l.stderr.String())
	}
	for l.lines.Scan() {
		line := l.lines.Text()
		l.out.WriteString(line + "\n")
		if r := gjson.Parse(line); r.Get("type").String() == "result" {
			if r.Get("is_error").Bool() {
				l.s.t.Fatalf("turn %q failed: %s", text, line)
			}
			return r
		}
	}
	l.s.t.Fatalf("claude ended before answering %q\nstderr: %s", text, l.stderr.String())
	return gjson.Result{}
}

// Close ends the session (stdin EOF) and waits for the process, whose
// SessionEnd hooks then have run.
func (l *Live) Close() Result {
	l.s.t.Helper()
	l.stdin.Close()
	for l.lines.Scan() {
		l.out.WriteString(l.lines.Text() + "\n")
	}
	err := l.cmd.Wait()
	l.cancel()
	r := Result{Args: l.args, Stdout: l.out.String(), Stderr: l.stderr.String()}
	if err != nil {
		l.s.t.Fatalf("claude (live session) ended with %v\nstderr: %s", err, r.Stderr)
	}
	l.s.runs = append(l.s.runs, r)
	return r
}
