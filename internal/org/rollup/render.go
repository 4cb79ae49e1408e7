package rollup

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/planfact"
)

// Render writes the dashboard as Markdown. The output depends only on the
// report: no clock, no durations, no map order.
func Render(r *Report) []byte {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Org dashboard · %s\n\n", r.Date)
	w("<!-- written by `memhook rollup`; rebuilt from the projects on every run, edits here are lost -->\n\n")
	w("%s\n\n", counts(r))
	w("Activity is the newest change to a project's memory files: **fresh** within %d days, **⚠ stale** older, **unknown** without memory files, **unreachable** when the project's folder cannot be read.\n\n", r.FreshDays)

	w("## Active projects\n\n")
	if len(r.Active) == 0 {
		w("No active projects.\n\n")
	} else {
		w("| project | stage | plan | activity | next | blockers |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, p := range r.Active {
			pf := p.plan()
			w("| %s | %s | %s | %s | %s | %s |\n", cell(p.Name), cell(pf.Stage), cell(pf.PlanStatus), ActivityWords(p), cell(pf.Next), blockerCount(pf.Blockers))
		}
		w("\n")
		for _, p := range r.Active {
			details(&b, p)
		}
	}

	if len(r.Paused) > 0 {
		w("## Paused\n\n| project | stage | plan | updated | activity | summary |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, p := range r.Paused {
			pf := p.plan()
			w("| %s | %s | %s | %s | %s | %s |\n", cell(p.Name), cell(pf.Stage), cell(pf.PlanStatus), cell(pf.Updated), ActivityWords(p), cell(pf.Summary))
		}
		w("\n")
	}

	w("## Recently completed (≤ %d days)\n\n", r.CompletedDays)
	if len(r.Completed) == 0 {
		w("None.\n\n")
	} else {
		for _, p := range r.Completed {
			pf := p.plan()
			when := "date unknown"
			if pf.Completed != "" && p.CompletedAge >= 0 {
				when = fmt.Sprintf("%s, %s", pf.Completed, ago(p.CompletedAge))
			}
			w("- **%s** — completed %s · **Q4 case candidate**", inline(p.Name), when)
			if pf.Summary != "" {
				w(" · %s", inline(pf.Summary))
			}
			w("\n")
		}
		w("\nCandidates move to the org vault only by hand: `/cerebro:org_ingest` with the project's story and lessons.\n\n")
	}
	if r.HiddenCompleted > 0 {
		w("%s completed more than %d days ago %s hidden.\n\n", plural(r.HiddenCompleted, "project", "projects"), r.CompletedDays, isAre(r.HiddenCompleted))
	}

	w("## Diagnostics\n\n")
	if len(r.Diagnostics) == 0 {
		w("No problems found.\n")
	} else {
		w("| project | problem | where | detail |\n| --- | --- | --- | --- |\n")
		for _, d := range r.Diagnostics {
			name := d.Project
			if name == "" {
				name = "(registry)"
			}
			w("| %s | %s | %s | %s |\n", cell(name), cell(d.Kind), cell(where(d)), cell(d.Message))
		}
	}
	return b.Bytes()
}

func counts(r *Report) string {
	reg := plural(r.Registered, "registered project", "registered projects")
	for _, d := range r.Diagnostics {
		if d.Kind == KindRegistryCorrupt || d.Kind == KindRegistryRead {
			reg = "registry unreadable (see Diagnostics)"
		}
	}
	parts := []string{reg, fmt.Sprintf("%d active", len(r.Active))}
	if len(r.Paused) > 0 {
		parts = append(parts, fmt.Sprintf("%d paused", len(r.Paused)))
	}
	parts = append(parts, fmt.Sprintf("%d recently completed", len(r.Completed)))
	if r.HiddenCompleted > 0 {
		parts = append(parts, fmt.Sprintf("%d completed earlier (hidden)", r.HiddenCompleted))
	}
	parts = append(parts, plural(len(r.Diagnostics), "diagnostic", "diagnostics"))
	return strings.Join(parts, " · ")
}

func details(b *bytes.Buffer, p *Project) {
	pf := p.plan()
	fmt.Fprintf(b, "### %s\n\n", inline(p.Name))
	fmt.Fprintf(b, "- path: `%s`\n", shownPath(p.Path))
	if p.PlanFact == nil {
		fmt.Fprintf(b, "- plan-fact: %s\n", planFactTrouble(p))
	} else {
		fmt.Fprintf(b, "- summary: %s\n", orDash(inline(pf.Summary)))
		fmt.Fprintf(b, "- next: %s\n", orDash(inline(pf.Next)))
		if len(pf.Blockers) == 0 {
			fmt.Fprintf(b, "- blockers: none\n")
		} else {
			fmt.Fprintf(b, "- blockers:\n")
			for _, bl := range pf.Blockers {
				fmt.Fprintf(b, "  - %s\n", inline(bl))
			}
		}
		fmt.Fprintf(b, "- updated: %s\n", orDash(inline(pf.Updated)))
		if len(p.Problems) > 0 {
			fmt.Fprintf(b, "- contract: %s broken, see Diagnostics\n", plural(len(p.Problems), "field", "fields"))
		}
	}
	if p.ActivityFrom != "" {
		fmt.Fprintf(b, "- memory: last changed %s (`%s`)\n", p.LastActivity[:10], p.ActivityFrom)
	}
	if g := p.Git; g != nil && g.Error == "" {
		if g.LastHash == "" {
			fmt.Fprintf(b, "- git: no commits yet\n")
		} else {
			fmt.Fprintf(b, "- git: last commit `%s` on %s (%s) · %s in the window\n", g.LastHash, g.LastWhen[:10], inline(g.LastMessage), plural(g.Recent, "commit", "commits"))
		}
	}
	b.WriteString("\n")
}

func planFactTrouble(p *Project) string {
	switch {
	case p.Activity == Unreachable:
		return "not read: the project is unreachable"
	case p.PlanFactError == "missing":
		return "missing"
	case p.PlanFactError != "":
		return "unreadable, see Diagnostics"
	default:
		return "no frontmatter, see Diagnostics"
	}
}

func (p *Project) plan() planfact.PlanFact {
	if p.PlanFact == nil {
		return planfact.PlanFact{}
	}
	return *p.PlanFact
}

// ActivityWords is a project's activity as rollup.md writes it ("fresh ·
// today", "⚠ stale · 45 days ago"): the web dashboard shows the same
// words, from here.
func ActivityWords(p *Project) string {
	switch p.Activity {
	case Fresh:
		return "fresh · " + ago(p.ActivityAge)
	case Stale:
		return "⚠ stale · " + ago(p.ActivityAge)
	default:
		return p.Activity
	}
}

func ago(days int) string {
	switch days {
	case 0:
		return "today"
	case 1:
		return "1 day ago"
	}
	return fmt.Sprintf("%d days ago", days)
}

func where(d Diagnostic) string {
	switch {
	case d.Kind == KindContract && d.Field != "":
		return fmt.Sprintf("План-факт.md:%d `%s`", d.Line, d.Field)
	case d.Kind == KindContract:
		return fmt.Sprintf("План-факт.md:%d", d.Line)
	case d.ID != "":
		return "id " + d.ID
	}
	return ""
}

func blockerCount(bs []string) string {
	if len(bs) == 0 {
		return "—"
	}
	return fmt.Sprint(len(bs))
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = inline(s)
	if s == "" {
		return "—"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// shownPath is a project's path on the dashboard: quoted when it holds a
// control character (a folder may be named "x\n## Diagnostics"), so the
// line stays one line.
func shownPath(p string) string {
	if strings.ContainsFunc(p, unicode.IsControl) {
		return strconv.Quote(p)
	}
	return p
}

// inline folds text onto one line.
func inline(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
