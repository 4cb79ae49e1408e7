package evolve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ErrNoInstruction means the project has no memory instruction file.
var ErrNoInstruction = errors.New("no memory skill found")

// ResetInstruction restores the project's instruction files from the
// reference, each in one commit, taking the reference first when none was
// taken yet.
func (p Project) ResetInstruction(now time.Time) ([]Restored, error) {
	files := p.InstructionFiles()
	if len(files) == 0 {
		return nil, fmt.Errorf("instruction reset: %w", ErrNoInstruction)
	}
	if _, err := p.Reference.EnsureInitial(files, now); err != nil {
		return nil, fmt.Errorf("instruction reset: %w", err)
	}
	done, err := p.Reference.Reset(files, now)
	if err != nil {
		return nil, fmt.Errorf("instruction reset: %w", err)
	}
	return done, nil
}

// WriteRestored prints what a reset did, one line a file.
func WriteRestored(w io.Writer, done []Restored) {
	for _, d := range done {
		switch {
		case d.Commit != "":
			fmt.Fprintf(w, "restored %s (commit %.12s)\n", d.File, d.Commit)
		case d.Changed:
			fmt.Fprintf(w, "restored %s\n", d.File)
		default:
			fmt.Fprintf(w, "%s already is the reference\n", d.File)
		}
	}
}

// SetReferenceAsking makes from (a file a person named; "" for the
// instruction in use, the evolving copy when there is one) the reference
// once the person types yes on in. Only a person may call it: the caller
// refuses wherever a model may be the one typing.
func (p Project) SetReferenceAsking(in io.Reader, out io.Writer, from string, now time.Time) error {
	src := from
	if src == "" {
		files := p.InstructionFiles()
		if len(files) == 0 {
			return fmt.Errorf("instruction set-reference: %w", ErrNoInstruction)
		}
		src = files[len(files)-1]
	} else if _, err := safefs.ArgumentPath(from); err != nil {
		return fmt.Errorf("instruction set-reference: read %s: %w", src, err)
	}
	data, err := ReadSkill(src)
	if err != nil {
		return fmt.Errorf("instruction set-reference: read %s: %w", src, err)
	}
	fmt.Fprintf(out, "The reference is what `memhook instruction reset` restores. Make %s (%d bytes) the new reference?\nType yes to confirm: ", src, len(data))
	sc := bufio.NewScanner(in)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "yes" {
		return errors.New("instruction set-reference: not confirmed; the reference is unchanged")
	}
	m, err := p.Reference.Set(map[string][]byte{InstructionName: data}, src, now)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "reference set from %s (sha256 %.16s…)\n", src, m.Files[0].SHA256)
	return nil
}
