package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// Carry is a journal message written ahead of the transcript.
type Carry struct {
	Key  string    `json:"k"`
	Time time.Time `json:"ts"` // when the hook captured it
}

var (
	commandMessage = lazyregexp.New(`(?s)<command-message>.*?</command-message>`)
	commandName    = lazyregexp.New(`(?s)<command-name>(.*?)</command-name>`)
	commandArgs    = lazyregexp.New(`(?s)<command-args>(.*?)</command-args>`)
)

// MessageKey identifies a message's text independently of how the hook
// input and the transcript each spell it: whitespace is ignored, and a
// slash command's transcript markup counts as the typed command line.
func MessageKey(role, text string) string {
	if role == transcript.RoleUser && strings.Contains(text, "<") && !strings.Contains(text, "<command-name>") {
		// IDE selections and opened files are context, not the prompt:
		// matched without them, a prompt is never written twice.
		text = transcript.CleanUser(text)
	}
	if strings.Contains(text, "<command-name>") {
		name := commandName.FindStringSubmatch(text)
		args := commandArgs.FindStringSubmatch(text)
		t := commandMessage.ReplaceAllString(text, "")
		t = commandName.ReplaceAllString(t, "")
		t = commandArgs.ReplaceAllString(t, "")
		if name != nil {
			t = name[1] + " " + t
		}
		if args != nil {
			t += " " + args[1]
		}
		text = t
	}
	h := sha256.New()
	h.Write([]byte(role))
	h.Write([]byte{0})
	var buf [4]byte
	for _, r := range text {
		if unicode.IsSpace(r) {
			continue
		}
		n := encodeRune(buf[:], r)
		h.Write(buf[:n])
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func encodeRune(b []byte, r rune) int {
	s := string(r)
	return copy(b, s)
}
