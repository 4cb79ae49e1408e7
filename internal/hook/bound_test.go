package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// A field over the bound is cut as it is read, on a character boundary,
// with a note of its full size; the other fields are whole.
func TestReadInputCutsLongStrings(t *testing.T) {
	long := strings.Repeat("é", MaxField) // 2 bytes each: twice the bound
	in := `{"session_id":"s1","prompt":"` + long + `","tool_input":{"content":"a\"b\u00e9` + strings.Repeat("x", MaxField) + `"},"n":[1,-2.5e3,true,null]}`
	out, err := ReadInput(strings.NewReader(in), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(out) {
		t.Fatalf("not valid JSON: %.200s", out)
	}
	v := gjson.ParseBytes(out)
	p := v.Get("prompt").String()
	if !utf8.ValidString(p) || !strings.HasSuffix(p, cutNote(int64(2*MaxField))) || len(p) > MaxField+100 {
		t.Errorf("prompt: %d bytes, valid %v, ends %q", len(p), utf8.ValidString(p), p[max(0, len(p)-60):])
	}
	if c := v.Get("tool_input.content").String(); !strings.HasPrefix(c, `a"bé`) || !strings.Contains(c, "cut by cerebro") {
		t.Errorf("tool_input.content: %.40q … %q", c, c[max(0, len(c)-60):])
	}
	if v.Get("session_id").String() != "s1" || v.Get("n").Raw != "[1,-2.5e3,true,null]" {
		t.Errorf("other fields changed: %s %s", v.Get("session_id").Raw, v.Get("n").Raw)
	}
}

// The input is complete when its object closes: a stdin that is never
// closed costs nothing more, and one that never completes the object ends
// at the timeout with an error.
func TestReadInputDoesNotWaitForEOF(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"session_id":"s1","prompt":"hi"}` + "\n"))
	out, err := ReadInput(r, time.Minute)
	if err != nil || gjson.GetBytes(out, "prompt").String() != "hi" {
		t.Fatalf("%s %v", out, err)
	}
	r2, w2 := io.Pipe()
	defer w2.Close()
	go w2.Write([]byte(`{"session_id":"s1","prompt":"h`))
	if _, err := ReadInput(r2, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "never closed") {
		t.Fatalf("an incomplete input on an open stdin: err = %v", err)
	}
}

func TestReadInputRefuses(t *testing.T) {
	for in, want := range map[string]error{
		"":                    ErrEmpty,
		"  \n":                ErrEmpty,
		`{"a":`:               errSyntax,
		`{"a" 1}`:             errSyntax,
		`{"a":"x` + "\x01\"}": errSyntax,
		`{"a":tru}`:           errSyntax,
		`{"a":"\q"}`:          errSyntax,
	} {
		if _, err := ReadInput(strings.NewReader(in), time.Minute); !errors.Is(err, want) {
			t.Errorf("%q: err = %v, want %v", in, err, want)
		}
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	if _, err := ReadInput(strings.NewReader(deep), time.Minute); err == nil {
		t.Error("10000 levels of nesting were accepted")
	}
}

// Under the bounds, what ReadInput returns is the input, compacted.
func FuzzReadInput(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"session_id":"x","tool_input":{"k":[1,2,{"z":null}]}}`, `{"s":"\u00e9\n\"q\""}`, ` { } `, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := ReadInput(strings.NewReader(in), time.Minute)
		if err != nil {
			return
		}
		if !json.Valid([]byte(in)) {
			// Trailing bytes after a complete value are left unread.
			return
		}
		var want bytes.Buffer
		if json.Compact(&want, []byte(in)) != nil {
			return
		}
		if !bytes.Equal(out, want.Bytes()) && len(in) < MaxField {
			t.Fatalf("ReadInput(%q) = %q, want %q", in, out, want.Bytes())
		}
	})
}
