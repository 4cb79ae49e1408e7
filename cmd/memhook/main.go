// Command memhook is cerebro's helper binary: Claude Code's hooks, skills and
// slash commands call it for every deterministic memory operation.
package main

import (
	"os"

	"github.com/cerebro-mem/cerebro/internal/cli"
	"github.com/cerebro-mem/cerebro/internal/factory"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], factory.OS()))
}
