package capture

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// UnrecordedDir holds a marker per session whose state could not be
// written (a full or broken state dir): the marker goes into the project,
// which is often on another disk, so the next SessionStart can still
// recover the session from its transcript.
func UnrecordedDir(root string) string {
	return filepath.Join(root, ".claude", ".cerebro", "unrecorded")
}

// Unrecorded leaves the marker for a session whose capture failed and
// returns the capture's error for the log.
func Unrecorded(root, sessionID, transcriptPath string, captureErr error) error {
	if transcriptPath == "" || sessionID == "" || strings.ContainsAny(sessionID, `/\`) {
		return captureErr
	}
	dir := UnrecordedDir(root)
	err := safefs.MkdirAll(dir)
	if err == nil {
		err = atomicfile.Write(filepath.Join(dir, sessionID), []byte(transcriptPath+"\n"), 0o600)
	}
	if err != nil {
		return errors.Join(captureErr, fmt.Errorf("leave recovery marker: %w", err))
	}
	return captureErr
}
