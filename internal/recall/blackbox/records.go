package blackbox

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Folders under the long-term memory root this package writes.
const (
	RecordsDir = "records" // remembered text, one file per month
	DenialsDir = "denials" // rejected inferences (never searched as answers)
	RelearnDir = "wiki/relearned"
	ObjectsDir = "raw/objects" // artifacts are sources: the wiki loader and lint leave raw/ alone
	TablesDir  = "tables"
)

// GeneratedFiles are the long-term memory's generated lists and contracts;
// level 2 leaves them out because they name everything and state nothing.
var GeneratedFiles = []string{"index.md", "log.md", "SCHEMA.md"}

func markerAttrs(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		fmt.Fprintf(&b, " %s=%s", kv[i], url.QueryEscape(kv[i+1]))
	}
	return b.String()
}

// appendSection appends a Markdown section to path under its lock, writing
// head first when the file is new.
func appendSection(path, head, section string) error {
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return atomicfile.WithLock(path, func() error {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			section = head + section
		}
		return atomicfile.AppendUnlocked(path, []byte(section), 0o644)
	})
}

// writeRecord appends remembered text to the month's records file and
// returns its id and path relative to the long-term root.
func writeRecord(longDir, text string, sc Scope, now time.Time) (id, rel string, err error) {
	id = shortHash("r-", text, sc.Calendar, sc.Geo, now.UTC().Format(time.RFC3339Nano))
	month := now.Format("2006-01")
	rel = RecordsDir + "/" + month + ".md"
	head := fmt.Sprintf("---\ntype: records\nmonth: %s\n---\n\n# Remembered in %s\n", month, month)
	scope := ""
	if sc.Calendar != "" || sc.Geo != "" {
		scope = fmt.Sprintf("\n_scope: calendar %s · geo %s_\n", orUnknown(sc.Calendar), orUnknown(sc.Geo))
	}
	section := fmt.Sprintf("\n## %s · %s\n<!-- cerebro:record%s -->\n%s\n%s", now.Format("2006-01-02 15:04"), id,
		markerAttrs("id", id, "calendar", sc.Calendar, "geo", sc.Geo), strings.TrimSpace(text), scope)
	if err := appendSection(filepath.Join(longDir, filepath.FromSlash(rel)), head, section); err != nil {
		return "", "", fmt.Errorf("write record to %s: %w", rel, err)
	}
	return id, rel, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
