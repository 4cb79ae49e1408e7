//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/planfact"
)

// LongDir is the project's long-term memory root.
func (s *Sandbox) LongDir() string { return filepath.Join(s.Project, ".claude", "memory_long") }

// memhookPath is the plugin's memhook shim, as a model's Bash call names it.
func memhookPath() string { return filepath.Join(repoRoot, "scripts", "memhook") }

// bash is a rule reply: the model runs command with the Bash tool.
func bash(command string) []Block {
	return []Block{ToolUse("Bash", map[string]any{"command": command, "description": "run memhook"})}
}

// commandTag marks the turn of /cerebro:<name> in a request.
func commandTag(name string) string { return "<command-name>/cerebro:" + name + "</command-name>" }

// TestPlanFactCommandAndInject: /cerebro:planfact runs memhook's contract
// check before the model's turn, the model's `memhook planfact set` keeps
// the file valid, and the next session starts with CORE.md and the
// plan-fact paragraph in its SessionStart context.
func TestPlanFactCommandAndInject(t *testing.T) {
	s := newSandbox(t)
	s.Memhook("long", "on")
	set := fmt.Sprintf(`"%s" planfact set stage "Schema migration" && "%[1]s" planfact set next "Backfill the cents column"`, memhookPath())
	s.Mock.On(Rule{Trigger: commandTag("planfact"), Match: func(t *Turn) bool { return !t.HasToolResult }, Reply: func(*Turn) []Block { return bash(set) }})

	s.AllowedTools = "" // the command's allowed-tools let the model run memhook
	s.Prompt("/cerebro:planfact the schema stage is finished")
	if got := s.commandTurn("planfact"); !strings.Contains(got, "План-факт.md: the contract holds") || !strings.Contains(got, "the schema stage is finished") {
		t.Fatalf("the model did not get memhook planfact check's verdict and the user's words; it got:\n%s", got)
	}
	data, err := os.ReadFile(filepath.Join(s.LongDir(), planfact.FileName))
	if err != nil {
		t.Fatal(err)
	}
	pf, probs := planfact.Parse(data)
	if pf == nil || len(probs) > 0 {
		t.Fatalf("after the model's planfact set the file breaks its contract: %v\n%s", probs, data)
	}
	if pf.Stage != "Schema migration" || pf.Next != "Backfill the cents column" || pf.Updated != time.Now().Format("2006-01-02") {
		t.Errorf("planfact set did not land: stage %q, next %q, updated %q", pf.Stage, pf.Next, pf.Updated)
	}

	s.Memhook("core", "set", "The ledger service is Quokka; money is kept in integer cents.")
	next := s.Prompt("Where does the project stand?")
	ctx := injected(s.firstRequestOf(next.SessionID()))
	for _, want := range []string{"Quokka; money is kept in integer cents", "Plan-fact status —", "stage: Schema migration", "next: Backfill the cents column"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("the SessionStart context lacks %q (CORE.md or the plan-fact paragraph):\n%s", want, ctx)
		}
	}
	s.checkHooks()
}

// plantDaily writes a closed day's daily file with one section.
func (s *Sandbox) plantDaily(day, decided string) string {
	s.t.Helper()
	path := filepath.Join(s.DailyDir(), day+".md")
	text := fmt.Sprintf("---\ntype: daily\ndate: %s\nproject: proj\n---\n\n# %s\n\n"+
		"## 10:00–10:30 · session 0123abcd · auto\n"+
		"<!-- cerebro:segment session=0123abcd-0000-4000-8000-000000000000 from=0 to=100 -->\n\n"+
		"### Decided\n- %s\n", day, day, decided)
	if err := os.MkdirAll(s.DailyDir(), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// TestIngestAndCompileCommands: /cerebro:ingest stores the file in raw/
// with a source page and a log line before the model's turn, and refuses a
// symbolic link leading out of the project; /cerebro:compile
// lists the closed days, and once the model has written a page linking them
// and run `memhook compile done`, exactly those days are in daily/_archive/.
func TestIngestAndCompileCommands(t *testing.T) {
	s := newSandbox(t)
	s.Memhook("long", "on")
	doc := "# Ledger design\n\nBalances are stored in integer cents.\n"
	os.MkdirAll(filepath.Join(s.Project, "notes"), 0o755)
	os.WriteFile(filepath.Join(s.Project, "notes", "ledger-design.md"), []byte(doc), 0o644)

	s.Prompt("/cerebro:ingest notes/ledger-design.md")
	if got := s.commandTurn("ingest"); !strings.Contains(got, "copied to") || !strings.Contains(got, "source page:") || strings.Contains(got, "exited with status") {
		t.Fatalf("the model did not get memhook ingest's report; it got:\n%s", got)
	}
	if raw := readFile(t, filepath.Join(s.LongDir(), "raw", "ledger-design.md")); raw != doc {
		t.Errorf("raw/ledger-design.md = %q, want the file as it was", raw)
	}
	pages, _ := filepath.Glob(filepath.Join(s.LongDir(), "wiki", "sources", "*.md"))
	if len(pages) != 1 || !strings.Contains(readFile(t, pages[0]), "type: source") || !strings.Contains(readFile(t, pages[0]), "ledger-design.md") {
		t.Errorf("want one source page linking raw/ledger-design.md, got %v", pages)
	}
	if log := readFile(t, filepath.Join(s.LongDir(), "log.md")); !strings.Contains(log, "ledger-design.md") {
		t.Errorf("log.md has no line for the ingest:\n%s", log)
	}

	// A symbolic link leading out is refused; the error reaches the model.
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("not for the project\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(s.Project, "link.md")); err != nil {
		t.Fatal(err)
	}
	s.Prompt("/cerebro:ingest link.md")
	if got := s.commandTurn("ingest"); !strings.Contains(got, "symbolic link") || !strings.Contains(got, "exited with status") {
		t.Errorf("the refusal of a symbolic link did not reach the model; it got:\n%s", got)
	}
	if raws, _ := filepath.Glob(filepath.Join(s.LongDir(), "raw", "*.md")); len(raws) != 1 {
		t.Errorf("raw/ holds %v after the refused ingest, want only ledger-design.md", raws)
	}

	now := time.Now()
	d1, d2 := now.AddDate(0, 0, -3).Format("2006-01-02"), now.AddDate(0, 0, -2).Format("2006-01-02")
	s.plantDaily(d1, "Invoices are kept for seven years")
	s.plantDaily(d2, "Refunds settle within three days")
	today := s.plantDaily(now.Format("2006-01-02"), "Today is still open")
	page := filepath.Join(s.LongDir(), "wiki", "_private", "Retention.md")
	content := fmt.Sprintf("---\ntype: decision\n---\n\n# Retention\n\n- Invoices are kept for seven years ([[daily/%s]]).\n- Refunds settle within three days ([[daily/%s]]).\n", d1, d2)
	// Claude Code refuses Write/Edit (and shell redirections) under
	// .claude/ as sensitive files, so the model writes pages with memhook.
	write := fmt.Sprintf("%q wiki write wiki/_private/Retention.md <<'EOF'\n%sEOF", memhookPath(), content)
	done := fmt.Sprintf("%q compile done %s %s", memhookPath(), d1, d2)
	s.Mock.On(
		Rule{Trigger: commandTag("compile"), Match: func(t *Turn) bool { return !t.HasToolResult }, Reply: func(*Turn) []Block { return bash(write) }},
		Rule{Match: func(t *Turn) bool {
			return t.HasToolResult && strings.Contains(t.Body.Raw, commandTag("compile")) && !strings.Contains(t.Body.Raw, "compile done "+d1)
		}, Reply: func(*Turn) []Block { return bash(done) }},
	)

	// Only the command's own allowed-tools let the model run memhook.
	s.AllowedTools = ""
	s.Prompt("/cerebro:compile")
	got := s.commandTurn("compile")
	for _, d := range []string{d1, d2} {
		if !strings.Contains(got, d) || !strings.Contains(got, filepath.Join("daily", d+".md")) {
			t.Errorf("compile list does not show closed day %s with its path; the model got:\n%s", d, got)
		}
	}
	if strings.Contains(got, filepath.Base(today)) {
		t.Errorf("compile list shows today, which is not closed:\n%s", got)
	}
	if got, err := os.ReadFile(page); err != nil || string(got) != content {
		t.Fatalf("the model's memhook wiki write did not write the page (%v): %q\nlast request: %.3000s", err, got, lastRequest(t, s))
	}
	for _, d := range []string{d1, d2} {
		if _, err := os.Stat(filepath.Join(s.DailyDir(), "_archive", d+".md")); err != nil {
			t.Errorf("day %s was not archived after compile done: %v", d, err)
		}
		if _, err := os.Stat(filepath.Join(s.DailyDir(), d+".md")); err == nil {
			t.Errorf("day %s is still in daily/ after compile done", d)
		}
	}
	if _, err := os.Stat(today); err != nil {
		t.Errorf("today's daily file moved: %v", err)
	}
	s.checkHooks()
}
