package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/factory"
)

// doctor shows each user's model calls of today from the one count they
// all take from, and warns about a spent one.
func TestDoctorShowsEachModelCallBudget(t *testing.T) {
	home, state := t.TempDir(), t.TempDir()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	os.MkdirAll(filepath.Join(home, ".config", "cerebro"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "cerebro", "config.toml"), []byte("[evolution]\ndaily_budget = 2\n"), 0o644)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	claude.DailyBudget(state, claude.UseDistiller, 20).TakeN(now, 3)
	claude.DailyBudget(state, claude.UseEvolution, 2).TakeN(now, 2)
	claude.DailyBudget(state, claude.UseNight, 40).TakeN(now.AddDate(0, 0, -1), 5) // yesterday's
	env := map[string]string{"HOME": home, "CEREBRO_STATE_DIR": state, "PATH": os.Getenv("PATH")}
	var out bytes.Buffer
	Main([]string{"doctor", "--project", proj}, factory.System{
		In: strings.NewReader(""), Out: &out, Err: &out,
		Getenv: func(k string) string { return env[k] }, Environ: func() []string { return envList(env) },
		Now: func() time.Time { return now },
	})
	for _, want := range []string{
		"ok    claude distiller: 3 of 20 model calls spent today (distiller.daily_budget)",
		"ok    extreme recall: 0 of 30 model calls spent today (recall.extreme_daily_calls)",
		"warn  skill evolution: 2 of 2 model calls spent today (evolution.daily_budget)",
		"hint: the budget renews tomorrow; raise evolution.daily_budget in",
		"ok    night: 0 of 40 model calls spent today (night.max_calls)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor lacks %q:\n%s", want, out.String())
		}
	}
}
