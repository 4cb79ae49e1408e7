package cli

// noteBytes is the limits.note_bytes of the project at root ("" for the
// desk's own settings), for the reads of that project's notes: each project
// of a night --all or flush --pending keeps its own. Settings that cannot
// be loaded give the default (0); the command that needs them reports the
// error where it loads them.
func (f *Factory) noteBytes(root string) int64 {
	eff, err := f.Config(root)
	if err != nil {
		return 0
	}
	return eff.Limits.NoteBytes
}
