package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// GuardValue is v with guard applied to every string in it, keys
// included. It works on the decoded JSON rather than the printed text, so
// a marker never lands inside an escape or a quote and the answer stays
// one valid object.
func GuardValue(v any, guard func(string) string) (any, error) {
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
