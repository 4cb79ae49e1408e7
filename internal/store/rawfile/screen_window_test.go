package rawfile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// The windowed scan finds what a scan of the whole text finds, at the same
// lines and offsets, secrets straddling a window's end included, and the
// one-pass redaction equals secrets.Redact.
func TestScanWindowsEqualsAWholeScan(t *testing.T) {
	filler := strings.Repeat("We ship on Tuesdays after the freeze and the review.\n", 1000)
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MzQ1\n-----END RSA PRIVATE KEY-----\n"
	var b strings.Builder
	for b.Len() < 3*screenWindow {
		b.WriteString(filler)
		b.WriteString("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n")
		b.WriteString("contact: ivan.petrov@example.com\n")
	}
	// A key block right across the first window's end.
	text := b.String()
	cut := strings.LastIndexByte(text[:screenWindow], '\n') + 1 - 40
	text = text[:cut] + key + text[cut:]
	whole := secrets.Scan(text)
	got := scanWindows([]byte(text))
	if len(whole) == 0 || len(got) != len(whole) {
		t.Fatalf("windowed scan found %d, whole scan %d", len(got), len(whole))
	}
	for i := range whole {
		if got[i].Start != whole[i].Start || got[i].End != whole[i].End || got[i].Line != whole[i].Line || got[i].Kind != whole[i].Kind {
			t.Fatalf("finding %d: %+v, whole scan %+v", i, got[i], whole[i])
		}
	}
	if string(redactBytes([]byte(text), got)) != secrets.Redact(text, whole) {
		t.Fatal("the one-pass redaction differs from secrets.Redact")
	}
}

// ScreenFile reads the source window by window and gives what ScreenText
// gives: the same refusal, the same redacted text.
func TestScreenFileEqualsScreenText(t *testing.T) {
	var b strings.Builder
	for b.Len() < 2*screenWindow+12345 {
		b.WriteString(strings.Repeat("We ship on Tuesdays after the freeze and the review.\n", 700))
		b.WriteString("password = hunter2hunter2-long-enough\n")
		b.WriteString("contact: ivan.petrov@example.com\n")
	}
	text := []byte(b.String())
	want, wantN, err := ScreenText("x.md", text, true)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	n, err := ScreenFile("x.md", bytes.NewReader(text), int64(len(text)), true, &out)
	if err != nil || n != wantN || !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("ScreenFile: %d findings (want %d), %d bytes (want %d), equal %v, err %v", n, wantN, out.Len(), len(want), bytes.Equal(out.Bytes(), want), err)
	}
	_, _, refused := ScreenText("x.md", text, false)
	_, refusedFile := ScreenFile("x.md", bytes.NewReader(text), int64(len(text)), false, nil)
	if refused == nil || refusedFile == nil || refused.Error() != refusedFile.Error() {
		t.Fatalf("refusals differ:\n%v\n%v", refused, refusedFile)
	}
	clean := []byte(strings.Repeat("Nothing to hide here.\n", 1000))
	if n, err := ScreenFile("c.md", bytes.NewReader(clean), int64(len(clean)), true, &out); n != 0 || err != nil {
		t.Fatalf("clean text: %d %v", n, err)
	}
}
