package longterm

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSwitchSaysWhatItDid: long on's report names what it created and
// the history, long status follows the memory from absent to on to off,
// and its JSON keeps the keys scripts read.
func TestSwitchSaysWhatItDid(t *testing.T) {
	s := New(t.TempDir())
	reg := filepath.Join(t.TempDir(), "registry.json")
	status := func() (*ProjectStatus, string) {
		t.Helper()
		ps, err := s.ProjectStatus(reg)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		ps.WriteText(&b)
		return ps, b.String()
	}
	if ps, text := status(); ps.Registered || !strings.Contains(text, "state:       absent") || !strings.Contains(text, "run `memhook long on`") {
		t.Fatalf("before long on:\n%s", text)
	}
	rep, err := s.TurnOn(reg, func() (*History, error) { return s.History(GitAuto, now) }, now)
	if err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	rep.WriteText(&out, &warn, s.Dir, reg)
	if !strings.Contains(out.String(), "created: ") || !strings.Contains(out.String(), "history: every change memhook makes is a commit in") || warn.Len() != 0 {
		t.Fatalf("long on said:\n%s\nwarned: %s", out.String(), warn.String())
	}
	ps, text := status()
	if !ps.Registered || !strings.Contains(text, "state:       on") || !strings.Contains(text, "plan-fact:   valid") {
		t.Fatalf("after long on:\n%s", text)
	}
	js, _ := json.Marshal(ps)
	for _, key := range []string{`"id":`, `"project":`, `"registered":true`, `"registry_error":""`, `"status":{`} {
		if !bytes.Contains(js, []byte(key)) {
			t.Errorf("status JSON lacks %s: %s", key, js)
		}
	}
	found, err := s.TurnOff(reg, now)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	s.WriteOff(&out, found)
	if !strings.Contains(out.String(), "unregistered from the org desk") {
		t.Errorf("long off said:\n%s", out.String())
	}
	if _, text := status(); !strings.Contains(text, "state:       off (files kept)") {
		t.Errorf("after long off:\n%s", text)
	}
}
