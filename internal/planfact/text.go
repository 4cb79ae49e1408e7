package planfact

import (
	"fmt"
	"io"
)

// Text is the problem without its line: "field: message".
func (p Problem) Text() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// WriteProblems prints each problem as "План-факт.md:line: field: message",
// or that the contract holds when there is none.
func WriteProblems(w io.Writer, probs []Problem) {
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s: the contract holds\n", FileName)
	}
	for _, p := range probs {
		fmt.Fprintf(w, "%s:%d: %s\n", FileName, p.Line, p.Text())
	}
}
