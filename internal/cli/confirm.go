package cli

import (
	"errors"
	"io"
	"os"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/mattn/go-isatty"
)

// stdinIsTerminal reports whether in is a terminal, where a person can
// answer a question.
func stdinIsTerminal(in io.Reader) bool {
	fh, ok := in.(*os.File)
	return ok && (isatty.IsTerminal(fh.Fd()) || isatty.IsCygwinTerminal(fh.Fd()))
}

// personOnly refuses an action only a person may confirm wherever a model
// may be the one typing: where notModel refuses, or without a terminal on
// stdin. what names the command for the error.
func personOnly(f *factory.Factory, what string, terminal bool) error {
	if err := notModel(f, what); err != nil {
		return err
	}
	if !terminal {
		return hint.Wrap(errors.New(what+": refused without a terminal: a person must confirm"), personHint)
	}
	return nil
}

// notModel refuses an action no model may take: inside Claude Code
// (CLAUDECODE is set in the shells it starts) or inside cerebro's own
// claude -p.
func notModel(f *factory.Factory, what string) error {
	switch {
	case f.Getenv("CLAUDECODE") != "":
		return hint.Wrap(errors.New(what+": refused inside Claude Code (CLAUDECODE is set): a person must confirm"), personHint)
	case f.Nested():
		return hint.Wrap(errors.New(what+": refused inside a nested model call"), personHint)
	}
	return nil
}

const personHint = "run it yourself, in a terminal outside Claude Code"
