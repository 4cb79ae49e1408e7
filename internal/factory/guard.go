package factory

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
)

// shownFindings is how many redactions a warning names one by one.
const shownFindings = 20

// KeepSecretsOut applies the secret guard of the project around dir
// (short.scan_secrets, on by default) to content a command is about to
// write into long-term memory from a file or stdin — a page, a compiled
// truth, a relearned artifact — as the flush does to a daily file: each
// secret or piece of personal data becomes [REDACTED:kind], and a warning
// names each by place and kind, never its value. Binary content cannot be
// redacted: one whose printable text holds a finding is refused.
func (f *Factory) KeepSecretsOut(dir, name string, data []byte) ([]byte, error) {
	root, err := f.ProjectRoot(dir)
	if err != nil {
		root = ""
	}
	if !f.Config(root).Short.ScanSecrets {
		return data, nil
	}
	if name == "-" {
		name = "stdin"
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		if err := rawfile.ScreenBinary(name, bytes.NewReader(data), int64(len(data)), true); err != nil {
			return nil, fmt.Errorf("%w (short.scan_secrets)", err)
		}
		return data, nil
	}
	out, found := rawfile.Redact(name, data)
	if len(found) > 0 {
		var shown []string
		for _, l := range found[:min(len(found), shownFindings)] {
			shown = append(shown, l.String())
		}
		if n := len(found) - len(shown); n > 0 {
			shown = append(shown, fmt.Sprintf("and %d more", n))
		}
		f.Warn(fmt.Sprintf("redacted %d secret(s) or personal data before writing them into memory (short.scan_secrets):\n  %s", len(found), strings.Join(shown, "\n  ")))
	}
	return out, nil
}
