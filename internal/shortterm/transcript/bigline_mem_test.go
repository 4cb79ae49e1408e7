package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// A prompt, a reply, a tool's input and a tool's result of 15 MB each
// (escapes and accents throughout, under limits.transcript_line_bytes)
// are read in bounded memory: the line is shrunk as it is read, so the
// heap in use grows by less than 32 MB over a 15 MB line (67 MB before),
// and the texts are still read, cut to MaxText.
func TestLongLinesAreShrunkAsRead(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat(`a long line\n with \u00e9 and \"quotes\" ü `, (15<<20)/46)
	lines := map[string]string{
		"prompt":      `{"type":"user","timestamp":"2026-11-30T09:00:00Z","uuid":"u1","message":{"role":"user","content":"` + body + `"}}`,
		"reply":       `{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"` + body + `"}]}}`,
		"tool input":  `{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"notes/x.md","content":"` + body + `"}}]}}`,
		"tool result": `{"type":"user","timestamp":"2026-11-30T09:00:02Z","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"` + body + `"}]}}`,
	}
	for name, l := range lines {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
		after := `{"type":"user","timestamp":"2026-11-30T09:00:03Z","uuid":"u9","message":{"role":"user","content":"and the next prompt"}}`
		os.WriteFile(p, []byte(l+"\n"+after+"\n"), 0o644)
		var items []Item
		var next int64
		peak := testfile.PeakHeap(func() {
			var err error
			if items, next, err = (Reader{}).Read(p, 0, 0); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: peak heap %d MB over the start", name, peak>>20)
		if peak > 32<<20 {
			t.Errorf("%s: a 15 MB line took %d MB of heap", name, peak>>20)
		}
		if fi, _ := os.Stat(p); next != fi.Size() {
			t.Errorf("%s: read to %d of %d bytes", name, next, fi.Size())
		}
		if last := items[len(items)-1]; last.Text != "and the next prompt" {
			t.Errorf("%s: the line after it is lost: %+v", name, last)
		}
		switch name {
		case "prompt", "reply":
			if len(items[0].Text) < MaxText || !strings.HasPrefix(items[0].Text, "a long line\n with é and \"quotes\" ü") {
				t.Errorf("%s: the text is not read: %.80q (%d bytes)", name, items[0].Text, len(items[0].Text))
			}
		case "tool input":
			if len(items[0].Tools) != 1 || !strings.Contains(items[0].Tools[0].Target, "notes/x.md") {
				t.Errorf("the tool call is not read: %+v", items[0].Tools)
			}
		}
	}
}

// The shrinker keeps every string of a line up to keepString bytes, on a
// character and escape boundary, and what it writes is JSON again.
func TestShrinkerCutsStringsOnBoundaries(t *testing.T) {
	for _, tail := range []string{"ü", `\u00e9`, `\"`, `\\`, "€"} {
		for shift := 0; shift < 4; shift++ {
			long := strings.Repeat("x", keepString-shift) + strings.Repeat(tail, 8)
			line := `{"a":"short","b":"` + long + `","c":[1,"two"]}`
			var s shrinker
			for i := 0; i < len(line); i += 4096 {
				s.write([]byte(line[i:min(i+4096, len(line))]))
			}
			if !json.Valid(s.out) {
				t.Fatalf("tail %q shift %d: not JSON: ...%q", tail, shift, s.out[max(0, len(s.out)-80):])
			}
			var v struct {
				A, B string
				C    []any
			}
			json.Unmarshal(s.out, &v)
			if v.A != "short" || len(v.C) != 2 || !strings.HasSuffix(v.B, stringCutMark) || len(v.B) > keepString+len(stringCutMark)+8 {
				t.Errorf("tail %q shift %d: a=%q c=%v b ends %q (%d bytes)", tail, shift, v.A, v.C, v.B[max(0, len(v.B)-40):], len(v.B))
			}
			if s.raw != int64(len(line)) {
				t.Errorf("raw %d, line %d", s.raw, len(line))
			}
		}
	}
}

// An assistant line of 100k tool calls (hostile: Claude Code writes a few
// dozen at most) is read with the first MaxLineTools calls, in bounded
// heap, and the text and the line after it are kept.
func TestWideToolLineIsCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "wide.jsonl")
	var b strings.Builder
	b.WriteString(`{"type":"assistant","timestamp":"2026-11-30T09:00:01Z","message":{"id":"m-wide","role":"assistant","content":[{"type":"text","text":"I read the files one by one."}`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, `,{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"/p/f%d.go"}}`, i, i)
	}
	b.WriteString("]}}\n" + `{"type":"user","timestamp":"2026-11-30T09:00:03Z","uuid":"u9","message":{"role":"user","content":"and the next prompt"}}` + "\n")
	os.WriteFile(p, []byte(b.String()), 0o644)
	b.Reset()
	var items []Item
	peak := testfile.PeakHeap(func() {
		var err error
		if items, _, err = (Reader{}).Read(p, 0, 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("peak heap %d MB over the start", peak>>20)
	if peak > 48<<20 {
		t.Errorf("a line of 100k tool calls took %d MB of heap", peak>>20)
	}
	if len(items) != 2 {
		t.Fatalf("read %d items, want the wide line and the prompt after it", len(items))
	}
	if got := len(items[0].Tools); got != MaxLineTools {
		t.Errorf("read %d tool calls of the wide line, want %d", got, MaxLineTools)
	}
	if last := items[0].Tools[len(items[0].Tools)-1].Target; !strings.Contains(last, fmt.Sprintf("/p/f%d.go", MaxLineTools-1)) {
		t.Errorf("the last call kept is %q, want the %dth", last, MaxLineTools)
	}
	if items[0].Text != "I read the files one by one." || items[1].Text != "and the next prompt" {
		t.Errorf("texts lost: %q, %q", items[0].Text, items[1].Text)
	}
}
