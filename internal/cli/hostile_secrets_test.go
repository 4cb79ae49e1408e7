//go:build linux

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The AWS pair and GitHub token planted in file arguments.
const (
	plantedAWSKeyID  = "AKIAZ7QWX3RT5YV2NB4K"
	plantedAWSSecret = "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"
	plantedGitHub    = "ghp_R8kT2mW5qZ9xV3bN7cL1pH4sF6gJ0dYaE2uI"
)

func plantedSecrets() string {
	return "aws_access_key_id = " + plantedAWSKeyID + "\naws_secret_access_key = " + plantedAWSSecret + "\ngithub token: " + plantedGitHub + "\n"
}

// wiki write --from, truth set --from and relearn --artifact of a file
// holding an AWS secret and a GitHub token: each command returns within
// the suite's hang bound and in bounded memory, the text reaches memory
// with each secret replaced by its marker, the command names what it
// redacted (never the value), and no file of long-term memory, the index
// or the state dir holds a secret afterwards. A 2 MB artifact with the
// secrets spread through it is relearned the same way.
func TestHostileFileArgumentsKeepSecretsOut(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	page := filepath.Join(h.outside, "deploy.md")
	os.WriteFile(page, []byte("# Deploy\n\nThe deploy uses these keys:\n\n"+plantedSecrets()), 0o644)
	var big strings.Builder
	for i := 0; big.Len() < 2<<20; i++ {
		fmt.Fprintf(&big, "%06d the nightly deploy of the billing service finished without errors\n", i)
		if i%5000 == 0 {
			big.WriteString(plantedSecrets())
		}
	}
	truth := filepath.Join(h.outside, "truth.md")
	os.WriteFile(truth, []byte("The deploy uses these keys:\n\n"+plantedSecrets()), 0o644)
	artifact := filepath.Join(h.outside, "deploy-log.md")
	os.WriteFile(artifact, []byte(big.String()), 0o644)

	out, errOut, code := h.exec(t, "", "wiki", "write", "--project", h.proj, "--from", page, "wiki/Deploy.md")
	if code != 0 || !strings.Contains(errOut, "redacted 3 secret(s)") || !strings.Contains(errOut, "aws-secret") {
		t.Fatalf("wiki write: exit %d\n%s%s", code, out, errOut)
	}
	written := readFile(t, filepath.Join(h.proj, ".claude", "memory_long", "wiki", "Deploy.md"))
	if !strings.Contains(written, "[REDACTED:aws-secret") || !strings.Contains(written, "The deploy uses these keys") {
		t.Errorf("the page as written:\n%s", written)
	}
	hash, errOut, code := h.exec(t, "", "truth", "hash", "--project", h.proj, "wiki/Deploy.md")
	if code != 0 {
		t.Fatalf("truth hash: %s", errOut)
	}
	if out, errOut, code := h.exec(t, "", "truth", "set", "--project", h.proj, "--from", truth, "--expect-hash", strings.TrimSpace(hash), "wiki/Deploy.md"); code != 0 || !strings.Contains(errOut, "redacted 3") {
		t.Fatalf("truth set: exit %d\n%s%s", code, out, errOut)
	}
	for _, a := range []string{page, artifact} {
		out, errOut, code := h.exec(t, "", "relearn", "--project", h.proj, "--artifact", a, "--summary", "deploy keys "+plantedAWSKeyID, "--about", "Deploy")
		if code != 0 || !strings.Contains(errOut, "redacted") || strings.Contains(out+errOut, plantedAWSSecret) {
			t.Fatalf("relearn %s: exit %d\n%s%s", a, code, out, errOut)
		}
	}
	h.exec(t, "", "index", "--project", h.proj)
	for _, dir := range []string{filepath.Join(h.proj, ".claude"), h.env["CEREBRO_STATE_DIR"]} {
		for _, s := range []string{plantedAWSSecret, plantedAWSKeyID, plantedGitHub} {
			if got := holds(t, dir, s); len(got) > 0 {
				t.Errorf("%s is kept in clear in %v", s[:8], got)
			}
		}
	}
	if out, _, _ := h.exec(t, "", "search", "--project", h.proj, "deploy keys"); !strings.Contains(out, "REDACTED") {
		t.Errorf("the redacted page is not found:\n%s", out)
	}
}
