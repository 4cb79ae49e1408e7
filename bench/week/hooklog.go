package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// deadlineMS is the hooks' deadline in the replay, by default the most
// the configuration allows. A hook past its deadline drops its work (a Stop
// hook's flush is then done by a later hook, over a longer segment), so
// with the product's 4 s a loaded machine changed what the daily files
// hold from run to run. The replay measures what the hooks write, not how
// fast: no hook may be cut, and hookTrouble says if one was.
var deadlineMS = flag.Int("deadline", 60000, "hook.deadline_ms of the replayed hooks (a small one shows what a cut hook changes)")

// hookTrouble counts the hook runs the state's logs record as failed or
// cut by their deadline (level error or warn) and returns the first
// message: a figure measured over such a run depends on the load.
func hookTrouble(state string) (int, string) {
	logs, _ := filepath.Glob(filepath.Join(state, "logs", "hooks.log*"))
	n, first := 0, ""
	for _, f := range logs {
		if strings.HasSuffix(f, ".lock") {
			continue
		}
		fh, err := os.Open(f)
		check(err)
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e struct {
				Event   string `json:"event"`
				Level   string `json:"level"`
				Message string `json:"message"`
			}
			if json.Unmarshal(sc.Bytes(), &e) != nil || (e.Level != "error" && e.Level != "warn") {
				continue
			}
			n++
			if first == "" {
				first = fmt.Sprintf("%s: %s", e.Event, e.Message)
			}
		}
		fh.Close()
	}
	return n, first
}
