package timeline

import (
	"strings"
	"testing"
)

// TestDetailNamesTheCommitsTheLineCounts: a line names a session's first
// commits and counts the rest ("+2 more"); its detail names those rest,
// first among what was done, and not the ones the line names.
func TestDetailNamesTheCommitsTheLineCounts(t *testing.T) {
	body := "### Asked\n- ship the importer\n### Done\n- ran subagent “review” (general-purpose)\n" +
		"- committed a000001 parse the header\n- committed a000002 parse the rows\n- committed a000003 write the table\n" +
		"- committed a000004 reject a duplicated column\n- committed a000005 read a byte order mark\n"
	ses := Sessions([]Section{sec(t, "2026-11-24", "s1", 1, body)})[0]
	if line := ses.Line(0); !strings.Contains(line, "a000003 write the table; +2 more") {
		t.Fatalf("line %q", line)
	}
	got := strings.Join(ses.Detail(700), "\n")
	// Each item on a line of its own, never joined.
	want := "done:\n\tcommitted a000004 reject a duplicated column\n\tcommitted a000005 read a byte order mark\n\tran subagent “review” (general-purpose)"
	if !strings.Contains(got, want) {
		t.Fatalf("detail\n%s\nwant %q", got, want)
	}
	if strings.Contains(got, "a000001") || strings.Contains(got, "a000003") {
		t.Fatalf("a commit the line names is said again:\n%s", got)
	}
}

// TestDetailSkipsWhatDoesNotFit: an item too long for the room left ends
// its own subsection, not the detail: a short item of a later subsection
// that fits is still given.
func TestDetailSkipsWhatDoesNotFit(t *testing.T) {
	body := "### Asked\n- add the importer\n- " + strings.Repeat("and a long follow-up request ", 5) + "\n" +
		"### Files and commands\n- changed: `import.go`\n"
	ses := Sessions([]Section{sec(t, "2026-11-24", "s1", 1, body)})[0]
	got := strings.Join(ses.Detail(60), "\n")
	if got != "files: changed: `import.go`" {
		t.Fatalf("detail %q", got)
	}
	if got := strings.Join(ses.Detail(700), "\n"); !strings.Contains(got, "asked: and a long follow-up") || !strings.Contains(got, "files: changed") {
		t.Fatalf("with room, detail %q", got)
	}
}

// TestOlderPartsKeepWhatTheyConcluded: where a session's newer sections
// are shown whole and its older ones rolled up, what each older part
// concluded is kept under a label that dates it, and their file lists
// give way to it when room is short; a rolled-up session of one day in a
// timeline (not OlderOnly) keeps the file list's turn.
func TestOlderPartsKeepWhatTheyConcluded(t *testing.T) {
	files := "### Files and commands\n- ran: `" + strings.Repeat("pytest -q tests/test_table.py ", 6) + "`\n"
	first := sec(t, "2026-11-24", "s1", 1, "### Asked\n- compute the table\n"+files+"### Final message\n- Ipswich Town is top after matchday 10 on 16 points.\n")
	second := sec(t, "2026-11-24", "s1", 2, "### Asked\n- publish it\n### Final message\n- Pushed to the public repository.\n")
	// The inject rolls up only the older sections: here, the first.
	older := Sessions([]Section{first})[0]
	older.OlderOnly = true
	got := strings.Join(older.Detail(120), "\n")
	if !strings.Contains(got, "concluded then:") || !strings.Contains(got, "Ipswich Town is top") {
		t.Fatalf("older parts' conclusion missing:\n%s", got)
	}
	if strings.Contains(got, "pytest -q") {
		t.Fatalf("the file list was kept before the conclusion:\n%s", got)
	}
	if strings.Contains(got, "final message") {
		t.Fatalf("an older part's conclusion is labelled as the final message:\n%s", got)
	}
	whole := Sessions([]Section{first, second})[0]
	if got := strings.Join(whole.Detail(700), "\n"); !strings.Contains(got, "final message:") || !strings.Contains(got, "Pushed to the public repository.") || !strings.Contains(got, "pytest -q") {
		t.Fatalf("a session shown only in its line lost its final message or files:\n%s", got)
	}
}
