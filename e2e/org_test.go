//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lastRequest is the text of the newest request the model received.
func lastRequest(t *testing.T, s *Sandbox) string {
	t.Helper()
	reqs := s.Mock.Messages()
	if len(reqs) == 0 {
		t.Fatal("no request reached the mock")
	}
	return string(reqs[len(reqs)-1].Body)
}

// The org commands run memhook before the model's turn: a refusal names
// place and kind without the value, --redact stores the file with markers,
// query cites the draft, lint reports it; the desk's vault gets commits.
func TestOrgSlashCommands(t *testing.T) {
	s := newSandbox(t)
	init := exec.Command(filepath.Join(repoRoot, "scripts", "memhook"), "org", "init")
	init.Env = s.environ()
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("memhook org init: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(s.Project, "retro.md"), []byte("Retro runbook\n\nWe hold retrospectives every two weeks.\nOwner: anna.k@corp.io\n"), 0o644)

	s.Prompt("/cerebro:org_ingest retro.md")
	body := lastRequest(t, s)
	if !strings.Contains(body, "refused") || !strings.Contains(body, "retro.md:4:8 email (pii)") || strings.Contains(body, "anna.k@corp.io") {
		t.Fatalf("refusal did not reach the model as expected:\n%.2000s", body)
	}
	if _, err := os.Stat(filepath.Join(s.Desk, "raw", "retro.md")); err == nil {
		t.Fatal("a refused file was stored")
	}

	s.Prompt("/cerebro:org_ingest retro.md --redact")
	raw := readFile(t, filepath.Join(s.Desk, "raw", "retro.md"))
	if !strings.Contains(raw, "[REDACTED:email]") || strings.Contains(raw, "anna.k@") {
		t.Fatalf("stored file:\n%s", raw)
	}
	if body := lastRequest(t, s); !strings.Contains(body, "redacted 1") || !strings.Contains(body, "sources/retro.md") {
		t.Fatalf("ingest output did not reach the model:\n%.2000s", body)
	}

	s.Prompt("/cerebro:org_query retrospectives")
	if body := lastRequest(t, s); !strings.Contains(body, "sources/retro.md#L") {
		t.Fatalf("query output did not reach the model:\n%.2000s", body)
	}

	s.Prompt("/cerebro:org_lint")
	if body := lastRequest(t, s); !strings.Contains(body, "orphan") || !strings.Contains(body, "0 error(s)") {
		t.Fatalf("lint output did not reach the model:\n%.2000s", body)
	}
	log := readFile(t, filepath.Join(s.Desk, "log.md"))
	if !strings.Contains(log, "ingest · raw/retro.md") {
		t.Fatalf("log.md:\n%s", log)
	}
}
