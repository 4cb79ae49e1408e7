package orgvault

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenOrCreateAnnouncesOnce: the first use lays the vault out and
// says so on the announce stream; the second opens it silently; init's
// report then says nothing changed, and a question with no answer says
// so.
func TestOpenOrCreateAnnouncesOnce(t *testing.T) {
	root := filepath.Join(t.TempDir(), "desk")
	var announce bytes.Buffer
	v, err := OpenOrCreate(root, now, &announce)
	if err != nil || v == nil {
		t.Fatalf("first use: %v", err)
	}
	if !strings.HasPrefix(announce.String(), "memhook: created the org vault at "+root+" on first use (") {
		t.Errorf("announced %q", announce.String())
	}
	announce.Reset()
	if _, err := OpenOrCreate(root, now, &announce); err != nil || announce.Len() != 0 {
		t.Errorf("second use: %v, announced %q", err, announce.String())
	}
	res, err := Init(root, now)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	res.WriteText(&b)
	if b.String() != "org vault at "+root+" is already laid out; nothing changed.\n" {
		t.Errorf("init said %q", b.String())
	}
	b.Reset()
	(&Answer{Query: "кошки"}).WriteText(&b, root)
	if b.String() != "No page of the org vault answers \"кошки\".\n" {
		t.Errorf("no answer said %q", b.String())
	}
	if ShortHash("") != "none" || ShortHash("0123456789") != "01234567" {
		t.Error("ShortHash")
	}
}
