package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/wiki"
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
	for _, c := range searchScopes {
		out[c.Label] = "searchScopes"
	}
	for c := range codes() {
		out[c] = "codes"
	}
	// The plugin's own skills: their descriptions are shown in the page's
	// language.
	files, _ := filepath.Glob(filepath.Join("..", "..", "skills", "*", "SKILL.md"))
	if len(files) == 0 {
		t.Fatal("no plugin skill found under ../../skills")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := wiki.ParsePage("SKILL.md", data).Meta["description"].(string); d != "" {
			out[d] = f
		}
	}
	// The errors a handler shows on an error page (fail translates them
	// part by part); the command line's and the guard's plain-text
	// refusals are no page.
	errs := regexp.MustCompile(`\b(?:fmt\.Errorf|errors\.New)\(("(?:[^"\\]|\\.)*")`)
	letters := regexp.MustCompile(`[a-z]{2}`)
	goFiles, _ := filepath.Glob("*.go")
	for _, f := range goFiles {
		switch f {
		case "background.go", "probe.go", "guard.go", "serve.go":
			continue
		}
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range errs.FindAllStringSubmatch(string(data), -1) {
			if e, err := strconv.Unquote(m[1]); err == nil && letters.MatchString(verb.ReplaceAllString(e, "")) {
				out[e] = f + " (error)"
			}
		}
	}
	delete(out, "")
	return out
}

// EnglishUI is the English catalog of the pages: every phrase above and
// every key of the Russian (the formats among them), and the counted
// nouns' English forms, each with its Russian (a counted form with its
// noun's). A /ru/ page that prints one of them still speaks English.
func EnglishUI(t *testing.T) map[string]string {
	out := map[string]string{}
	for en := range phrases(t) {
		out[en] = ruWords()[en]
	}
	for en, r := range ruWords() {
		out[en] = r
	}
	for noun, forms := range nouns {
		for _, f := range forms.en {
			out[f] = strings.Join(forms.ru, "/") + " (" + noun + ")"
		}
	}
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
		// Same count and order: a pattern (language.Note) fills the
		// Russian with the English's arguments in their order.
		if a, b := verbKinds(verbs.FindAllString(en, -1)), verbKinds(verbs.FindAllString(ruText, -1)); a != b {
			t.Errorf("%q: the Russian %q has verbs %s, the English %s", en, ruText, b, a)
		}
	}
}

// verbKinds is a phrase's verbs as a person fills them: a number, a
// fraction or text (%s, %q, %v and an error's %w alike).
func verbKinds(vs []string) string {
	var b strings.Builder
	for _, v := range vs {
		switch c := v[len(v)-1]; c {
		case 'd', 'f', 'g', 'e', '%':
			b.WriteByte(c)
		default:
			b.WriteByte('s')
		}
	}
	return b.String()
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
	// The dashboard's counts agree with their number.
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "registered project", "1 проект зарегистрирован"}, {2, "registered project", "2 проекта зарегистрированы"},
		{5, "registered project", "5 проектов зарегистрировано"}, {21, "registered project", "21 проект зарегистрирован"},
		{1, "active", "1 активный"}, {3, "active", "3 активных"}, {11, "active", "11 активных"},
		{1, "recently completed", "1 недавно завершён"}, {4, "recently completed", "4 недавно завершены"}, {0, "recently completed", "0 недавно завершено"},
		{1, "day compiled", "1 день собран"}, {2, "day compiled", "2 дня собрано"},
	} {
		if got := ru.N(c.n, c.noun); got != c.want {
			t.Errorf("ru.N(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := en.N(1, "registered project") + ", " + en.N(2, "registered project"); got != "1 project registered, 2 projects registered" {
		t.Errorf("en.N: %q", got)
	}
}

// TestRussianNotes: every note and reason the request parsers give a
// recall parameter — each parameter of the contract well-formed and not,
// the doors, an unknown key, under every kind of memory (levels 4 and 5
// on or off, nested, with or without the desk) — reads in Russian part by
// part: a new note of the parsers without its Russian fails here.
func TestRussianNotes(t *testing.T) {
	values := map[string][]string{
		blackbox.KindBool:     {`true`, `false`, `"yes"`},
		blackbox.KindInt:      {`1`, `0`, `"many"`},
		blackbox.KindName:     {`"friends"`, `""`},
		blackbox.KindString:   {`"Dima"`, `""`, `"` + strings.Repeat("x", 300) + `"`},
		blackbox.KindCalendar: {`"2026-05"`, `"next spring"`, `"2026-08..2026-05"`, `""`},
		blackbox.KindPlace:    {`"Madrid"`, `""`},
		blackbox.KindScope:    {`[{"geo": "Madrid"}, {"calendar": "2026"}]`, `[{}]`, `[{"geo": "Madrid"}, {"calendar": "soon"}]`, `[{"planet": "Mars"}]`, `[{"geo": 1}]`, `"project"`, `"projects"`, `"galaxy"`, `7`},
	}
	caps := []blackbox.Caps{
		{VectorWhy: "no embedding provider configured"},
		{Vector: true, Research: true, ResearchCalls: 3, ResearchSeconds: 120, Across: true},
		{Vector: true, Nested: true, AcrossWhy: "the memory indexes cannot be set up: no index dir"},
	}
	var raws []blackbox.Raw
	for _, p := range blackbox.Params(blackbox.VerbRecall) {
		vs := values[p.Kind]
		for _, c := range p.Choices {
			vs = append(vs, strconv.Quote(c.Value))
		}
		if p.Kind == blackbox.KindChoice {
			vs = append(vs, `"bottomless"`)
		}
		if len(vs) == 0 {
			t.Fatalf("no test values for %s (kind %s)", p.Name, p.Kind)
		}
		for _, v := range vs {
			raws = append(raws, blackbox.Raw{"text": []byte(`"q"`), p.Name: []byte(v)})
		}
	}
	for _, d := range blackbox.Doors() {
		raws = append(raws, blackbox.Raw{"text": []byte(`"q"`), d.Name: []byte(`"x"`)})
	}
	raws = append(raws, blackbox.Raw{"text": []byte(`"q"`), "bogus": []byte(`1`)})
	seen := 0
	for _, c := range caps {
		for _, raw := range raws {
			_, fates, err := blackbox.ParseRecall(raw, c)
			if err != nil {
				t.Fatal(err)
			}
			for name, f := range fates {
				for _, s := range []string{f.Note, f.Reason} {
					if s == "" {
						continue
					}
					seen++
					if got, ok := ru.note(s); !ok {
						t.Errorf("%s: no Russian for a part of %q (got %q)", name, s, got)
					}
				}
			}
		}
	}
	if seen < 40 {
		t.Fatalf("only %d notes seen: the requests reach too little", seen)
	}
	// A pattern's arguments stay as written unless they are a sentence of
	// the translation themselves.
	for en, want := range map[string]string{
		"at most 3 items per level":              "не больше 3 элементов на уровень",
		"level 4 unavailable: Madrid":            "уровень 4 недоступен: Madrid",
		"level 4 unavailable: no claude command": "уровень 4 недоступен: нет команды claude",
		`scope record 2: calendar "next spring" is not YYYY, YYYY-MM, YYYY-MM-DD or FROM..TO of those`: `запись охвата 2: календарь "next spring" — не YYYY, YYYY-MM, YYYY-MM-DD и не ОТ..ДО из них`,
		"an unknown sentence; no chain returned":                                                       "an unknown sentence; цепочка не возвращается",
	} {
		if got := ru.Note(en); got != want {
			t.Errorf("ru.Note(%q) = %q, want %q", en, got, want)
		}
	}
	if got := en.Note("no chain returned"); got != "no chain returned" {
		t.Errorf("en.Note changed English: %q", got)
	}
}
