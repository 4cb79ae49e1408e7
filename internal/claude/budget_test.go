package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var day = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func TestBudgetStopsAtTheLimitAndANewDayResets(t *testing.T) {
	b := DailyBudget(t.TempDir(), UseDistiller, 2)
	for i := 0; i < 3; i++ {
		ok, err := b.Take(day)
		if err != nil || ok != (i < 2) {
			t.Fatalf("call %d: ok=%v err=%v", i, ok, err)
		}
	}
	if n, err := b.Used(day); n != 2 || err != nil {
		t.Fatalf("used = %d, %v; want 2", n, err)
	}
	if ok, _ := b.Take(day.AddDate(0, 0, 1)); !ok {
		t.Fatal("the budget did not reset the next day")
	}
	if n, _ := b.Used(day.AddDate(0, 0, 1)); n != 1 {
		t.Fatalf("the next day used %d, want 1", n)
	}
}

func TestBudgetOfZeroAllowsNoCall(t *testing.T) {
	b := DailyBudget(t.TempDir(), UseResearch, 0)
	if ok, err := b.Take(day); ok || err != nil {
		t.Fatalf("a limit of 0 allowed a call: ok=%v err=%v", ok, err)
	}
	if n, _ := b.Used(day); n != 0 {
		t.Fatalf("a refused call was counted: %d", n)
	}
}

func TestBudgetTakesAPairWholeOrNot(t *testing.T) {
	b := DailyBudget(t.TempDir(), UseEvolution, 3)
	if ok, _ := b.TakeN(day, 2); !ok {
		t.Fatal("the first pair was refused")
	}
	if ok, _ := b.TakeN(day, 2); ok {
		t.Fatal("a pair that does not fit was taken")
	}
	if n, _ := b.Used(day); n != 2 {
		t.Fatalf("used = %d after a refused pair, want 2", n)
	}
	if ok, _ := b.Take(day); !ok {
		t.Fatal("the last single call was refused")
	}
}

func TestBudgetRefusesALinkedCount(t *testing.T) {
	state := t.TempDir()
	b := DailyBudget(state, UseNight, 5)
	os.MkdirAll(b.Dir, 0o755)
	secret := filepath.Join(state, "elsewhere")
	os.WriteFile(secret, []byte("1\n"), 0o600)
	if err := os.Symlink(secret, b.file(day)); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if ok, err := b.Take(day); ok || err == nil {
		t.Fatalf("a count reached through a link was used: ok=%v err=%v", ok, err)
	}
	if data, _ := os.ReadFile(secret); string(data) != "1\n" {
		t.Fatalf("the link's target was written: %q", data)
	}
}

// budgetChildEnv makes the test binary a process that takes calls from
// the budget named in it, so the concurrency test runs real processes.
const budgetChildEnv = "CEREBRO_TEST_BUDGET_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(budgetChildEnv); spec != "" {
		dir, count, _ := strings.Cut(spec, "|")
		n, _ := strconv.Atoi(count)
		got := 0
		for i := 0; i < n; i++ {
			if ok, err := (Budget{Dir: dir, Limit: 25}).Take(day); err != nil {
				os.Stderr.WriteString(err.Error())
				os.Exit(2)
			} else if ok {
				got++
			}
		}
		os.Stdout.WriteString(strconv.Itoa(got))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestBudgetIsSharedByConcurrentProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), UseDistiller)
	const procs, each = 4, 10
	outs := make([]*strings.Builder, procs)
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^$")
		cmds[i].Env = append(os.Environ(), budgetChildEnv+"="+dir+"|"+strconv.Itoa(each))
		outs[i] = &strings.Builder{}
		cmds[i].Stdout = outs[i]
		cmds[i].Stderr = os.Stderr
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
		n, _ := strconv.Atoi(outs[i].String())
		total += n
	}
	if total != 25 {
		t.Fatalf("%d processes taking %d calls each were allowed %d in all, want the limit 25", procs, each, total)
	}
	if n, _ := (Budget{Dir: dir}).Used(day); n != 25 {
		t.Fatalf("the count on disk is %d, want 25", n)
	}
}

// A budget keeps the day it counts, not a file a day for ever: the first
// call of a day removes the earlier days' counts and locks, and nothing
// else in the folder.
func TestBudgetKeepsOnlyTheDayItCounts(t *testing.T) {
	b := DailyBudget(t.TempDir(), UseDistiller, 5)
	for d := 0; d < 3; d++ {
		if ok, err := b.Take(day.AddDate(0, 0, d)); !ok || err != nil {
			t.Fatalf("day %d: ok=%v err=%v", d, ok, err)
		}
	}
	other := filepath.Join(b.Dir, "notes.txt")
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, _ := b.Take(day.AddDate(0, 0, 3)); !ok {
		t.Fatal("the fourth day's call was refused")
	}
	entries, err := os.ReadDir(b.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	today := "budget-" + day.AddDate(0, 0, 3).Format(time.DateOnly)
	want := []string{today, today + ".lock", "notes.txt"}
	if !slices.Equal(names, want) {
		t.Fatalf("the budget's folder holds %v, want %v", names, want)
	}
	if n, _ := b.Used(day.AddDate(0, 0, 3)); n != 1 {
		t.Fatalf("today's count is %d, want 1", n)
	}
}
