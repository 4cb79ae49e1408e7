package skill

import (
	"fmt"
	"io"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// WriteLog prints a skill's commits one a line: short hash, time, message.
func WriteLog(w io.Writer, log []gitrepo.Commit) {
	for _, c := range log {
		fmt.Fprintf(w, "%.12s  %s  %s\n", c.Hash, c.When.Format("2006-01-02 15:04"), c.Message)
	}
}

// WriteReverted says what a [Revert] committed.
func (r Result) WriteReverted(w io.Writer) {
	fmt.Fprintf(w, "skill %s reverted: commit %.12s in %s\n", r.Skill, r.Commit, r.Repo)
}
