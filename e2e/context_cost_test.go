//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/cli"
	"github.com/tidwall/gjson"
)

// contextBudget is the most the plugin may add to every request the model
// gets, in characters: its commands and skills as Claude Code lists them,
// and what its hooks add to a session with no memory yet. MCP tools will
// add to it; the figure leaves them room.
const contextBudget = 2000

// requestText is everything of a request the model reads, as text: the
// system prompt, the tools (names, descriptions, schemas) and the messages.
func requestText(req gjson.Result) string {
	var b strings.Builder
	add := func(v gjson.Result) {
		switch {
		case v.Type == gjson.String:
			b.WriteString(v.String())
			b.WriteByte('\n')
		case v.IsArray():
			v.ForEach(func(_, blk gjson.Result) bool {
				if t := blk.Get("text"); t.Exists() {
					b.WriteString(t.String())
					b.WriteByte('\n')
				}
				return true
			})
		}
	}
	add(req.Get("system"))
	req.Get("tools").ForEach(func(_, tool gjson.Result) bool {
		b.WriteString(tool.Raw)
		b.WriteByte('\n')
		return true
	})
	req.Get("messages").ForEach(func(_, m gjson.Result) bool {
		add(m.Get("content"))
		return true
	})
	return b.String()
}

// listedLines are the lines of text that list one of names to the model
// ("- cerebro:recall: …" in 2.1.332's skill list, or the same in a tool's
// description), with their characters.
func listedLines(text string, names []string) (int, []string) {
	n := 0
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		for _, name := range names {
			if strings.HasPrefix(t, "- "+name+":") || strings.HasPrefix(t, "- /"+name+":") || strings.HasPrefix(t, "- "+name+" ") {
				n += utf8.RuneCountInString(l) + 1
				lines = append(lines, t)
				break
			}
		}
	}
	return n, lines
}

var (
	costMu   sync.Mutex
	costLine string
)

// printContextCost prints the figure TestPluginContextCost measured.
func printContextCost(w io.Writer) {
	costMu.Lock()
	defer costMu.Unlock()
	if costLine != "" {
		fmt.Fprintln(w, costLine)
	}
}

// TestPluginContextCost measures, in one run, what the plugin adds to
// every request: the same prompt in the same fresh project once with the
// plugin and the short commands installed (as `make install` leaves a
// machine) and once with neither, the first request of each compared as
// the model reads it. The difference must stay within contextBudget; the
// short commands, which duplicate the plugin's, must not be offered at
// all; and each part is printed: commands, skills, hook context.
func TestPluginContextCost(t *testing.T) {
	s := newSandbox(t)
	commands, skills := pluginEntries(t)
	var cmdNames, skillNames []string
	for n := range commands {
		cmdNames = append(cmdNames, n)
	}
	for n := range skills {
		skillNames = append(skillNames, n)
	}
	out := s.run(filepath.Join(repoRoot, "bin", "memhook"), "commands", "install", "--plugin-root", repoRoot)
	if !strings.Contains(out, "installed") {
		t.Fatalf("commands install: %s", out)
	}
	with := s.Prompt("hello with the plugin")
	withReq := s.firstRequestOf(with.SessionID())

	s.run(filepath.Join(repoRoot, "bin", "memhook"), "commands", "remove")
	s.PluginDir = ""
	without := s.Prompt("hello with the plugin")
	withoutReq := s.firstRequestOf(without.SessionID())
	if strings.Contains(string(withoutReq.Body), "cerebro:") {
		t.Fatal("the request without the plugin lists cerebro: the comparison is broken")
	}

	wText, woText := requestText(withReq.JSON()), requestText(withoutReq.JSON())
	total := utf8.RuneCountInString(wText) - utf8.RuneCountInString(woText)
	cmdChars, cmdLines := listedLines(wText, cmdNames)
	skillChars, skillLines := listedLines(wText, skillNames)
	hookChars := utf8.RuneCountInString(injected(withReq)) + utf8.RuneCountInString(promptContext(withReq))
	shortChars, shortLines := listedLines(wText, cli.ShortCommands)
	if shortChars > 0 {
		t.Errorf("the short commands are offered to the model beside the plugin's (%d chars):\n%s", shortChars, strings.Join(shortLines, "\n"))
	}
	if len(skillLines) != len(skills) {
		t.Errorf("the model is offered %d of the %d skills:\n%s", len(skillLines), len(skills), strings.Join(skillLines, "\n"))
	}
	line := fmt.Sprintf("plugin context per request: %d chars (budget %d): commands %d (%d listed), skills %d (%d), short commands %d, hook context %d, other %d — the first request of one prompt in a fresh project with and without the plugin, %s",
		total, contextBudget, cmdChars, len(cmdLines), skillChars, len(skillLines), shortChars, hookChars, total-cmdChars-skillChars-shortChars-hookChars, claudeVersion())
	t.Log(line)
	costMu.Lock()
	costLine = line
	costMu.Unlock()
	if total > contextBudget || total <= 0 {
		t.Errorf("%s\nlisted:\n%s\n%s", line, strings.Join(cmdLines, "\n"), strings.Join(skillLines, "\n"))
	}
}
