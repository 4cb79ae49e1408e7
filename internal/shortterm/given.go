package shortterm

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/capture"
	"github.com/cerebro-mem/cerebro/internal/shortterm/inject"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// What a session was handed by SessionStart is remembered so that a
// resume does not hand it again: one key per section (inject.SectionKey)
// a line, in <session>.given beside its state.
const (
	// maxGiven bounds the keys kept, newest last: a key per section,
	// session line and open item of the week inject reads, which a week of
	// sessions stays well under; older keys can never matter again.
	maxGiven = 2048
	// givenBytes bounds the read; the file is ours, but a torn or foreign
	// one must not cost a SessionStart more than this.
	givenBytes = 256 << 10
)

func givenPath(x *capture.Session) string { return filepath.Join(x.Dir(), x.ID+".given") }

// given is the set of sections the session was handed before. A missing
// or unreadable file is an empty set: at worst a section is handed twice.
func given(x *capture.Session) map[string]bool {
	keys := givenKeys(x)
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	return set
}

func givenKeys(x *capture.Session) []string {
	data, err := safefs.ReadFile(givenPath(x), givenBytes)
	if err != nil {
		return nil
	}
	var keys []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); inject.ValidKey(l) {
			keys = append(keys, l)
		}
	}
	return keys
}

// addGiven adds keys to the session's set, keeping the newest [maxGiven].
func addGiven(x *capture.Session, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	old := givenKeys(x)
	seen := make(map[string]bool, len(old)+len(keys))
	var all []string
	add := func(list []string) {
		for _, k := range list {
			if inject.ValidKey(k) && !seen[k] {
				seen[k] = true
				all = append(all, k)
			}
		}
	}
	add(old)
	had := len(all)
	if add(keys); len(all) == had {
		return nil
	}
	if len(all) > maxGiven {
		all = all[len(all)-maxGiven:]
	}
	// Losing it to a power cut costs a section handed twice: no fsync.
	err := atomicfile.ReplaceUnsynced(givenPath(x), []byte(strings.Join(all, "\n")+"\n"), 0o600)
	if err != nil {
		return fmt.Errorf("remember injected sections: %w", err)
	}
	return nil
}
