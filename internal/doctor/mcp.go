package doctor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/mcp"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// checkMCP starts `memhook mcp` as Claude Code does and asks it for its
// tools: the tools are there when it answers. It names the Bash fallback
// the skills and commands keep, whether a permission rule lets the tools
// run without asking.
func checkMCP(rep *Report, env *Env) {
	fallback := "the skills and commands fall back to Bash (" + filepath.Join("scripts", "memhook") + " recall, remember, search, get)"
	if n, tokens, ms, err := probeMCP(env, env.root); err != nil {
		rep.Add("warn", "run `memhook mcp` in a terminal to see why it stops (it waits for JSON-RPC on stdin; ctrl-D ends it); "+fallback,
			"memory tools (MCP server memhook mcp): %v", err)
	} else {
		rep.Add("ok", "", "memory tools: memhook mcp starts and lists %d tools in %d ms (~%d tokens of context, target %d); if it is down, %s",
			n, ms, tokens, mcp.TokenTarget, fallback)
	}
	reportMCPPermission(rep, env, env.root)
}

// probeMCP runs this memhook's mcp server on a state dir of its own (so
// that doctor changes nothing), initializes a session and lists the tools.
func probeMCP(env *Env, root string) (tools, tokens int, ms int64, err error) {
	if env.Executable == "" {
		return 0, 0, 0, fmt.Errorf("not checked: the path of this memhook is unknown")
	}
	if root == "" {
		root = "."
	}
	state, err := os.MkdirTemp("", "memhook-doctor-mcp-")
	if err != nil {
		return 0, 0, 0, fmt.Errorf("make a state dir for the check: %w", err)
	}
	defer os.RemoveAll(state)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.Executable, "mcp", "--project", root)
	for _, kv := range env.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "CLAUDE_PLUGIN_DATA" && k != "CEREBRO_STATE_DIR" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "CEREBRO_STATE_DIR="+state)
	start := time.Now()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "memhook-doctor", Version: env.Version}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("start %s mcp: %w", env.Executable, err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("tools/list: %w", err)
	}
	ms = time.Since(start).Milliseconds()
	_, tokens, err = mcp.ListCost(res.Tools)
	return len(res.Tools), tokens, ms, err
}

// reportMCPPermission says which memory tools run without asking, by which
// settings file's rule, and which ask before their first use.
func reportMCPPermission(rep *Report, env *Env, root string) {
	var free, asks, files, rules []string
	for _, tool := range mcp.Tools {
		where, rule := mcpAllowedBy(env, root, mcp.ToolPrefix+"__"+tool)
		if where == "" {
			asks = append(asks, tool)
			continue
		}
		free = append(free, tool)
		if !slices.Contains(files, where) {
			files = append(files, where)
		}
		if !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	switch {
	case len(asks) == 0 && len(rules) == 1:
		rep.Add("ok", "", "memory tools run without asking: %s allows %s", files[0], rules[0])
	case len(free) == 0:
		rep.Add("ok", "", "memory tools ask before their first use in a session, and -p refuses them (the plugin cannot grant itself permission); `memhook permissions install` (make install runs it) allows the read-only memory_search and memory_get; to allow all four, add %q to permissions.allow in %s", mcp.ToolPrefix, filepath.Join(env.ClaudeDir, "settings.json"))
	case len(asks) == 0:
		rep.Add("ok", "", "memory tools run without asking (allowed in %s)", strings.Join(files, ", "))
	default:
		rep.Add("ok", "", "memory tools: %s run without asking (allowed in %s); %s ask before their first use in a session", strings.Join(free, ", "), strings.Join(files, ", "), strings.Join(asks, ", "))
	}
}

// mcpAllowedBy names the settings file whose permissions.allow lets tool
// run without asking, and the rule (the tool's or its server's); "" when
// none does. Project files are read through the safe file layer: a
// repository is hostile input.
func mcpAllowedBy(env *Env, root, tool string) (file, rule string) {
	// The user's own file may be a dotfiles link; a project's may not.
	user := filepath.Join(env.ClaudeDir, "settings.json")
	if real, err := filepath.EvalSymlinks(user); err == nil {
		user = real
	}
	files := []string{user}
	if root != "" {
		files = append(files, filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".claude", "settings.local.json"))
	}
	for _, p := range files {
		data, err := safefs.ReadFile(p, 1<<20)
		if err != nil || !gjson.ValidBytes(data) {
			continue
		}
		for _, rule := range gjson.GetBytes(data, "permissions.allow").Array() {
			if r := rule.String(); r == mcp.ToolPrefix || r == tool {
				return p, r
			}
		}
	}
	return "", ""
}
