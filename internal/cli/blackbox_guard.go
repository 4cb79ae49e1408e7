package cli

import (
	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/shortterm"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// nestedGuard is the secret guard a recall's answer passes when the
// reader is cerebro's own model call (the research walk's answering call
// runs `memhook recall` as its only way to read memory): what it prints
// goes to the model as a tool result, past the guard its prompt passed.
// Outside a nested call it is nil: the person's own session reads what
// its own tools may read anyway.
func (f *Factory) nestedGuard(dir string) func(string) string {
	if f.Getenv(claude.NestedEnv) == "" && !claude.Nested(f.Environ()) {
		return nil
	}
	root, err := f.projectRoot(dir)
	if err != nil {
		return secrets.Redacted
	}
	eff := f.Config(root)
	return shortterm.PromptGuard(eff)
}
