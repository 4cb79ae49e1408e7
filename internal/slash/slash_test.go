package slash

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"on\n", []string{"on"}},
		{"  notes.md  --redact ", []string{"notes.md", "--redact"}},
		{`"my file.md" 'it''s' a\ b`, []string{"my file.md", "its", "a b"}},
		{`; touch PWNED`, []string{";", "touch", "PWNED"}},
		{`$(touch PWNED) ` + "`touch PWNED`", []string{"$(touch", "PWNED)", "`touch", "PWNED`"}},
		{`\!important "say \"hi\""`, []string{"!important", `say "hi"`}},
		{"", nil},
	} {
		got, err := Split(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Split(`it's`); err == nil {
		t.Error("an unterminated quote was accepted")
	}
}

// A person's words are arguments: a word that looks like an option is
// refused unless the command lets a person set it, and then it carries one
// value; everything else goes after "--".
func TestArgs(t *testing.T) {
	for _, c := range []struct {
		command, words []string
		want           []string
		err            string
	}{
		{[]string{"ingest"}, []string{"notes.md"}, []string{"--", "notes.md"}, ""},
		{[]string{"ingest"}, []string{"--project", "OTHER", "file"}, nil, "--project is not an option"},
		{[]string{"ingest"}, []string{"--", "--project"}, []string{"--", "--project"}, ""},
		{[]string{"ingest"}, []string{"-p"}, nil, "-p is not an option"},
		{[]string{"verdict"}, []string{"r1", "bad", "off", "by", "-1"}, []string{"--", "r1", "bad", "off", "by", "-1"}, ""},
		{[]string{"org", "ingest"}, []string{"--case", "--project", "--redact"}, []string{"--case=--project", "--redact", "--"}, ""},
		{[]string{"org", "ingest"}, []string{"--redact=yes"}, nil, "takes no value"},
		{[]string{"org", "ingest"}, []string{"--home", "/tmp"}, nil, "--home is not an option"},
		{[]string{"serve", "--background"}, []string{"--addr", "127.0.0.1:3701"}, []string{"--addr=127.0.0.1:3701", "--"}, ""},
		{[]string{"serve", "--background"}, []string{"--addr", "0.0.0.0:0"}, nil, "not a loopback address"},
		{[]string{"serve", "--background"}, []string{"--addr=[::]:0"}, nil, "not a loopback address"},
		{[]string{"serve", "--background"}, []string{"--addr 0.0.0.0:0"}, nil, "is not an option"},
		{[]string{"serve", "--background"}, []string{"--project", "/elsewhere"}, nil, "is not an option"},
		{[]string{"long"}, []string{"on"}, []string{"on", "--"}, ""},
		{[]string{"long"}, []string{"status", "--json"}, []string{"status", "--json", "--"}, ""},
		{[]string{"long"}, []string{"on", "--project", "/elsewhere"}, nil, "is not an option"},
		{[]string{"rollup"}, []string{"--now", "2026-11-30", "--with-git"}, []string{"--now=2026-11-30", "--with-git", "--"}, ""},
		{[]string{"rollup", "--print"}, []string{"--home", "/x"}, nil, "is not an option"},
	} {
		got, err := Args(c.command, c.words)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v %q: err = %v, want %q", c.command, c.words, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%v %q = %q, %v; want %q", c.command, c.words, got, err, c.want)
		}
	}
}

func TestTakesOptions(t *testing.T) {
	for _, c := range []struct {
		command []string
		want    bool
	}{
		{[]string{"org", "ingest"}, true},
		{[]string{"serve", "--background"}, true},
		{[]string{"long"}, true},
		{[]string{"--text", "recall"}, false},
		{[]string{"doctor"}, false},
		{[]string{"planfact", "check"}, false},
	} {
		if got := TakesOptions(c.command); got != c.want {
			t.Errorf("TakesOptions(%q) = %v, want %v", c.command, got, c.want)
		}
	}
}
