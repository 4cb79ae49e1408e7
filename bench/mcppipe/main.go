// Command mcppipe measures `memhook mcp` under a hostile client: 600
// tools/call requests of 900 KB each (each under the 1 MiB bound), sent
// without waiting, first by a client that reads every answer, then by
// one that never reads and finally closes its input. It prints the
// server's peak resident set in each case against the 200 MB bound, and
// whether the server ended after its input closed with its output unread.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

const boundMB = 200

func main() {
	memhook := flag.String("memhook", "", "the memhook binary to measure")
	project := flag.String("project", "", "a project directory")
	n := flag.Int("n", 600, "requests")
	size := flag.Int("size", 900<<10, "bytes of each request's argument")
	flag.Parse()
	fail := false
	for _, reads := range []bool{true, false} {
		ok, err := run(*memhook, *project, *n, *size, reads)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench/mcppipe:", err)
			os.Exit(1)
		}
		fail = fail || !ok
	}
	if fail {
		os.Exit(1)
	}
}

// peakMB is the server's peak resident set (VmHWM) in MB.
func peakMB(pid int) int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		var kb int
		if _, err := fmt.Sscanf(l, "VmHWM: %d kB", &kb); err == nil {
			return kb / 1024
		}
	}
	return -1
}

func run(memhook, project string, n, size int, reads bool) (bool, error) {
	state, err := os.MkdirTemp("", "cerebro-bench-mcppipe-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(state)
	cmd := exec.Command(memhook, "mcp", "--project", project)
	cmd.Env = append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+state+"/desk", "HOME="+state)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return false, err
	}
	defer cmd.Process.Kill()
	r := bufio.NewReaderSize(out, 1<<20)
	io.WriteString(in, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`+"\n")
	if _, err := r.ReadString('\n'); err != nil {
		return false, fmt.Errorf("initialize: %w", err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	big := strings.Repeat("x", size)
	sent := make(chan int, n)
	go func() {
		for i := range n {
			// memory_get refuses the path at once: the figure is the
			// connection's, not a tool's work.
			line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_get","arguments":{"path":"%s"}}}`, i, big)
			if _, err := io.WriteString(in, line+"\n"); err != nil {
				return
			}
			sent <- i
		}
	}()
	start := time.Now()
	if reads {
		for i := range n {
			line, err := r.ReadString('\n')
			if err != nil {
				return false, fmt.Errorf("answer %d: %w", i, err)
			}
			if !strings.Contains(line, fmt.Sprintf(`"id":%d,`, i)) {
				return false, fmt.Errorf("answer %d came as %.80s", i, line)
			}
		}
		peak := peakMB(cmd.Process.Pid)
		fmt.Printf("a client that reads: %d requests of %d KB answered in order in %.1f s; server peak RSS %d MB (bound %d MB)\n",
			n, size>>10, time.Since(start).Seconds(), peak, boundMB)
		in.Close()
		return peak <= boundMB, cmd.Wait()
	}
	time.Sleep(15 * time.Second)
	peak := peakMB(cmd.Process.Pid)
	got := len(sent)
	in.Close()
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	t := time.Now()
	select {
	case <-ended:
		fmt.Printf("a client that never reads: the server took %d of %d requests in 15 s; peak RSS %d MB (bound %d MB); it ended %.1f s after its input closed\n",
			got, n, peak, boundMB, time.Since(t).Seconds())
		return peak <= boundMB, nil
	case <-time.After(60 * time.Second):
		fmt.Printf("a client that never reads: the server took %d of %d requests in 15 s; peak RSS %d MB (bound %d MB); still running 60 s after its input closed\n",
			got, n, peak, boundMB)
		return false, nil
	}
}
