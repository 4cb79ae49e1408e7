package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/project"
)

// daySection is one flushed section of a day: the person asks for the
// release train of a sprint, padded so that each section is a part of its
// own at night.max_day_chars = 1000.
func daySection(clock, session string, sprint int) string {
	return fmt.Sprintf("## %s–%s · session %s · auto\n\n### Asked\n- release train for sprint %d leaves on Friday\n### Done\n- wrote notes %s\n\n",
		clock, clock, session, sprint, strings.Repeat("x", 700))
}

func (e *nightEnv) writeDayText(t *testing.T, day string, sections ...string) string {
	t.Helper()
	l := project.Layout{Root: e.proj}
	os.MkdirAll(l.DailyDir(), 0o755)
	p := filepath.Join(l.DailyDir(), day+".md")
	text := fmt.Sprintf("---\ntype: daily\ndate: %s\nproject: apollo\n---\n\n# %s\n\n", day, day) + strings.Join(sections, "")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeLatestDay writes a later closed day: the latest closed day is never
// ready (SessionStart injects it as the previous day), so the days before
// it are.
func (e *nightEnv) writeLatestDay(t *testing.T) {
	e.writeDay(t, time.Date(2026, 10, 26, 0, 0, 0, 0, time.Local), 26)
}

// prompts returns the prompts of calls from (1-based) on.
func (e *nightEnv) prompts(t *testing.T, from int) []string {
	t.Helper()
	var out []string
	for i := from; i <= e.callCount(t); i++ {
		out = append(out, readFile(t, fmt.Sprintf("%s.%d", e.calls, i)))
	}
	return out
}

func (e *nightEnv) long(rel string) string {
	return filepath.Join(e.proj, ".claude", "memory_long", filepath.FromSlash(rel))
}

func (e *nightEnv) lastNight(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, e.long(".cerebro/night/last.json"))), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNightLinksAndCoreProposals: step 3 links the digest and the cards
// it touches both ways, only where both exist, in one commit; step 4
// proposes the CORE line the person said and not the one they did not,
// and `core review` applies it through the CORE writer.
func TestNightLinksAndCoreProposals(t *testing.T) {
	e := newNightEnv(t, true)
	trains := "---\ntype: topic\n---\n\n# Trains\n\nRelease trains.\n"
	if _, errOut, code := e.run(t, trains, "wiki", "write", "wiki/Trains.md", "--project", e.proj); code != 0 {
		t.Fatal(errOut)
	}
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 7)
	e.writeLatestDay(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 || strings.Contains(out, "problem:") {
		t.Fatalf("night: exit %d\n%s%s", code, out, errOut)
	}
	digest := readFile(t, e.long("wiki/_private/digest-2026-10-01.md"))
	rel := readFile(t, e.long("wiki/Releases.md"))
	tr := readFile(t, e.long("wiki/Trains.md"))
	// Releases is linked from the facts written; Trains, named by the
	// model, gets the digest's "## Cards" link; Missing does not exist.
	if !strings.Contains(digest, "[[wiki/Releases]]") || !strings.Contains(digest, "## Cards\n\n- [[wiki/Trains]]") || strings.Contains(digest, "Missing") {
		t.Fatalf("digest links:\n%s", digest)
	}
	for name, page := range map[string]string{"Releases": rel, "Trains": tr} {
		if !strings.Contains(page, "## Digests\n\n- [[wiki/_private/digest-2026-10-01]]") {
			t.Fatalf("%s has no link back to the digest:\n%s", name, page)
		}
	}
	if exists(e.long("wiki/Missing.md")) {
		t.Fatal("a link created a page")
	}
	log, _, _ := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	if !strings.Contains(log, "memhook night links 2026-10-01: log.md, wiki/Releases.md, wiki/Trains.md, wiki/_private/digest-2026-10-01.md") {
		t.Fatalf("the links are not one commit:\n%s", log)
	}
	// Step 4, night.core = "propose" by default: CORE.md is untouched, the
	// person's line waits, the assistant's does not.
	core := readFile(t, e.long("CORE.md"))
	if strings.Contains(core, "sprint 7") {
		t.Fatalf("CORE.md changed without review:\n%s", core)
	}
	rv, errOut, code := e.run(t, "", "core", "review", "--project", e.proj)
	if code != 0 || !strings.Contains(rv, "- release train for sprint 7 leaves on Friday") || strings.Contains(rv, "Postgres") ||
		!strings.Contains(rv, `the person said: "release train for sprint 7 leaves on Friday"`) {
		t.Fatalf("core review:\n%s%s", rv, errOut)
	}
	id := strings.Fields(rv)[0]
	if out, errOut, code := e.run(t, "", "core", "review", "--apply", id, "--project", e.proj); code != 0 || !strings.Contains(out, "added to CORE.md") {
		t.Fatalf("apply: %s%s", out, errOut)
	}
	if core := readFile(t, e.long("CORE.md")); !strings.Contains(core, "- release train for sprint 7 leaves on Friday\n") {
		t.Fatalf("CORE.md after review:\n%s", core)
	}
	if rv, _, _ := e.run(t, "", "core", "review", "--project", e.proj); !strings.Contains(rv, "no CORE.md proposals") {
		t.Fatalf("the applied proposal still waits:\n%s", rv)
	}
	log, _, _ = e.run(t, "", "long", "log", "--limit", "1", "--project", e.proj)
	if !strings.Contains(log, "memhook core review "+id+": CORE.md, log.md") {
		t.Fatalf("the review is not committed:\n%s", log)
	}
}

// TestNightCoreApplyWithinCap: with night.core = "apply" the person's line
// goes into CORE.md through its writer, and a line that would pass the cap
// waits for review instead, saying why.
func TestNightCoreApplyWithinCap(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["CEREBRO_NIGHT_CORE"] = "apply"
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 3)
	e.writeLatestDay(t)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30"); code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if core := readFile(t, e.long("CORE.md")); !strings.Contains(core, "- release train for sprint 3 leaves on Friday\n") || strings.Contains(core, "Postgres") {
		t.Fatalf("CORE.md:\n%s", core)
	}
	log, _, _ := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	if !strings.Contains(log, "memhook night core 2026-10-01: CORE.md, log.md") {
		t.Fatalf("no CORE commit:\n%s", log)
	}
	// A cap the next line cannot fit in.
	core := readFile(t, e.long("CORE.md"))
	e.env["CEREBRO_LONG_CORE_MAX_CHARS"] = fmt.Sprint(len([]rune(core)) + 10)
	e.writeDay(t, time.Date(2026, 10, 2, 0, 0, 0, 0, time.Local), 4)
	e.writeDay(t, time.Date(2026, 10, 3, 0, 0, 0, 0, time.Local), 5)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31"); code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if got := readFile(t, e.long("CORE.md")); got != core {
		t.Fatalf("CORE.md passed its cap:\n%s", got)
	}
	rv, _, _ := e.run(t, "", "core", "review", "--project", e.proj)
	if !strings.Contains(rv, "sprint 4") || !strings.Contains(rv, "not applied: CORE.md would be") {
		t.Fatalf("the line over the cap does not wait with its reason:\n%s", rv)
	}
}

// TestNightCoreApplyNotFromTheProject: a project's own file may not turn
// the person's review of CORE.md off.
func TestNightCoreApplyNotFromTheProject(t *testing.T) {
	e := newNightEnv(t, true)
	os.WriteFile(filepath.Join(e.proj, ".claude", "cerebro.toml"), []byte("[night]\ncore = \"apply\"\n"), 0o644)
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 3)
	e.writeLatestDay(t)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30"); code != 0 {
		t.Fatalf("night: exit %d\n%s%s", code, out, errOut)
	}
	if doc, _, _ := e.run(t, "", "doctor", "--project", e.proj); !strings.Contains(doc, "ignored: project config may not set night.core") {
		t.Fatalf("doctor does not name the ignored key:\n%s", doc)
	}
	if core := readFile(t, e.long("CORE.md")); strings.Contains(core, "sprint 3") {
		t.Fatalf("the project's file applied a CORE line:\n%s", core)
	}
	if rv, _, _ := e.run(t, "", "core", "review", "--project", e.proj); !strings.Contains(rv, "sprint 3") {
		t.Fatalf("the line does not wait for review:\n%s", rv)
	}
}

// TestNightReadsUsage: the budget counts what the provider reported.
func TestNightReadsUsage(t *testing.T) {
	e := newNightEnv(t, true)
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	e.writeLatestDay(t)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30"); code != 0 {
		t.Fatalf("night: %s%s", out, errOut)
	}
	calls := e.callCount(t)
	if calls == 0 {
		t.Fatal("no call made")
	}
	last := e.lastNight(t)
	// Each stand-in call reports 1000 fresh and 200 cached input tokens
	// and 50 output tokens.
	if int(last["tokens"].(float64)) != 1200*calls || int(last["output_tokens"].(float64)) != 50*calls {
		t.Fatalf("%d calls, tokens %v, output %v", calls, last["tokens"], last["output_tokens"])
	}
	budget := readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.BudgetFile))
	if !strings.Contains(budget, fmt.Sprintf(`"tokens": %d`, 1200*calls)) {
		t.Fatalf("the budget does not count the reported tokens:\n%s", budget)
	}
}

// TestNightStopsWithoutUsage: a call whose usage is missing stops the
// night before the next call, and the log says so.
func TestNightStopsWithoutUsage(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["USAGE"] = "omit"
	for i := 1; i <= 3; i++ {
		e.writeDay(t, time.Date(2026, 10, i, 0, 0, 0, 0, time.Local), i)
	}
	e.writeLatestDay(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 {
		t.Fatalf("night: exit %d\n%s%s", code, out, errOut)
	}
	if n := e.callCount(t); n != 1 {
		t.Fatalf("%d calls after one without usage", n)
	}
	if !strings.Contains(out, "did not report the usage of call 1") {
		t.Fatalf("the report does not say why it stopped:\n%s", out)
	}
	log := readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.LogFile))
	if !strings.Contains(log, "usage=unreported") || !strings.Contains(log, "no complete usage: no usage object") {
		t.Fatalf("night.log:\n%s", log)
	}
	// The same night again makes no call either; the next night does.
	e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if n := e.callCount(t); n != 1 {
		t.Fatalf("a rerun of the same night made %d more calls", n-1)
	}
	delete(e.env, "USAGE")
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31"); code != 0 || !strings.Contains(out, "compiled and archived: 2026-10-01, 2026-10-02, 2026-10-03") {
		t.Fatalf("next night: %s%s", out, errOut)
	}
}

// TestNightProviderFailureResumes: a call that dies mid-stream fails the
// run; the day stays unready, its accepted facts stay, and the next night
// resumes at the saved step without sending the day again.
func TestNightProviderFailureResumes(t *testing.T) {
	e := newNightEnv(t, true)
	l := project.Layout{Root: e.proj}
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	e.writeDay(t, time.Date(2026, 10, 2, 0, 0, 0, 0, time.Local), 2)
	e.writeLatestDay(t)
	e.env["FAIL_AT"] = "2" // the day's extraction answers; its CORE call dies
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code == 0 {
		t.Fatalf("a provider failure exited 0:\n%s%s", out, errOut)
	}
	if n := e.callCount(t); n != 2 {
		t.Fatalf("%d calls: a call was retried or another made after the failure", n)
	}
	if !strings.Contains(errOut, "the model provider failed") || !strings.Contains(out, "resumes at its saved step") {
		t.Fatalf("the failure is not said:\n%s\n%s", out, errOut)
	}
	if !exists(filepath.Join(l.DailyDir(), "2026-10-01.md")) || exists(filepath.Join(l.ArchiveDir(), "2026-10-01.md")) {
		t.Fatal("the unfinished day was archived")
	}
	if card := readFile(t, e.long("wiki/Releases.md")); !strings.Contains(card, "sprint 1 leaves on Friday · [[daily/2026-10-01]]") {
		t.Fatalf("the accepted fact is gone:\n%s", card)
	}
	if log := readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.LogFile)); !strings.Contains(log, `failed="the model call failed: run claude`) {
		t.Fatalf("night.log:\n%s", log)
	}
	doc, _, _ := e.run(t, "", "doctor", "--project", e.proj)
	if !strings.Contains(doc, "the last night stopped on a provider failure") {
		t.Fatalf("doctor:\n%s", doc)
	}
	delete(e.env, "FAIL_AT")
	out, errOut, code = e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31")
	if code != 0 || !strings.Contains(out, "compiled and archived: 2026-10-01, 2026-10-02") {
		t.Fatalf("the next night: exit %d\n%s%s", code, out, errOut)
	}
	ps := e.prompts(t, 3)
	if len(ps) == 0 || !strings.HasPrefix(ps[0], "cerebro night: CORE edits") {
		t.Fatalf("the next night did not resume at the CORE step: %d calls, first %.40q", len(ps), ps)
	}
	for _, p := range ps {
		if strings.Contains(p, `<day date="2026-10-01">`) {
			t.Fatal("the next night sent the resumed day again")
		}
	}
}

// TestNightGarbageFailsTheRun: output that is not a result is a provider
// failure too: nothing is written for the day.
func TestNightGarbageFailsTheRun(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["GARBAGE"] = "1"
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	e.writeLatestDay(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code == 0 || !strings.Contains(out, "not claude's JSON result") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if exists(e.long("wiki/_private/digest-2026-10-01.md")) || e.callCount(t) != 1 {
		t.Fatalf("a digest was written from garbage, or the call was retried (%d calls)", e.callCount(t))
	}
}

// TestNightTailGrows: a closed day that gains sections after the night
// read its first ones sends only the new sections.
func TestNightTailGrows(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["CEREBRO_NIGHT_MAX_DAY_CHARS"] = "1000"
	e.env["CEREBRO_NIGHT_MAX_CALLS"] = "1"
	p := e.writeDayText(t, "2026-10-01", daySection("09:00", "aaaa1111", 11), daySection("10:00", "bbbb2222", 12))
	e.writeLatestDay(t)
	if out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30"); code != 0 || !strings.Contains(out, "budget stopped") {
		t.Fatalf("first night: %s%s", out, errOut)
	}
	if e.callCount(t) != 1 || !strings.Contains(e.prompts(t, 1)[0], "sprint 11") {
		t.Fatal("the first night did not send the first section")
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(daySection("11:00", "cccc3333", 13))
	f.Close()
	e.env["CEREBRO_NIGHT_MAX_CALLS"] = "40"
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31")
	if code != 0 || !strings.Contains(out, "compiled and archived: 2026-10-01") {
		t.Fatalf("second night: %s%s", out, errOut)
	}
	var dayPrompts []string
	for _, pr := range e.prompts(t, 2) {
		if strings.Contains(pr, "<day date=") {
			dayPrompts = append(dayPrompts, pr)
		}
	}
	if len(dayPrompts) != 2 || !strings.Contains(dayPrompts[0], "sprint 12") || !strings.Contains(dayPrompts[1], "sprint 13") {
		t.Fatalf("the second night sent %d day parts", len(dayPrompts))
	}
	for _, pr := range dayPrompts {
		if strings.Contains(pr, "sprint 11") {
			t.Fatal("a section already read was sent again")
		}
	}
	card := readFile(t, e.long("wiki/Releases.md"))
	for _, n := range []int{11, 12, 13} {
		if !strings.Contains(card, fmt.Sprintf("sprint %d leaves on Friday", n)) {
			t.Fatalf("fact of sprint %d missing:\n%s", n, card)
		}
	}
}

// TestNightChangedReply: a section the night already read that changes
// afterwards makes the night write nothing for that day; the report, the
// log and doctor name the section and the command that deletes the cache,
// and after it the day is read again.
func TestNightChangedReply(t *testing.T) {
	e := newNightEnv(t, true)
	e.env["CEREBRO_NIGHT_MAX_DAY_CHARS"] = "1000"
	e.env["CEREBRO_NIGHT_MAX_CALLS"] = "1"
	p := e.writeDayText(t, "2026-10-01", daySection("09:00", "aaaa1111", 21), daySection("10:00", "bbbb2222", 22))
	e.writeLatestDay(t)
	e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	text := readFile(t, p)
	os.WriteFile(p, []byte(strings.Replace(text, "sprint 21", "sprint 99", 1)), 0o644)
	e.env["CEREBRO_NIGHT_MAX_CALLS"] = "40"
	before := e.callCount(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-31")
	forget := "memhook night forget 2026-10-01 --project " + e.proj
	if code != 0 || !strings.Contains(out, "section 1 (## 09:00–09:00 · session aaaa1111 · auto) changed after the night read it") || !strings.Contains(out, forget) {
		t.Fatalf("changed reply:\n%s%s", out, errOut)
	}
	if e.callCount(t) != before || exists(e.long("wiki/_private/digest-2026-10-01.md")) {
		t.Fatal("the night wrote or called for a day whose read section changed")
	}
	log := readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.LogFile))
	if !strings.Contains(log, "changed=") || !strings.Contains(log, "memhook night forget 2026-10-01") {
		t.Fatalf("night.log:\n%s", log)
	}
	doc, _, _ := e.run(t, "", "doctor", "--project", e.proj)
	if !strings.Contains(doc, "section 1 (## 09:00–09:00 · session aaaa1111 · auto) changed") || !strings.Contains(doc, forget) {
		t.Fatalf("doctor:\n%s", doc)
	}
	args := strings.Fields(forget)[1:]
	if out, errOut, code := e.run(t, "", append(args[:3:3], "--project", e.proj)...); code != 0 || !strings.Contains(out, "deleted the night's cache of 2026-10-01") {
		t.Fatalf("forget: %s%s", out, errOut)
	}
	out, errOut, code = e.run(t, "", "night", "--project", e.proj, "--now", "2026-11-01")
	if code != 0 || !strings.Contains(out, "compiled and archived: 2026-10-01") {
		t.Fatalf("after forget: %s%s", out, errOut)
	}
	if card := readFile(t, e.long("wiki/Releases.md")); !strings.Contains(card, "sprint 99") || strings.Contains(card, "sprint 21") {
		t.Fatalf("the day was not read again:\n%s", card)
	}
}

// TestNightGitignoredDigest: a digest the person's .gitignore keeps out of
// the history stays on disk and is listed as outside the backup; the
// tracked card keeps being committed.
func TestNightGitignoredDigest(t *testing.T) {
	e := newNightEnv(t, true)
	ign := e.long(".gitignore")
	os.WriteFile(ign, []byte(readFile(t, ign)+"wiki/_private/\n"), 0o644)
	e.run(t, "", "long", "log", "--project", e.proj)
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	e.writeLatestDay(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 || !strings.Contains(out, "outside the git backup (ignored by git, kept on disk): memory_long/wiki/_private/digest-2026-10-01.md") {
		t.Fatalf("night: %s%s", out, errOut)
	}
	if !exists(e.long("wiki/_private/digest-2026-10-01.md")) {
		t.Fatal("the ignored digest is not on disk")
	}
	log, _, _ := e.run(t, "", "long", "log", "--limit", "0", "--project", e.proj)
	if strings.Contains(log, "digest-2026-10-01") || !strings.Contains(log, "memhook night compile 2026-10-01: index.md, log.md, wiki/Releases.md") {
		t.Fatalf("history:\n%s", log)
	}
	nl := readFile(t, filepath.Join(e.env["CEREBRO_HOME"], ".claude", "memory_short", night.LogFile))
	if !strings.Contains(nl, `outside_backup="memory_long/wiki/_private/digest-2026-10-01.md"`) {
		t.Fatalf("night.log:\n%s", nl)
	}
}

// TestNightGlobalExcludes: the user's global excludes file counts as git
// counts it.
func TestNightGlobalExcludes(t *testing.T) {
	e := newNightEnv(t, true)
	xdg := e.env["XDG_CONFIG_HOME"]
	os.MkdirAll(filepath.Join(xdg, "git"), 0o755)
	os.WriteFile(filepath.Join(xdg, "git", "ignore"), []byte("digest-*.md\n"), 0o644)
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	e.writeLatestDay(t)
	out, errOut, code := e.run(t, "", "night", "--project", e.proj, "--now", "2026-10-30")
	if code != 0 || !strings.Contains(out, "outside the git backup (ignored by git, kept on disk): memory_long/wiki/_private/digest-2026-10-01.md") {
		t.Fatalf("night: %s%s", out, errOut)
	}
	var listed []string
	for _, w := range strings.Split(out, "\n") {
		if strings.Contains(w, "outside the git backup") {
			listed = append(listed, w)
		}
	}
	sort.Strings(listed)
	if len(listed) != 1 {
		t.Fatalf("listed %v", listed)
	}
}
