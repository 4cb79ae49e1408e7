// Command stopwalk counts the internal packages one flush-due Stop runs
// code in, in each of its two processes: memhook-hot, which captures and
// decides, and the memhook it hands over to, which flushes. It builds both
// binaries with coverage, replays a real transcript through the hooks as
// Claude Code fires them (bench/internal/hookreplay) and, at the first Stop
// that writes a daily section, reads each process's coverage: a package
// counts when any of its statements ran. It also counts the calls of
// config.Load per process. Run it through bench/stopwalk/run.
//
// memhook-hot replaces itself with memhook (exec), so its counters are
// never written on the way through; the same Stop is therefore played
// twice from one snapshot of the state: once as the plugin runs it (for
// memhook's counters), once with a memhook that cannot be started beside
// memhook-hot (the hand-over fails, is logged, and memhook-hot exits with
// its counters written).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/bench/internal/hookreplay"
)

const module = "github.com/cerebro-mem/cerebro/"

var (
	transcriptFile = flag.String("transcript", "../shared/fixtures/transcripts/daaain__claude-code-log__real_projects__-Users-dain-workspace-coderabbit-review-helper__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", "a real transcript to replay")
	keep           = flag.Bool("keep", false, "keep the work dir (its path is printed)")
)

func main() {
	flag.Parse()
	work, err := os.MkdirTemp("", "cerebro-stopwalk-")
	check(err)
	if *keep {
		fmt.Println("work dir:", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin, hotOnly := filepath.Join(work, "bin"), filepath.Join(work, "hot-only")
	for _, c := range []string{"memhook", "memhook-hot"} {
		run("go", "build", "-cover", "-covermode=count", "-coverpkg=./...", "-o", filepath.Join(bin, c), "./cmd/"+c)
	}
	// memhook-hot alone: beside it a memhook that cannot be executed.
	check(os.MkdirAll(hotOnly, 0o755))
	data, err := os.ReadFile(filepath.Join(bin, "memhook-hot"))
	check(err)
	check(os.WriteFile(filepath.Join(hotOnly, "memhook-hot"), data, 0o755))
	check(os.WriteFile(filepath.Join(hotOnly, "memhook"), []byte("not a program\n"), 0o644))

	s := &stopwalk{work: work, live: filepath.Join(work, "live"), snap: filepath.Join(work, "snap")}
	s.proj = filepath.Join(s.live, "proj")
	check(os.MkdirAll(filepath.Join(s.proj, ".git"), 0o755))
	trDir := filepath.Join(s.live, "projects", "slug")
	check(os.MkdirAll(trDir, 0o755))
	s.env = append(os.Environ(), "CEREBRO_STATE_DIR="+filepath.Join(s.live, "state"), "CEREBRO_HOME="+filepath.Join(s.live, "home"),
		"HOME="+s.live, "CEREBRO_CONFIG="+filepath.Join(s.live, "none.toml"), "CEREBRO_DISTILLER_KIND=extractive")
	discard := filepath.Join(work, "cov-other")
	check(os.MkdirAll(discard, 0o755))

	lines, err := hookreplay.ReadLines(*transcriptFile)
	check(err)
	tr := filepath.Join(trDir, "s1.jsonl")
	f, err := os.Create(tr)
	check(err)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	stops, done := 0, false
	var hotCov, memhookCov string
	hookreplay.Play(lines, func(event string, kv ...string) string {
		if done {
			return ""
		}
		at = at.Add(30 * time.Second)
		in := hookreplay.Input("s1", s.proj, tr, event, kv...)
		prog, args := hookreplay.Command(filepath.Join(bin, "memhook"), filepath.Join(bin, "memhook-hot"), event)
		if event != "Stop" {
			return s.hook(prog, args, in, at, discard)
		}
		stops++
		s.copy(s.live, s.snap)
		before := s.daily()
		memhookCov = filepath.Join(work, "cov-stop-"+strconv.Itoa(stops))
		out := s.hook(prog, args, in, at, memhookCov)
		if s.daily() == before {
			check(os.RemoveAll(memhookCov))
			return out
		}
		// The flush-due Stop: again from the snapshot, memhook-hot alone.
		done = true
		s.copy(s.snap, s.live)
		hotCov = filepath.Join(work, "cov-hot")
		s.hook(filepath.Join(hotOnly, "memhook-hot"), args, in, at, hotCov)
		return out
	}, func(raw []byte) { f.Write(raw) })
	f.Close()
	if !done {
		fmt.Fprintf(os.Stderr, "stopwalk: no Stop of %d flushed in %s\n", stops, *transcriptFile)
		os.Exit(1)
	}
	// memhook's run holds memhook-hot's meta file too (written at start):
	// its counters never were, so it is left out.
	hotMeta := metaHashes(hotCov)
	for _, h := range hotMeta {
		matches, _ := filepath.Glob(filepath.Join(memhookCov, "cov*."+h+"*"))
		for _, m := range matches {
			check(os.Remove(m))
		}
	}
	hot, mem := packages(hotCov), packages(memhookCov)
	fmt.Printf("transcript: %s (Stop %d of the replay is the first to flush)\n\n", filepath.Base(*transcriptFile), stops)
	fmt.Printf("memhook-hot: %d internal packages, config.Load called %d times\n", len(hot), loads(hotCov))
	fmt.Printf("  %s\n", strings.Join(hot, " "))
	fmt.Printf("memhook:     %d internal packages, config.Load called %d times\n", len(mem), loads(memhookCov))
	fmt.Printf("  %s\n", strings.Join(mem, " "))
	union := map[string]bool{}
	for _, p := range append(hot, mem...) {
		union[p] = true
	}
	fmt.Printf("both:        %d internal packages\n", len(union))
}

type stopwalk struct {
	work, live, snap, proj string
	env                    []string
}

// hook runs one hook process with its coverage written to cov.
func (s *stopwalk) hook(prog string, args []string, in []byte, at time.Time, cov string) string {
	check(os.MkdirAll(cov, 0o755))
	cmd := exec.Command(prog, args...)
	cmd.Env = append(s.env, "CEREBRO_NOW="+at.Format(time.RFC3339), "GOCOVERDIR="+cov)
	cmd.Stdin, cmd.Dir = bytes.NewReader(in), s.proj
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "stopwalk: %s %v: %v\n%s", prog, args, err, stderr.String())
		os.Exit(1)
	}
	return string(out)
}

// daily is the size of the project's daily files: a flush grows it.
func (s *stopwalk) daily() int64 {
	var n int64
	matches, _ := filepath.Glob(filepath.Join(s.proj, ".claude", "memory_short", "daily", "*.md"))
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// copy replaces dst with a copy of src (the project, state, home and
// transcripts: everything a hook reads or writes).
func (s *stopwalk) copy(src, dst string) {
	check(os.RemoveAll(dst))
	run("cp", "-a", src, dst)
}

// metaHashes are the binaries whose meta files are in dir.
func metaHashes(dir string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, "covmeta.*"))
	var hs []string
	for _, m := range matches {
		hs = append(hs, strings.TrimPrefix(filepath.Base(m), "covmeta."))
	}
	return hs
}

// packages are the internal packages with any statement run.
func packages(dir string) []string {
	out, err := exec.Command("go", "tool", "covdata", "percent", "-i", dir).Output()
	check(err)
	var ps []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 || !strings.HasPrefix(fields[0], module+"internal/") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(fields[2], "%"), 64)
		if err == nil && pct > 0 {
			ps = append(ps, strings.TrimPrefix(fields[0], module))
		}
	}
	slices.Sort(ps)
	return ps
}

// loads is how many times config.Load ran: the count of the block that
// starts on its declaration's line.
func loads(dir string) int {
	const file = "internal/config/load.go"
	src, err := os.ReadFile(file)
	check(err)
	line := 1 + slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.HasPrefix(l, "func Load(") })
	txt := filepath.Join(dir, "cov.txt")
	run("go", "tool", "covdata", "textfmt", "-i", dir, "-o", txt)
	data, err := os.ReadFile(txt)
	check(err)
	at, n := fmt.Sprintf("%s%s:%d.", module, file, line), 0
	for _, l := range strings.Split(string(data), "\n") {
		if line > 0 && strings.HasPrefix(l, at) {
			fields := strings.Fields(l)
			c, _ := strconv.Atoi(fields[len(fields)-1])
			n += c
		}
	}
	return n
}

func run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	check(cmd.Run())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "stopwalk:", err)
		os.Exit(1)
	}
}
