package textan

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestWordsFoldCaseYoAndStress(t *testing.T) {
	got := Words("Ёлка, ЁЖИКИ и мо́ре; Deploy-v2 a828e60")
	want := []string{"елка", "ежики", "и", "море", "deploy", "v2", "a828e60"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func TestStemsRussianEnglishIdentifiers(t *testing.T) {
	for in, want := range map[string]string{
		"Running tests; ёлка Ёжики":           "run test елк ежик",
		"проектов синхронизациями Проекта":    "проект синхронизац проект",
		"v1.2 sha256 a828e60 kafkaКафка":      "v1 2 sha256 a828e60 kafkaкафка",
		"Ретроспективы и ретроспектива; runs": "ретроспектив и ретроспектив run",
	} {
		if got := StemmedText(in); got != want {
			t.Errorf("StemmedText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTermsDropStopWordsAndExtras(t *testing.T) {
	got := Terms("What did we decide about the Kafka партиции в проекте?", map[string]bool{"decide": true})
	want := []string{"kafka", "партиц", "проект"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestQueryTermsDistinctAndNeverEmpty(t *testing.T) {
	if got, want := QueryTerms("deploy the deploys, Деплой"), []string{"deploy", "депл"}; !reflect.DeepEqual(got, want) {
		t.Errorf("QueryTerms = %q, want %q", got, want)
	}
	if got, want := QueryTerms("the who"), []string{"the", "who"}; !reflect.DeepEqual(got, want) {
		t.Errorf("QueryTerms of stop words only = %q, want %q", got, want)
	}
}

func TestIrregularFormsMeetTheirBase(t *testing.T) {
	// a note in the past meets a question in the present
	for note, query := range map[string]string{
		"We ran the migration":      "run the migration",
		"she took the kids":         "take kids",
		"The children went to camp": "child go camp",
		"Written and sold":          "write and sell",
	} {
		if got, want := Terms(note), Terms(query); !reflect.DeepEqual(got, want) {
			t.Errorf("Terms(%q) = %q, want those of %q: %q", note, got, query, want)
		}
	}
	// a form that is as often another word stays itself
	for _, w := range []string{"found", "left", "saw", "bit"} {
		if got := Stem(w); got == Stem(map[string]string{"found": "find", "left": "leave", "saw": "see", "bit": "bite"}[w]) {
			t.Errorf("Stem(%q) = %q, the stem of its verb", w, got)
		}
	}
}

// Plurals built on another root share no suffix with the singular, so
// Snowball alone cannot join them: «кто мои друзья» must meet «друг»,
// "people" must meet "person".
func TestSuppletivePluralsStemAsTheSingular(t *testing.T) {
	for base, forms := range map[string][]string{
		"друг":    {"друга", "друзья", "друзей", "друзьям", "друзьями", "Друзьях"},
		"человек": {"человека", "люди", "людей", "людям", "людьми", "людях"},
		"ребёнок": {"ребенка", "ребёнку", "дети", "детей", "детьми"},
		"сын":     {"сыновья", "сыновей"},
		"дочь":    {"дочери", "дочерей"},
		"person":  {"people", "People"},
		"child":   {"children"},
		"man":     {"men"},
		"woman":   {"women"},
		"mouse":   {"mice"},
		"foot":    {"feet"},
		"tooth":   {"teeth"},
	} {
		want := StemOf(base)
		for _, f := range forms {
			if got := StemOf(f); got != want {
				t.Errorf("StemOf(%q) = %q, want %q (the stem of %q)", f, got, want, base)
			}
		}
	}
	// the table joins only those words: other words keep their stems
	for a, b := range map[string]string{"дети": "детский", "люди": "людный", "друзья": "дружба", "мать": "материя"} {
		if StemOf(a) == StemOf(b) {
			t.Errorf("%q and %q share the stem %q", a, b, StemOf(a))
		}
	}
}

func TestWordsWithKeepsTheGivenRunes(t *testing.T) {
	got := WordsWith("Didn't run; ЁЖ'ИК", "'")
	want := []string{"didn't", "run", "еж'ик"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WordsWith = %q, want %q", got, want)
	}
}

func TestCyrillic(t *testing.T) {
	for text, want := range map[string]bool{
		"Ретро квартала: что получилось":  true,
		"Switch the replica first":        false,
		"Ретро Q3: релиз, дежурства, SLO": true,
		"deploy через helm и ArgoCD":      false, // more Latin letters than Cyrillic
		"2026-11, 42":                     false,
		"":                                false,
	} {
		if got := Cyrillic(text); got != want {
			t.Errorf("Cyrillic(%q) = %v, want %v", text, got, want)
		}
	}
}

// Words' one-pass paths (ASCII and lowercase Russian read without
// Unicode tables) cut and fold exactly as folding rune by rune and
// cutting at every rune that is not a letter or digit does.
func TestWordsFastPathsCutAsFieldsFunc(t *testing.T) {
	reference := func(text string) []string {
		lower := strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			if !IsWordRune(r) {
				return ' '
			}
			if r = unicode.ToLower(r); r == 'ё' {
				return 'е'
			}
			return r
		}, text)
		return strings.FieldsFunc(lower, func(r rune) bool { return r == ' ' })
	}
	alphabet := []string{"a", "z", "0", "9", " ", "-", "_", ".", "\t", "ж", "я", "а", "ѐ", "Я", "é", "中", "٣", "\xff", "\xe2\x82", "’", "ß", "ǅ", "Q", "ё", "Ё", "\u0301", "K", "İ", "Σ"}
	texts := []string{"", " ", "go 1.22 and v1", "база данных — 3 раза", "naïve café", "a\xffb", "中文 text", "trailing word", "Go Is FUN", "Ёлка ударе\u0301ние"}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for j := r.Intn(12); j >= 0; j-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	fast := 0
	for _, text := range texts {
		n := foldedWords(text)
		if (n >= 0) != folded(text) {
			t.Fatalf("%q: counted %d words, folded %v", text, n, folded(text))
		}
		if n >= 0 {
			fast++
			if got := cutWords(text, n); len(got) != n {
				t.Fatalf("%q: cut %d words, counted %d", text, len(got), n)
			}
		}
		got, want := Words(text), reference(text)
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Fatalf("%q: %q, want %q", text, got, want)
		}
	}
	if fast < 500 || fast > len(texts)-500 {
		t.Fatalf("%d of %d texts took the folded path: the test misses one path", fast, len(texts))
	}
}
