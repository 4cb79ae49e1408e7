package hook

import (
	"fmt"
	"strings"
	"time"
)

// NowEnv sets the clock of memhook and memhook-hot: a time (RFC 3339, or
// local "2006-01-02T15:04[:05]", or a date, which means its noon) from
// which the process's clock runs. Tests and benchmarks replay a week of
// sessions with it without renaming a file; in real use it is unset. It is
// read here, by the frame of both binaries, and nowhere else: every other
// package gets the clock it is handed.
const NowEnv = "CEREBRO_NOW"

var nowLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}

// Clock is the process's clock: base when [NowEnv] is unset or empty,
// else the time it names plus the time elapsed on base since Clock was
// called (durations and deadlines stay real). A value it cannot read
// gives base and an error saying so; the caller warns and goes on.
func Clock(getenv func(string) string, base func() time.Time) (func() time.Time, error) {
	v := strings.TrimSpace(getenv(NowEnv))
	if v == "" {
		return base, nil
	}
	at, err := parseNow(v)
	if err != nil {
		return base, err
	}
	start := base()
	return func() time.Time { return at.Add(base().Sub(start)) }, nil
}

func parseNow(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.Local(), nil
	}
	for _, l := range nowLayouts {
		if t, err := time.ParseInLocation(l, v, time.Local); err == nil {
			return t, nil
		}
	}
	if d, err := time.ParseInLocation(time.DateOnly, v, time.Local); err == nil {
		return d.Add(12 * time.Hour), nil
	}
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return time.Time{}, fmt.Errorf("read the clock: %s=%q is not a time (want RFC 3339, 2006-01-02T15:04 or 2006-01-02); the real clock is used", NowEnv, v)
}
