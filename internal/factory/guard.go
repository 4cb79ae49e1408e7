package factory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/text/private"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
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
	if !f.scanSecrets(dir) {
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
	f.warnRedacted(found)
	return out, nil
}

// KeepSecretsOutOfRequest is the guard of a remember or recall request
// before anything keeps it — the record, the tables' journal and cache,
// the index, the run record, and so the night and the sync that read
// them: what the person marked <private> is withheld, and every string of
// the request passes the scan a daily file passes (KeepSecretsOut's),
// whichever door it came through (the command line, --request, the MCP
// server).
func (f *Factory) KeepSecretsOutOfRequest(dir string, raw blackbox.Raw) (blackbox.Raw, error) {
	scan := f.scanSecrets(dir)
	var found []rawfile.Located
	guarded, err := secrets.GuardValue(raw, func(s string) string {
		s = private.Strip(s)
		if !scan {
			return s
		}
		out, fs := rawfile.Redact("request", []byte(s))
		found = append(found, fs...)
		return string(out)
	})
	if err != nil {
		return nil, fmt.Errorf("guard the request: %w", err)
	}
	data, err := json.Marshal(guarded)
	if err != nil {
		return nil, fmt.Errorf("guard the request: %w", err)
	}
	f.warnRedacted(found)
	return blackbox.DecodeRaw(data)
}

// scanSecrets reports whether the secret guard of dir's project is on.
func (f *Factory) scanSecrets(dir string) bool {
	root, err := f.ProjectRoot(dir)
	if err != nil {
		root = ""
	}
	return f.Config(root).Short.ScanSecrets
}

// warnRedacted names what the guard replaced, by place and kind.
func (f *Factory) warnRedacted(found []rawfile.Located) {
	if len(found) == 0 {
		return
	}
	var shown []string
	for _, l := range found[:min(len(found), shownFindings)] {
		shown = append(shown, l.String())
	}
	if n := len(found) - len(shown); n > 0 {
		shown = append(shown, fmt.Sprintf("and %d more", n))
	}
	f.Warn(fmt.Sprintf("redacted %d secret(s) or personal data before writing them into memory (short.scan_secrets):\n  %s", len(found), strings.Join(shown, "\n  ")))
}
