// Package lint is the shared vocabulary of the memory linters: the [Finding]
// each one reports and its severities. The project linter
// (internal/longterm) and the org-vault linter (internal/org/orgvault) both
// return []Finding, so `memhook lint --json` and `memhook org lint --json`
// print the same shape and the CLI counts errors the same way:
//
//	found, err := store.Lint(opts)
//	...
//	errs, warns := lint.Count(found)
//	if lint.HasErrors(found) { exit 1 }
package lint

// Severities. Only errors make a lint command exit non-zero.
const (
	Error   = "error"
	Warning = "warning"
)

// Finding is one lint result; the JSON field names are the documented
// output of the lint commands.
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // Error or Warning
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	errs, _ := Count(fs)
	return errs > 0
}

// Count returns how many findings are errors and how many are not.
func Count(fs []Finding) (errs, warnings int) {
	for _, f := range fs {
		if f.Severity == Error {
			errs++
		}
	}
	return errs, len(fs) - errs
}
