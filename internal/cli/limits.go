package cli

import (
	"github.com/cerebro-mem/cerebro/internal/config"
	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
)

// limits are the limits.* settings of the project at root ("" for the
// desk's own settings), for the reads of that project's files: each
// project of a night --all or flush --pending keeps its own, as no limit
// lives in a package variable. Settings that cannot be loaded give the
// defaults; the command that needs them reports the error where it loads
// them.
func (f *Factory) limits(root string) config.Limits {
	eff := f.Config(root)
	return eff.Limits
}

// noteBytes is the limits.note_bytes of the project at root.
func (f *Factory) noteBytes(root string) int64 { return f.limits(root).NoteBytes }

// withLimits gives an opened org vault the desk's limits.
func (f *Factory) withLimits(v *orgvault.Vault, err error) (*orgvault.Vault, error) {
	if v != nil {
		l := f.limits("")
		v.NoteBytes = l.NoteBytes
		v.Repo().BoundFiles(l.IngestBytes)
	}
	return v, err
}
