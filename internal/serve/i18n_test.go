package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
)

// phrases are the English phrases the pages show: every {{t "…"}} and
// {{tf "…"}} of the templates, every l.T/l.F of the server's code, the
// request contract's labels, hints and doors, the level and kind words.
func phrases(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	tmpl := regexp.MustCompile(`[{(]\s*tf?\s+("(?:[^"\\]|\\.)*")`)
	code := regexp.MustCompile(`\b(?:lang|l)\.[TF]\(("(?:[^"\\]|\\.)*")`)
	for glob, re := range map[string]*regexp.Regexp{"templates/*.html": tmpl, "*.go": code} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				s, err := strconv.Unquote(m[1])
				if err != nil {
					t.Fatalf("%s: %s: %v", f, m[1], err)
				}
				out[s] = f
			}
		}
	}
	for _, verb := range []string{blackbox.VerbRecall} {
		for _, p := range blackbox.Params(verb) {
			for _, s := range []string{p.Label, p.Hint, p.Reaches} {
				out[s] = "contract " + p.Name
			}
			for _, c := range p.Choices {
				out[c.Label], out[c.Hint] = "contract "+p.Name, "contract "+p.Name
			}
		}
	}
	for _, d := range blackbox.Doors() {
		out[d.Label], out[d.Reason], out[d.Opens] = "door "+d.Name, "door "+d.Name, "door "+d.Name
	}
	for _, w := range levelWords {
		out[w] = "levelWords"
	}
	for _, w := range kindWords {
		out[w] = "kindWords"
	}
	for _, w := range []string{rollup.Fresh, rollup.Stale, rollup.Unknown, rollup.Unreachable, "Not Found", "Bad Request", "Internal Server Error", "Conflict", "Unprocessable Entity", "Forbidden"} {
		out[w] = "statuses"
	}
	delete(out, "")
	return out
}

// TestRussianIsComplete: every phrase a page shows has its Russian, and
// the Russian keeps a format's verbs.
func TestRussianIsComplete(t *testing.T) {
	ps := phrases(t)
	if len(ps) < 150 {
		t.Fatalf("found only %d phrases: the extraction is broken", len(ps))
	}
	verbs := regexp.MustCompile(`%[-+# 0]*[0-9.]*[a-zA-Z]`)
	for en, where := range ps {
		ruText, ok := ruWords()[en]
		if !ok {
			t.Errorf("no Russian for %q (%s)", en, where)
			continue
		}
		if a, b := verbs.FindAllString(en, -1), verbs.FindAllString(ruText, -1); len(a) != len(b) {
			t.Errorf("%q: the Russian %q has verbs %v, the English %v", en, ruText, b, a)
		}
	}
}

func TestRussianPlurals(t *testing.T) {
	for n, want := range map[int]string{1: "1 день", 2: "2 дня", 5: "5 дней", 11: "11 дней", 12: "12 дней", 21: "21 день", 22: "22 дня", 45: "45 дней", 111: "111 дней", 0: "0 дней"} {
		if got := ru.N(n, "day"); got != want {
			t.Errorf("ru.N(%d) = %q, want %q", n, got, want)
		}
	}
	if got := en.N(1, "week") + ", " + en.N(3, "week"); got != "1 week, 3 weeks" {
		t.Errorf("en.N: %q", got)
	}
}
