package night

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report for a person: what ran, what was written,
// what it cost and what waits.
func WriteText(w io.Writer, r *Report) {
	prefix := "night"
	if r.DryRun {
		prefix = "night (dry run: nothing written, no model called)"
	}
	fmt.Fprintf(w, "%s %s: %s\n", prefix, r.Date, r.Project)
	if r.Skipped != "" {
		fmt.Fprintf(w, "  skipped: %s\n", r.Skipped)
		return
	}
	fmt.Fprintf(w, "  ran: %s\n", strings.Join(r.Ran, ", "))
	verb := "written"
	if r.DryRun {
		verb = "to write"
	}
	if len(r.Rollups) > 0 {
		fmt.Fprintf(w, "  roll-ups %s: %s\n", verb, strings.Join(r.Rollups, ", "))
	}
	if len(r.Compiled) > 0 {
		fmt.Fprintf(w, "  compiled and archived: %s\n", strings.Join(r.Compiled, ", "))
	}
	if r.Facts+r.Proposals+r.Truths+len(r.TruthPending) > 0 {
		fmt.Fprintf(w, "  facts written: %d, proposals kept: %d, truths replaced: %d, truths pending: %s\n", r.Facts, r.Proposals, r.Truths, orNone(r.TruthPending))
	}
	if r.Descriptions > 0 {
		fmt.Fprintf(w, "  descriptions tidied (they grew by repetition): %d\n", r.Descriptions)
	}
	if r.Links+r.CoreAdded+r.CoreProposed > 0 {
		fmt.Fprintf(w, "  cards linked to digests: %d, CORE.md lines added: %d, proposed for `memhook core review`: %d\n", r.Links, r.CoreAdded, r.CoreProposed)
	}
	fmt.Fprintf(w, "  cost: %d model calls, %d input and %d output tokens, %d answers from the cache", r.Calls, r.Tokens, r.OutputTokens, r.Cached)
	if r.BudgetStop {
		fmt.Fprint(w, " — the night's budget stopped the model steps; the rest waits for the next night")
	}
	fmt.Fprintln(w)
	for _, p := range r.OutsideBackup {
		fmt.Fprintf(w, "  outside the git backup (ignored by git, kept on disk): %s\n", p)
	}
	for _, wt := range r.Waiting {
		fmt.Fprintf(w, "  waiting: %s\n", wt)
	}
	if len(r.Ready) > 0 {
		fmt.Fprintf(w, "  ready to compile: %s\n", strings.Join(r.Ready, ", "))
	}
	fmt.Fprintf(w, "  lint: %d errors, %d warnings (`memhook lint`); CORE.md %d of %d characters\n", r.LintErrors, r.LintWarnings, r.CoreChars, r.CoreMax)
	if r.History != "" {
		fmt.Fprintf(w, "  history: %s\n", r.History)
	} else if !r.DryRun {
		fmt.Fprintf(w, "  commits: %d\n", len(r.Commits))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
