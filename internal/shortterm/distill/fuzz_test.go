package distill

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// checkBody asserts the shape every distillate must have, whatever the
// dialogue held: known subsections, one-line bullets, bounded size.
func checkBody(t *testing.T, body string, limit int) {
	t.Helper()
	if !utf8.ValidString(body) {
		t.Fatalf("invalid UTF-8: %q", body)
	}
	if n := utf8.RuneCountInString(body); n > limit {
		t.Fatalf("body is %d runes, limit %d", n, limit)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		t.Fatalf("body does not end with a newline: %q", body)
	}
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		switch {
		case line == "" && body == "":
		case strings.HasPrefix(line, "### ") && canonical(line[4:]) != "":
		case (strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "  - ")) && strings.TrimSpace(line) != "-":
			if strings.Contains(line, "<!--") {
				t.Fatalf("bullet carries an HTML comment: %q", line)
			}
		default:
			t.Fatalf("line is neither a known subsection nor a bullet: %q", line)
		}
	}
	checkReadBack(t, body)
}

// checkReadBack asserts that the daily file's reader gives back the
// body's lists exactly once a flush has written it.
func checkReadBack(t *testing.T, body string) {
	t.Helper()
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.Local)
	d := daily.Parse([]byte(daily.Header(at, "p") + daily.Render(daily.Section{Start: at, End: at, SessionID: "s", Trigger: "auto", Seq: 1, Body: body})))
	if len(d.Sections) != 1 {
		t.Fatalf("the body reads back as %d sections: %q", len(d.Sections), body)
	}
	var want []daily.List
	for _, line := range strings.Split(body, "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			want = append(want, daily.List{Head: h})
		} else if b, ok := strings.CutPrefix(strings.TrimPrefix(line, "  "), "- "); ok && len(want) > 0 {
			want[len(want)-1].Items = append(want[len(want)-1].Items, strings.TrimSpace(b))
			want[len(want)-1].Nested = append(want[len(want)-1].Nested, strings.HasPrefix(line, "  "))
		}
	}
	if got := d.Sections[0].Lists; !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n got %+v\nwant %+v", got, want)
	}
}

func FuzzExtractive(f *testing.F) {
	f.Add("fix the bug", "I've fixed it. TODO: add a test. Shall I commit?", "Edit", "/a.go")
	f.Add("Решили: будем использовать TOML", "Добавил конфиг. Осталось описать ключи.", "Bash", "go test ./...")
	f.Add("## heading <!-- x -->", "```\ncode\n```\n- [ ] item", "Write", "`weird`")
	f.Fuzz(func(t *testing.T, ask, reply, tool, target string) {
		items := []transcript.Item{
			{Role: transcript.RoleUser, Text: ask, ID: "u"},
			{Role: transcript.RoleAssistant, Text: reply, ID: "a", Tools: []transcript.Tool{{Name: tool, Target: target}}},
			{Role: transcript.RoleUser, Text: reply + ask, ID: "u2"},
		}
		body := Extractive(Segment{Items: items, Dir: "/"})
		checkBody(t, body, MaxBody)
		if again := Extractive(Segment{Items: items, Dir: "/"}); again != body {
			t.Fatal("not deterministic")
		}
	})
}

func FuzzClean(f *testing.F) {
	f.Add("### Asked\n- a\n### Done\n- b\n")
	f.Add("preamble\n```\n### Open\n* x\n  y\n```\nbye")
	f.Add("### Summary\n- nothing known")
	f.Fuzz(func(t *testing.T, out string) {
		body, err := Clean(out)
		if err != nil {
			if body != "" {
				t.Fatal("body with an error")
			}
			return
		}
		if body == "" {
			t.Fatal("empty body without an error")
		}
		checkBody(t, body, maxClaudeBody)
	})
}
