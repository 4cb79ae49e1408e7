package cli

import (
	"errors"
	"io"
	"os"

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
func personOnly(getenv func(string) string, nested func() bool, what string, terminal bool) error {
	if err := notModel(getenv, nested, what); err != nil {
		return err
	}
	if !terminal {
		return hint.Wrap(errors.New(what+": refused without a terminal: a person must confirm"), personHint)
	}
	return nil
}

// notModel refuses an action no model may take: inside Claude Code
// (CLAUDECODE is set in the shells it starts) or inside cerebro's own
// claude -p (nested: [factory.Factory.Nested]).
func notModel(getenv func(string) string, nested func() bool, what string) error {
	switch {
	case getenv("CLAUDECODE") != "":
		return hint.Wrap(errors.New(what+": refused inside Claude Code (CLAUDECODE is set): a person must confirm"), personHint)
	case nested():
		return hint.Wrap(errors.New(what+": refused inside a nested model call"), personHint)
	}
	return nil
}

const personHint = "run it yourself, in a terminal outside Claude Code"
