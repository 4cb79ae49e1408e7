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

// TestFurtherFailuresTakeTheRoomLeft: the failures after the one the
// line's outcome names are chosen only with the room what was asked,
// decided and concluded leaves; given room, they are all there.
func TestFurtherFailuresTakeTheRoomLeft(t *testing.T) {
	body := "### Asked\n- migrate the cache to sqlite\n- keep the old json files readable\n" +
		"### Not done\n- `make bench`: failed (no rule to make target 'bench')\n" +
		"- `go test ./cache -run TestMigrate`: failed (database is locked)\n" +
		"- `sqlite3 cache.db .schema`: not allowed (This command requires approval)\n" +
		"### Decided\n- the json reader stays for one release, then goes\n" +
		"### Final message\n- The cache now lives in cache.db; the json files are read once and moved aside.\n"
	ses := Sessions([]Section{sec(t, "2026-11-24", "s1", 1, body)})[0]
	if line := ses.Line(0); !strings.Contains(line, "make bench") {
		t.Fatalf("line %q names not the first failure", line)
	}
	got := strings.Join(ses.Detail(260), "\n")
	for _, want := range []string{"keep the old json files readable", "the json reader stays", "The cache now lives in cache.db"} {
		if !strings.Contains(got, want) {
			t.Fatalf("tight detail lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "database is locked") {
		t.Fatalf("a further failure took the room of the conclusion:\n%s", got)
	}
	got = strings.Join(ses.Detail(700), "\n")
	if !strings.Contains(got, "database is locked") || !strings.Contains(got, "sqlite3 cache.db") || strings.Contains(got, "make bench") {
		t.Fatalf("with room, the further failures (and not the line's) are:\n%s", got)
	}
}

// TestGistKeepsTheSentencesThatNameThings: a reply too long for its
// room keeps its first sentence and then the sentences naming the most
// (numbers, names, files) per character, in their order; prose that
// names nothing is clipped at a word as before.
func TestGistKeepsTheSentencesThatNameThings(t *testing.T) {
	reply := "Done. The tool is built and tested, and everything went about as well as one could hope for today. " +
		"It was a long and careful piece of work from the start to the end. " +
		"After 10 matchdays (28 Sep 1974): Ipswich Town top on 16 points. The rest is as it was before."
	got := Gist(reply, 100)
	if got != "Done. … After 10 matchdays (28 Sep 1974): … Ipswich Town top on 16 points. …" {
		t.Fatalf("gist %q", got)
	}
	plain := strings.Repeat("and it went well again ", 10)
	if got, want := Gist(plain, 40), Clip(plain, 40); got != want {
		t.Fatalf("gist of plain prose %q, want %q", got, want)
	}
	if got := Gist("Short. Fits whole.", 100); got != "Short. Fits whole." {
		t.Fatalf("gist of a short reply %q", got)
	}
}

// TestDetailGivesNamedSentencesFirst: where a detail has room for few
// decisions and lessons, those that name something (a number, a name, a
// file) come before those that name nothing.
func TestDetailGivesNamedSentencesFirst(t *testing.T) {
	body := "### Asked\n- compute the table\n### Decided\n- I'm keeping the decision but documenting it honestly.\n" +
		"- Goal average is kept as an exact Fraction in rules.py.\n### Learned\n- That was the catch all along.\n" +
		"- SQLite doesn't support ALTER TABLE modify for nullability.\n"
	ses := Sessions([]Section{sec(t, "2026-11-24", "s1", 1, body)})[0]
	got := strings.Join(ses.Detail(150), "\n")
	want := "decided: Goal average is kept as an exact Fraction in rules.py.\nlearned: SQLite doesn't support ALTER TABLE modify for nullability."
	if got != want {
		t.Fatalf("detail\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(ses.Detail(700), "\n"); !strings.Contains(got, "\tI'm keeping the decision") || !strings.Contains(got, "\tThat was the catch") {
		t.Fatalf("with room, the others are given too:\n%s", got)
	}
}
