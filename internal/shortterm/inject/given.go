package inject

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

// Given is what a session was already handed, so that a resume hands it
// only what it has not seen. Build reads Had and fills Gave.
type Given struct {
	// Had are the keys of what the session was given before (see Gave):
	// it is left out.
	Had map[string]bool
	// Gave are the keys of what this Build injected — sections whole
	// (their [SectionKey]), sessions as lines ("line:" and the key), open
	// items, roll-up, CORE and plan-fact by their text — for the caller
	// to remember.
	Gave []string
}

// maxKey bounds a key: a daily file is the repository's, and its marker
// may hold anything.
const maxKey = 160

// SectionKey names a daily section across injects: "<session>#<seq>" from
// its segment marker, which stays the same when the section's text is
// edited; a section without a usable marker is named by its text's hash.
// Sections are numbered from 1, so a marker without its seq is not usable.
func SectionKey(sec daily.Entry) string {
	if sec.Marked && sec.Seq > 0 {
		if k := sec.SessionID + "#" + strconv.Itoa(sec.Seq); sec.SessionID != "" && ValidKey(k) {
			return k
		}
	}
	sum := sha256.Sum256([]byte(sec.Raw))
	return "sha256:" + hex.EncodeToString(sum[:12])
}

// ValidKey reports whether k is a key [SectionKey] can make: bounded, one
// line of plain characters.
func ValidKey(k string) bool {
	if k == "" || len(k) > maxKey {
		return false
	}
	for _, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '-' || r == '_' || r == '.' || r == '#' || r == ':':
		default:
			return false
		}
	}
	return true
}
