package tables

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the tables as `memhook tables` prints them: a line
// each with its kinds (a list: what it grew from) and row count.
func WriteText(w io.Writer, ts []TableInfo) error {
	if len(ts) == 0 {
		_, err := fmt.Fprintln(w, "no tables yet")
		return err
	}
	for _, t := range ts {
		var err error
		switch t.Shape {
		case ShapeList:
			_, err = fmt.Fprintf(w, "%s  list of %s.%s  %d rows\n", t.Name, t.Parent, t.ParentKind, t.Rows)
		default:
			_, err = fmt.Fprintf(w, "%s  kinds: %s  %d rows\n", t.Name, strings.Join(t.Kinds, ", "), t.Rows)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
