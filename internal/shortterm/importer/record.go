package importer

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Record is what the last import that wrote did, kept in the state dir
// for `memhook doctor`.
type Record struct {
	Time     time.Time `json:"time"`
	Projects int       `json:"projects"`
	Sessions int       `json:"sessions"` // replayed by that run
	Sections int       `json:"sections"`
}

// RecordPath is where the record lives in the state dir.
func RecordPath(state string) string { return filepath.Join(state, "import.json") }

// ReadRecord reads the record of the last import; false when there is
// none (or it does not read).
func ReadRecord(state string) (Record, bool) {
	var r Record
	data, err := safefs.ReadFile(RecordPath(state), 1<<16)
	if err != nil || json.Unmarshal(data, &r) != nil {
		return Record{}, false
	}
	return r, true
}

// writeRecord keeps what a run that replayed sessions did.
func writeRecord(path string, rep *Report, now time.Time) error {
	r := Record{Time: now}
	for _, p := range rep.Projects {
		if p.Replayed > 0 {
			r.Projects++
		}
	}
	_, r.Sessions, r.Sections, _ = rep.Totals()
	if r.Sessions == 0 {
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("keep the import's record: %w", err)
	}
	return nil
}
