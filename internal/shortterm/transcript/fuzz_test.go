package transcript

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

func FuzzParseLine(f *testing.F) {
	for _, path := range fixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for i := 0; i < len(data); {
			j := i
			for j < len(data) && data[j] != '\n' {
				j++
			}
			if j-i < 4096 {
				f.Add(data[i:j])
			}
			i = j + 1
		}
	}
	f.Add([]byte(`{"type":"user","message":{"content":"\xff"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		it, ok := ParseLine(line)
		if !ok {
			return
		}
		if it.Role != RoleUser && it.Role != RoleAssistant {
			t.Fatalf("role %q", it.Role)
		}
		if it.Text == "" && len(it.Tools) == 0 {
			t.Fatal("empty item reported as dialogue")
		}
		if !utf8.ValidString(it.Text) {
			t.Fatalf("invalid UTF-8 in text %q", it.Text)
		}
		for _, tool := range it.Tools {
			if !utf8.ValidString(tool.Name) || !utf8.ValidString(tool.Target) {
				t.Fatalf("invalid UTF-8 in tool %q %q", tool.Name, tool.Target)
			}
		}
	})
}

// FuzzRead checks that any file, read in windows of any size, gives what a
// whole read gives, and that offsets only move forward within the file.
func FuzzRead(f *testing.F) {
	for _, path := range fixtures(f)[:3] {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(100))
	}
	f.Add([]byte("{\"type\":\"user\"}\n{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}}"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, window uint16) {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		whole, end, err := (Reader{}).ReadLog(path, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if end < 0 || end > int64(len(data)) {
			t.Fatalf("end %d outside [0, %d]", end, len(data))
		}
		var got Log
		var from int64
		for from < end {
			l, next, err := (Reader{}).ReadLog(path, from, int64(window)+1)
			if err != nil {
				t.Fatal(err)
			}
			if next <= from {
				t.Fatalf("no progress at %d", from)
			}
			got = got.Append(l)
			from = next
		}
		if from != end {
			t.Fatalf("chunked end %d, whole end %d", from, end)
		}
		if g, w := exported(got), exported(whole); !reflect.DeepEqual(g, w) {
			t.Fatalf("chunked %+v\nwhole %+v", shorten(g.Items), shorten(w.Items))
		}
	})
}
