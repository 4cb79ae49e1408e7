package secrets

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGuardValueRedactsEveryString: every string of an answer object, keys
// included, passes the guard; numbers stay numbers, and the result still
// encodes as one valid JSON object.
func TestGuardValueRedactsEveryString(t *testing.T) {
	key := "AKIAIOSFODNN7QWERTYU"
	in := map[string]any{
		"items": []any{map[string]any{"text": "the key is " + key, "score": 0.75}},
		key:     "as a key",
		"count": 12345678901234,
	}
	out, err := GuardValue(in, Redacted)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(out)
	if err != nil || !json.Valid(data) {
		t.Fatalf("not one JSON value: %s %v", data, err)
	}
	s := string(data)
	if strings.Contains(s, key) {
		t.Errorf("the secret passed the guard: %s", s)
	}
	if !strings.Contains(s, "[REDACTED:") || !strings.Contains(s, `"score":0.75`) || !strings.Contains(s, `"count":12345678901234`) {
		t.Errorf("guarded answer %s", s)
	}
}
