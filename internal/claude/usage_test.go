//go:build unix

package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The stand-ins below print what `claude -p --output-format json` prints
// (one result object), or the ways it goes wrong.
const (
	resultWithUsage = `{"type":"result","subtype":"success","is_error":false,"result":"the answer","session_id":"s","usage":{"input_tokens":1200,"cache_creation_input_tokens":300,"cache_read_input_tokens":50,"output_tokens":80,"service_tier":"standard"}}`
	resultNoUsage   = `{"type":"result","subtype":"success","is_error":false,"result":"the answer","session_id":"s"}`
	resultHalfUsage = `{"type":"result","subtype":"success","is_error":false,"result":"the answer","usage":{"input_tokens":1200}}`
	resultTextUsage = `{"type":"result","subtype":"success","is_error":false,"result":"the answer","usage":{"input_tokens":"1200","output_tokens":3}}`
	resultError     = `{"type":"result","subtype":"error_during_execution","is_error":true,"result":"API Error: Connection error."}`
)

func TestRunJSONReadsUsage(t *testing.T) {
	dir := t.TempDir()
	bin := standIn(t, `printf '%s\n' "$@" > "`+dir+`/argv"; cat > /dev/null; echo '`+resultWithUsage+`'`)
	res, err := Runner{Command: bin, Guard: Unguarded}.RunJSON(context.Background(), Call{Prompt: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer.Answer != "the answer" || res.UsageErr != nil {
		t.Fatalf("answer %q, usage error %v", res.Answer.Answer, res.UsageErr)
	}
	if res.Usage.InputTokens != 1200 || res.Usage.OutputTokens != 80 || res.Usage.Input() != 1550 {
		t.Fatalf("usage %+v (input %d)", res.Usage, res.Usage.Input())
	}
	argv, _ := os.ReadFile(filepath.Join(dir, "argv"))
	// Run puts "text" first; the later "json" is the one claude obeys.
	if !strings.HasSuffix(string(argv), "--output-format\njson\n") {
		t.Fatalf("argv does not end in --output-format json:\n%s", argv)
	}
}

func TestRunJSONWithoutCompleteUsage(t *testing.T) {
	for name, out := range map[string]string{"omitted": resultNoUsage, "half": resultHalfUsage, "text": resultTextUsage} {
		bin := standIn(t, `cat > /dev/null; echo '`+out+`'`)
		res, err := Runner{Command: bin, Guard: Unguarded}.RunJSON(context.Background(), Call{Prompt: "x"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !errors.Is(res.UsageErr, ErrNoUsage) || res.Answer.Answer != "the answer" {
			t.Fatalf("%s: usage error %v, answer %q", name, res.UsageErr, res.Answer.Answer)
		}
	}
}

func TestRunJSONFailures(t *testing.T) {
	cases := map[string]struct {
		script string
		check  func(error) bool
	}{
		// The stream breaks after half the object: claude dies mid-answer.
		"mid-stream": {`cat > /dev/null; printf '{"type":"result","subtype":"success","result":"the ans'; kill -9 $$`, func(err error) bool { return err != nil }},
		"cut":        {`cat > /dev/null; printf '{"type":"result","subtype":"success","result":"the ans'`, func(err error) bool { return errors.Is(err, ErrBadResult) }},
		"garbage":    {`cat > /dev/null; echo 'Sure! Here is what I found.'`, func(err error) bool { return errors.Is(err, ErrBadResult) }},
		"two":        {`cat > /dev/null; echo '` + resultWithUsage + `'; echo '` + resultWithUsage + `'`, func(err error) bool { return errors.Is(err, ErrBadResult) }},
		"provider": {`cat > /dev/null; echo '` + resultError + `'`, func(err error) bool {
			var pe *ProviderError
			return errors.As(err, &pe) && strings.Contains(err.Error(), "Connection error")
		}},
		"exit": {`cat > /dev/null; echo 'overloaded' >&2; exit 1`, func(err error) bool { return err != nil && strings.Contains(err.Error(), "overloaded") }},
	}
	for name, c := range cases {
		bin := standIn(t, c.script)
		_, err := Runner{Command: bin, Guard: Unguarded}.RunJSON(context.Background(), Call{Prompt: "x"})
		if !c.check(err) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
