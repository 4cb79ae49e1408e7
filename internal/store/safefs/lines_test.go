package safefs

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestReadLineSkipsAnOverlongLineAndKeepsATornOne(t *testing.T) {
	long := strings.Repeat("x", 100) + "\n"
	r := bufio.NewReaderSize(strings.NewReader("a\n"+long+"b\ntorn"), 16)
	var got []string
	var total int64
	for {
		line, n, err := ReadLine(r, 10)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		total += n
		if line != nil {
			got = append(got, string(line))
		}
	}
	if strings.Join(got, "|") != "a\n|b\n" {
		t.Fatalf("lines = %q, want a and b (the long one skipped)", got)
	}
	if want := int64(2 + len(long) + 2); total != want {
		t.Fatalf("consumed %d bytes, want %d (the torn tail uncounted)", total, want)
	}
}
