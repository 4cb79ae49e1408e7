package schedule

import (
	"fmt"

	"github.com/cerebro-mem/cerebro/internal/config"
)

// NightTime is the time of day the daily entry runs the night, and where
// it comes from: night.time (04:00, the seed's night), or, for a user who
// set only the older rollup.hour, that hour.
func NightTime(eff *config.Effective) (string, string) {
	if eff.Source("night.time") == config.SourceDefault && eff.Source("rollup.hour") != config.SourceDefault {
		return fmt.Sprintf("%02d:00", eff.Rollup.Hour), "rollup.hour (" + eff.Source("rollup.hour") + "; night.time replaces it)"
	}
	src := eff.Source("night.time")
	if src == config.SourceDefault {
		src = "night.time, default"
	} else {
		src = "night.time, " + src
	}
	return eff.Night.Time, src
}
