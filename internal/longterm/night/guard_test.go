package night

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// A model that repeats a secret in its answer (a digest quoting an older
// note) hands the night the answer with the secret redacted, its JSON
// still whole: nothing the night caches or writes holds it.
func TestModelAnswerPassesTheGuard(t *testing.T) {
	token := "ghp_R8kT2mW5qZ9xV3bN7cL1pH4sF6gJ0dYaE2uI"
	pw := "Wq7rT2zX9kLm4Np"
	answer := `Here: {"digest": "### Learned\n- push with ` + token + `\n- db at postgres://app:` + pw + `@db/app", "facts": [], "cards": []}`
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(answer)
	bin := filepath.Join(t.TempDir(), "claude")
	script := "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"" + esc + "\",\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := Claude{Runner: claude.Runner{Command: bin, Timeout: 20 * time.Second, Env: os.Environ(), Guard: secrets.Redacted}}
	a, err := c.Ask(t.Context(), "cerebro night: compile one day")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Text, token) || strings.Contains(a.Text, pw) {
		t.Fatalf("the answer keeps a secret: %s", a.Text)
	}
	var d dayAnswer
	if err := parseAnswer(a.Text, &d); err != nil || !strings.Contains(d.Digest, "[REDACTED:github-token]") || !strings.Contains(d.Digest, "push with") {
		t.Fatalf("the guarded answer: %v %+v\n%s", err, d, a.Text)
	}
}
