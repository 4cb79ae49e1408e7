// Command memhook-hot runs the hooks Claude Code fires on every turn and
// around every tool call (UserPromptSubmit, Stop, PreToolUse, PostToolUse,
// PostToolUseFailure) at a fraction of memhook's start-up cost, and hands
// memhook whatever else an event needs. See internal/shortterm/hotpath.
package main

import (
	"os"

	"github.com/cerebro-mem/cerebro/internal/shortterm/hotpath"
)

func main() {
	os.Exit(hotpath.Main(os.Args[1:], hotpath.OS()))
}
