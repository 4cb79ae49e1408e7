package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

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

// guardObject is v with guard applied to every string in it, keys
// included. It works on the decoded JSON rather than the printed text, so
// a marker never lands inside an escape or a quote and the answer stays
// one valid object.
func guardObject(v any, guard func(string) string) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("guard the answer: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("guard the answer: %w", err)
	}
	return guardTree(tree, guard), nil
}

func guardTree(v any, guard func(string) string) any {
	switch t := v.(type) {
	case string:
		return guard(t)
	case []any:
		for i := range t {
			t[i] = guardTree(t[i], guard)
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[guard(k)] = guardTree(x, guard)
		}
		return out
	}
	return v
}
