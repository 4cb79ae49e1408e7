package lint

import (
	"fmt"
	"io"
)

// WriteLines prints each finding as "file:line: severity: message [rule]"
// (the project linter's form, which editors jump to), then the counts for
// dir.
func WriteLines(w io.Writer, fs []Finding, dir string) {
	for _, f := range fs {
		fmt.Fprintf(w, "%s:%d: %s: %s [%s]\n", f.File, f.Line, f.Severity, f.Message, f.Rule)
	}
	writeCounts(w, fs, dir)
}

// WriteByFile prints the findings under their file's name, a line each
// ("-" for a finding of the whole file), then the counts for dir: the org
// vault's form, read by a person curating the vault.
func WriteByFile(w io.Writer, fs []Finding, dir string) {
	file := ""
	for _, f := range fs {
		if f.File != file {
			file = f.File
			fmt.Fprintf(w, "%s\n", file)
		}
		place := "-"
		if f.Line > 0 {
			place = fmt.Sprint(f.Line)
		}
		fmt.Fprintf(w, "  %s: %s %s: %s\n", place, f.Severity, f.Rule, f.Message)
	}
	writeCounts(w, fs, dir)
}

func writeCounts(w io.Writer, fs []Finding, dir string) {
	errs, warns := Count(fs)
	fmt.Fprintf(w, "%d error(s), %d warning(s) in %s\n", errs, warns, dir)
}
