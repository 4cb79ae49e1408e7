package runrec

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestBashToolNamesTheVerbByItsWords(t *testing.T) {
	cases := map[string]string{
		"memhook recall deploy key": "Bash(memhook recall)",
		`"${CLAUDE_PLUGIN_ROOT}/scripts/memhook" remember blue --table hosts`: "Bash(memhook remember)",
		"/opt/cerebro/bin/memhook.exe verdict r1 good":                        "Bash(memhook verdict)",
		"cd /x && memhook --project . graph ask who":                          "Bash(memhook graph)",
		`"$P/memhook" slash --state-dir "$D" relearn <<'EOF'`:                 "Bash(memhook relearn)",
		// The bug the substring test had: a verb among the arguments.
		"memhook remember we should recall X": "Bash(memhook remember)",
		"memhook search the recall path":      "Bash",
		"memhook doctor":                      "Bash",
		"echo recall remember":                "Bash",
		"ls memhooks/ && grep recall x":       "Bash",
		"":                                    "Bash",
	}
	for cmd, want := range cases {
		if got := BashTool(cmd); got != want {
			t.Errorf("BashTool(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestTurnMarkerRoundTripAndStaleness(t *testing.T) {
	p := filepath.Join(t.TempDir(), "turns", "s1")
	if id, _, open := ReadTurnMarker(p, t0); id != "" || open {
		t.Fatalf("a missing marker reads as %q open=%v", id, open)
	}
	if err := WriteTurnMarker(p, "r1", t0); err != nil {
		t.Fatal(err)
	}
	id, start, open := ReadTurnMarker(p, t0.Add(time.Minute))
	if id != "r1" || !start.Equal(t0) || !open {
		t.Fatalf("read back %q %v open=%v", id, start, open)
	}
	if id, _, open := ReadTurnMarker(p, t0.Add(StaleTurn)); id != "r1" || open {
		t.Errorf("a turn an hour old: %q open=%v, want the id and closed", id, open)
	}
	os.WriteFile(p, []byte("r1 notanumber"), 0o600)
	if id, _, _ := ReadTurnMarker(p, t0); id != "" {
		t.Errorf("a broken marker reads as %q", id)
	}
}
