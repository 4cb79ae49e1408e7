package night

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm"
)

// One project's failure — an unreachable folder, a panic while it is set
// up — never stops the next: every project gets its report and its line
// in the night log, and the outcome counts the failures.
func TestABatchRunsEveryProjectWhateverFails(t *testing.T) {
	dir := t.TempDir()
	plain, panicky := filepath.Join(dir, "plain"), filepath.Join(dir, "panicky")
	os.MkdirAll(plain, 0o755)
	os.MkdirAll(panicky, 0o755)
	desk := filepath.Join(dir, "desk")
	now := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	var out, errs, progress bytes.Buffer
	b := Batch{Roots: []string{filepath.Join(dir, "gone"), panicky, plain}, Now: now, Clock: func() time.Time { return now }, DeskDir: desk,
		Options: func(root string) (Options, error) {
			if root == panicky {
				panic("boom")
			}
			return Options{Store: longterm.New(root)}, nil
		},
		Budget: LoadBudget("", now.Format(time.DateOnly), 10, 1000), Out: &out, Err: &errs, Progress: &progress}
	o := b.Run(context.Background())
	if len(o.Reports) != 3 || o.Failed != 2 || o.Provider {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.Contains(o.Reports[0].Problems[0], "not reachable") || !strings.Contains(o.Reports[1].Problems[0], "internal error: boom") ||
		o.Reports[2].Skipped == "" || o.Reports[2].Date != "2026-11-30" {
		t.Errorf("reports %+v %+v %+v", o.Reports[0], o.Reports[1], o.Reports[2])
	}
	if strings.Count(errs.String(), "memhook: error: night ") != 2 || strings.Count(progress.String(), "night [") != 3 || out.Len() == 0 {
		t.Errorf("errors:\n%s\nprogress:\n%s\nout:\n%s", errs.String(), progress.String(), out.String())
	}
	log, err := os.ReadFile(filepath.Join(desk, LogFile))
	if err != nil || strings.Count(string(log), "date=2026-11-30") != 3 {
		t.Errorf("night log %q %v", log, err)
	}
}

// A dry run writes no night log line and never saves its budget.
func TestADryBatchLogsNothing(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	b := Batch{Roots: []string{dir}, Now: now, Clock: time.Now, DryRun: true, DeskDir: filepath.Join(dir, "desk"),
		Options: func(root string) (Options, error) { return Options{Store: longterm.New(root)}, nil },
		Budget:  SharedBudget(filepath.Join(dir, "desk"), filepath.Join(dir, "state"), now, 10, 1000, true)}
	if o := b.Run(context.Background()); len(o.Reports) != 1 || o.Failed != 0 {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(filepath.Join(dir, "desk")); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote the desk: %v", err)
	}
}

// Where a batch prints: the daily job (every project, no terminal) says
// only its errors; a terminal over every project shows progress; JSON
// leaves stdout to the reports the caller prints.
func TestPrintToFollowsTheFrontEnd(t *testing.T) {
	var out, errw bytes.Buffer
	for _, tc := range []struct {
		all, terminal, json            bool
		progress, text, errors, warned bool
	}{
		{all: true, terminal: false, json: false, errors: true},
		{all: true, terminal: true, json: false, progress: true, text: true, errors: true, warned: true},
		{all: false, terminal: false, json: false, text: true, errors: true, warned: true},
		{all: true, terminal: false, json: true, warned: true},
		{all: false, terminal: true, json: true, warned: true},
	} {
		var b Batch
		b.PrintTo(&out, &errw, tc.all, tc.terminal, tc.json)
		got := [4]bool{b.Progress == &errw, b.Out == &out, b.Err == &errw, b.Warn == &errw}
		want := [4]bool{tc.progress, tc.text, tc.errors, tc.warned}
		if got != want || (b.Progress == nil) == tc.progress || (b.Out == nil) == tc.text {
			t.Errorf("all=%v terminal=%v json=%v: progress, text, errors, warnings = %v, want %v", tc.all, tc.terminal, tc.json, got, want)
		}
	}
	if !(Outcome{Failed: 1}).Troubled() || !(Outcome{Provider: true}).Troubled() || (Outcome{}).Troubled() {
		t.Error("Troubled must follow a failed project or the provider")
	}
	if d := time.Date(2026, 11, 30, 0, 0, 0, 0, time.Local); At(d).Format(time.DateOnly) != "2026-11-30" || At(d).Hour() != 23 {
		t.Errorf("the night of 2026-11-30 runs at %v", At(d))
	}
}
