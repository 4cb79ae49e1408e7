package testfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "c.md")
	Write(t, p, "text\n")
	if got := Read(t, p); got != "text\n" {
		t.Errorf("Read = %q, want %q", got, "text\n")
	}
}

func TestShared(t *testing.T) {
	// From internal/testfile the shared folder is ../../../shared.
	p := Shared(t, "fixtures")
	if want, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "fixtures")); p != want {
		t.Errorf("Shared = %s, want %s", p, want)
	}
}

// TestSkipSummaryHelper records a skip when run as the child of
// TestMakeTestSummarisesSkips, and does nothing otherwise.
func TestSkipSummaryHelper(t *testing.T) {
	if os.Getenv("CEREBRO_TESTFILE_HELPER") != "1" {
		return
	}
	SkipMissing(t, Missing{What: "a widget", Fix: "apt-get install -y widget"}, "the helper needs it")
}

// TestMakeTestSummarisesSkips runs scripts/test (what `make test` runs) on
// a test that cannot run for want of something: the run ends with what it
// skipped and the command that fixes it, passes on a developer's machine,
// and fails with CI set (where the test itself fails rather than skip).
func TestMakeTestSummarisesSkips(t *testing.T) {
	script := filepath.Join("..", "..", "scripts", "test")
	for _, ci := range []string{"", "true"} {
		cmd := exec.Command(script, "-run", "^TestSkipSummaryHelper$", "./internal/testfile/")
		cmd.Env = append(os.Environ(), "CEREBRO_TESTFILE_HELPER=1", "CI="+ci)
		out, err := cmd.CombinedOutput()
		text := string(out)
		if ci == "" {
			if err != nil {
				t.Fatalf("scripts/test without CI: %v\n%s", err, text)
			}
			tail := text[strings.LastIndex(text, "ok  \t"):]
			for _, want := range []string{"NOT EVERYTHING WAS TESTED", "- a widget: tests skipped: 1", "fix: apt-get install -y widget", "TestSkipSummaryHelper"} {
				if !strings.Contains(tail, want) {
					t.Errorf("the end of the run lacks %q:\n%s", want, text)
				}
			}
			continue
		}
		if err == nil || !strings.Contains(text, "is missing, and CI must have it: apt-get install -y widget") {
			t.Errorf("with CI set, a missing prerequisite must fail the run: %v\n%s", err, text)
		}
	}
}
