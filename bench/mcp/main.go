// Command mcp measures `memhook mcp`, the plugin's MCP server, as Claude
// Code runs it: a process started per session and spoken to over stdio.
// It prints the server's start time (exec to the initialize answer), its
// resident set after start, what the tool list costs a session's context,
// and memory_search calls against `memhook search` run as a process per
// query (as a Bash call runs it), turn about, over the same project and
// index: the generated 7,000-note vault of bench/search/vault. Every
// figure comes from this one run.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	memhook := flag.String("memhook", "", "the memhook binary to measure")
	project := flag.String("project", "", "a project whose .claude/memory_long holds the vault")
	queries := flag.Int("queries", 60, "queries, each asked both ways")
	starts := flag.Int("starts", 10, "server starts to time")
	flag.Parse()
	if err := run(*memhook, *project, *queries, *starts); err != nil {
		fmt.Fprintln(os.Stderr, "bench/mcp:", err)
		os.Exit(1)
	}
}

func run(memhook, project string, nq, starts int) error {
	state, err := os.MkdirTemp("", "cerebro-bench-mcp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	env := append(os.Environ(), "CEREBRO_STATE_DIR="+state, "CEREBRO_HOME="+filepath.Join(state, "desk"), "HOME="+state)
	notes := mdFiles(filepath.Join(project, ".claude", "memory_long"))
	t0 := time.Now()
	idx := exec.Command(memhook, "index", "--project", project)
	idx.Env = env
	if out, err := idx.CombinedOutput(); err != nil {
		return fmt.Errorf("memhook index: %v\n%s", err, out)
	}
	fmt.Printf("project: %d notes in .claude/memory_long, indexed from nothing by memhook index in %s\n", len(notes), ms(time.Since(t0)))

	// Start: exec to the initialize answer, a fresh server each time.
	var startup []time.Duration
	var rss []int
	for i := 0; i < starts; i++ {
		t0 := time.Now()
		cs, cmd, err := connect(memhook, project, env)
		if err != nil {
			return err
		}
		startup = append(startup, time.Since(t0))
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			return err
		}
		rss = append(rss, vmRSS(cmd.Process.Pid))
		cs.Close()
	}
	sort.Ints(rss)
	fmt.Printf("server start (exec to initialize answered): p50 %s, max %s over %d starts\n", ms(pct(startup, 0.5)), ms(pct(startup, 1)), starts)
	fmt.Printf("RSS after start and tools/list: p50 %.1f MB, max %.1f MB (target 40 MB)\n", float64(rss[len(rss)/2])/1024, float64(rss[len(rss)-1])/1024)

	cs, cmd, err := connect(memhook, project, env)
	if err != nil {
		return err
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		return err
	}
	chars, tokens, err := mcp.ListCost(list.Tools)
	if err != nil {
		return err
	}
	var api []map[string]any
	for _, t := range list.Tools {
		api = append(api, map[string]any{"name": "mcp__plugin_cerebro_memory__" + t.Name, "description": t.Description, "input_schema": t.InputSchema})
	}
	apiJSON, _ := json.Marshal(api)
	fmt.Printf("tool list: %d tools, %d characters of tools/list JSON = ~%d tokens (chars/4; target %d); as Claude Code sends them (name, description, input_schema): %d characters = ~%d tokens\n",
		len(list.Tools), chars, tokens, mcp.TokenTarget, len(apiJSON), (len(apiJSON)+3)/4)
	for _, t := range list.Tools {
		b, _ := json.Marshal(t)
		fmt.Printf("  %-14s %5d characters\n", t.Name, len(b))
	}

	qs := queryWords(notes, nq)
	var tool, cli []time.Duration
	for _, q := range qs {
		t0 := time.Now()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: mcp.ToolSearch, Arguments: map[string]any{"query": q}})
		if err != nil || res.IsError {
			return fmt.Errorf("memory_search %q: %v %v", q, err, res)
		}
		tool = append(tool, time.Since(t0))
		t0 = time.Now()
		c := exec.Command(memhook, "search", "--project", project, "--json", q)
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("memhook search %q: %v\n%s", q, err, out)
		}
		cli = append(cli, time.Since(t0))
	}
	after := vmRSS(cmd.Process.Pid)
	fmt.Printf("memory_search over MCP: p50 %s p95 %s; memhook search as a process: p50 %s p95 %s -> the tool takes %.2fx the command's p50 (%d queries each, turn about)\n",
		ms(pct(tool, 0.5)), ms(pct(tool, 0.95)), ms(pct(cli, 0.5)), ms(pct(cli, 0.95)), pct(tool, 0.5).Seconds()/pct(cli, 0.5).Seconds(), len(qs))
	fmt.Printf("server RSS after the searches: %.1f MB\n", float64(after)/1024)
	return nil
}

// connect starts `memhook mcp` and initializes a session with it.
func connect(memhook, project string, env []string) (*sdk.ClientSession, *exec.Cmd, error) {
	cmd := exec.Command(memhook, "mcp", "--project", project)
	cmd.Env = env
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("start memhook mcp: %w", err)
	}
	return cs, cmd, nil
}

// vmRSS is a process's resident set in KB (Linux; 0 elsewhere).
func vmRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// queryWords draws n queries of one to three words that occur in the
// notes at least three times, as bench/search/vault does.
func queryWords(notes []string, n int) []string {
	counts := map[string]int{}
	for _, f := range notes {
		data, _ := os.ReadFile(f)
		for _, w := range textan.Words(string(data)) {
			counts[w]++
		}
	}
	var words []string
	for w, c := range counts {
		if c >= 3 && len([]rune(w)) >= 4 && !textan.IsStopWord(w) {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	r := rand.New(rand.NewSource(11))
	var qs []string
	for i := 0; i < n; i++ {
		var q []string
		for j := 0; j <= r.Intn(3); j++ {
			q = append(q, words[r.Intn(len(words))])
		}
		qs = append(qs, strings.Join(q, " "))
	}
	return qs
}

func mdFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func pct(l []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1)+0.5)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
