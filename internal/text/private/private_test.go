package private

import (
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"no tags here", "no tags here"},
		{"my pin is <private>4921</private>, remember the rest", "my pin is [private], remember the rest"},
		{"<PRIVATE>a</Private> and <private>b</private>.", "[private] and [private]."},
		{"keep <private>drop\nacross lines</private> keep", "keep [private] keep"},
		{"unclosed <private>everything after this", "unclosed [private]"},
		{"a </private> closing tag alone stays", "a </private> closing tag alone stays"},
		{"<private>x <private>y</private> z", "[private]"}, // nested, the outer never closed
		{"<priv", "<priv"},
		{"", ""},
		{"ёжик <private>секрет</private> — ок", "ёжик [private] — ок"},
		// Every form a person writes: nested spans (the text after the
		// inner close is still inside the outer one), attributes, blanks
		// inside the brackets, any case, a tag cut at the text's end.
		{"a <private>b <private>c</private> d</private> e", "a [private] e"},
		{"a <private>b <PRIVATE>c</private> d", "a [private]"},
		{`a <private reason="pin">4921</private> b`, "a [private] b"},
		{"a <private reason=pin>4921</private > b", "a [private] b"},
		{"a < private >4921< / private > b", "a [private] b"},
		{"a <\tPrivate\n>4921</ PRIVATE> b", "a [private] b"},
		{"a <pRiVaTe>4921</PrIvAtE> b", "a [private] b"},
		{"a <private reason=", "a [private]"},
		{"a <privateer>kept</privateer> b", "a <privateer>kept</privateer> b"},
		{"a </private> b <private>c</private>", "a </private> b [private]"},
	} {
		if got := Strip(c.in); got != c.want {
			t.Errorf("Strip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzStrip(f *testing.F) {
	f.Add("a <private>b</private> c <private>d")
	f.Fuzz(func(t *testing.T, s string) {
		got := Strip(s)
		if Has(got) {
			t.Fatalf("Strip(%q) = %q still opens a private span", s, got)
		}
		if !Has(s) && got != s {
			t.Fatalf("Strip changed %q without a tag", s)
		}
		if strings.Count(got, Marker) > strings.Count(s, "<")+strings.Count(s, Marker) {
			t.Fatalf("more markers than spans: %q", got)
		}
	})
}
