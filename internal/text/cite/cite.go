// Package cite writes the one citation format every command, the MCP
// tools and the web app show for lines of a memory file:
// `path#Lstart-Lend` (DESIGN §7), `path#L12-L12` for one line. Use
// [Lines] to write one and [Parse] to read one back.
package cite

import (
	"fmt"
	"strconv"
	"strings"
)

// Lines cites lines from..to (1-based, inclusive) of path.
func Lines(path string, from, to int) string {
	return fmt.Sprintf("%s#L%d-L%d", path, from, to)
}

// Parse reads a citation written by [Lines] back into its path and line
// range; ok is false for anything else.
func Parse(c string) (path string, from, to int, ok bool) {
	i := strings.LastIndex(c, "#L")
	if i <= 0 {
		return "", 0, 0, false
	}
	a, b, found := strings.Cut(c[i+2:], "-L")
	if !found {
		return "", 0, 0, false
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || from < 1 || to < from {
		return "", 0, 0, false
	}
	return c[:i], from, to, true
}
