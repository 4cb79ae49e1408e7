package claudeperm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Record is what install added to one settings file, kept beside
// cerebro's own settings so that remove takes out those rules only: a
// rule the person had before install is theirs.
type Record struct {
	Settings string   `json:"settings"`
	Added    []string `json:"added"`
}

// ReadRecords reads the records at path; none when it is missing.
func ReadRecords(path string) ([]Record, error) {
	data, err := safefs.ReadFile(path, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var recs []Record
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// WriteRecords replaces the records at path, dropping those that hold no
// rule; with none left the file goes.
func WriteRecords(path string, recs []Record) error {
	recs = slices.DeleteFunc(recs, func(r Record) bool { return len(r.Added) == 0 })
	if len(recs) == 0 {
		return safefs.Remove(path)
	}
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o600)
}
