package gitrepo

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// SyncRecord is the last sync of a repository with its remote, kept in a
// small file beside it so doctor and the dashboard can say where it
// stands without touching the network.
type SyncRecord struct {
	Time      time.Time `json:"time"`
	URL       string    `json:"url"` // never with a password (see CheckURL)
	State     string    `json:"state"`
	Branch    string    `json:"branch,omitempty"`
	Head      string    `json:"head,omitempty"`
	Conflicts []string  `json:"conflicts,omitempty"`
	Blocked   []string  `json:"blocked,omitempty"`
	Refused   []string  `json:"refused,omitempty"` // files of the history never taken here ([Kind])
	Error     string    `json:"error,omitempty"`   // the sync failed before it could tell
	Command   string    `json:"command"`           // what syncs it on demand
}

// Troubled reports whether the record needs a person: diverged, blocked
// or failed.
func (s *SyncRecord) Troubled() bool {
	return s != nil && (s.State == SyncDiverged || s.State == SyncBlocked || s.Error != "")
}

// Record makes the record of a sync's result or error.
func Record(res *SyncResult, err error, url, command string, now time.Time) *SyncRecord {
	rec := &SyncRecord{Time: now, URL: redactURL(url), Command: command}
	if err != nil {
		rec.State, rec.Error = "failed", err.Error()
		return rec
	}
	rec.State, rec.Branch, rec.Head, rec.Conflicts, rec.Blocked, rec.Refused = res.State, res.Branch, res.Head, res.Conflicts, res.Blocked, res.Refused
	return rec
}

// WriteSyncRecord keeps rec at path.
func WriteSyncRecord(path string, rec *SyncRecord) error {
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("keep the sync record: %w", err)
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	if err := atomicfile.Write(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("keep the sync record: %w", err)
	}
	return nil
}

// ReadSyncRecord reads the record at path; nil when there is none or it
// cannot be read (bounded, never through a link: it sits in a repository).
func ReadSyncRecord(path string) *SyncRecord {
	data, err := safefs.ReadFile(path, 64<<10)
	if err != nil {
		return nil
	}
	var rec SyncRecord
	if json.Unmarshal(data, &rec) != nil {
		return nil
	}
	return &rec
}
