package serve

import (
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// TestMarkdownIsInert: memory text is hostile. Raw HTML is left out,
// links with a scheme other than http, https and mailto lose their link
// (browsers drop tabs inside a scheme, so those count too), images load
// nothing, and wikilinks become this server's links or marked broken.
func TestMarkdownIsInert(t *testing.T) {
	md := newMarkdown(func(l wiki.Link) string {
		if l.Target == "Denis" {
			return "/en/memory/file?path=x&y=<z>"
		}
		return ""
	}, nil)
	for src, bad := range map[string][]string{
		"<script>alert(1)</script>":               {"<script"},
		"a <img src=x onerror=alert(1)> b":        {"<img", "onerror"},
		"[x](javascript:alert(1))":                {"href", "javascript"},
		"[x](JaVaScRiPt:alert(1))":                {"href"},
		"[x](java&#9;script:alert(1))":            {"href"},
		"[x](data:text/html;base64,PHNjcmlwdD4=)": {"href"},
		"[x](vbscript:msgbox)":                    {"href"},
		"![pic](https://tracker.example/p.png)":   {"<img", "tracker"},
		"<javascript:alert(1)>":                   {"href"},
		"[[Nowhere]] and [[Den<is>]]":             {"href", "<is>"},
		"`[[Denis]]` in code":                     {"href"},
		"<a href=\"javascript:x\">hi</a>":         {"<a ", "javascript"},
		"[ok](https://example.com/a?b=\"c\")":     {`"c"`},
	} {
		got := string(md.render(src))
		for _, b := range bad {
			if strings.Contains(got, b) {
				t.Errorf("%q rendered %q, which holds %q", src, got, b)
			}
		}
	}
	for src, want := range map[string]string{
		"[[Denis]]":                   `<a class="wl" href="/en/memory/file?path=x&amp;y=&lt;z&gt;">Denis</a>`,
		"[[Denis|the friend]]":        `>the friend</a>`,
		"[[Nowhere]]":                 `<span class="broken" title="no such page">[[Nowhere]]</span>`,
		"[site](https://example.com)": `<a href="https://example.com">site</a>`,
		"[mail](mailto:a@b.c)":        `href="mailto:a@b.c"`,
		"[x](javascript:alert(1))":    `<p>x</p>`,
		"![pic](p.png)":               `<p>pic</p>`,
		"- a\n- b\n":                  "<ul>\n<li>a</li>\n<li>b</li>\n</ul>",
		"| a | b |\n| --- | --- |\n| 1 | [[Denis]] |\n": `<td><a class="wl"`,
	} {
		if got := string(md.render(src)); !strings.Contains(got, want) {
			t.Errorf("%q rendered %q, want %q in it", src, got, want)
		}
	}
}

func TestSafeURL(t *testing.T) {
	for u, want := range map[string]bool{"https://a.b": true, "http://a": true, "mailto:x@y": true, "page.md": true, "../a/b.md#h": true,
		"#top": true, "/en/memory": true, "a/b:c": true, "javascript:x": false, " javascript:x": false, "java\tscript:x": false,
		"java\nscript:x": false, "data:x": false, "file:///etc/passwd": false, "vbscript:x": false, "JAVASCRIPT:x": false} {
		if got := safeURL(u); got != want {
			t.Errorf("safeURL(%q) = %v, want %v", u, got, want)
		}
	}
}
