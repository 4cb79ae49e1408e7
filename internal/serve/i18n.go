package serve

import (
	"fmt"
	"html/template"
	"strings"
)

// language is one language of the pages: English is the text as written,
// and a translation maps each English phrase (the key) to its own. A
// phrase missing from a translation shows in English; a test keeps the
// Russian complete for every phrase the templates and the contract use.
type language struct {
	code  string
	words func() map[string]string // nil: English
	// plural picks the form of a counted noun: forms are English one and
	// many, or the translation's forms.
	plural func(n int, forms []string) string
	months []string // short month names, January first
}

var en = &language{code: "en", plural: func(n int, f []string) string {
	if n == 1 {
		return f[0]
	}
	return f[1]
}, months: []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}}

var ru = &language{code: "ru", words: ruWords, plural: func(n int, f []string) string {
	// один день, два дня, пять дней; 11–14 take the many form.
	n %= 100
	switch {
	case n%10 == 1 && n != 11:
		return f[0]
	case n%10 >= 2 && n%10 <= 4 && (n < 12 || n > 14):
		return f[1]
	}
	return f[2]
}, months: []string{"янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"}}

// languages are the translated ones; languageCodes orders the switcher.
var (
	languages     = map[string]*language{"en": en, "ru": ru}
	languageCodes = []string{"en", "ru"}
)

// languageOf is the language of a /{lang}/ prefix: English for a code
// without a translation.
func languageOf(code string) *language {
	if l, ok := languages[code]; ok {
		return l
	}
	return en
}

// T translates a phrase.
func (l *language) T(s string) string {
	if l.words == nil {
		return s
	}
	if w, ok := l.words()[s]; ok {
		return w
	}
	return s
}

// F translates a format and fills it.
func (l *language) F(format string, args ...any) string {
	return fmt.Sprintf(l.T(format), args...)
}

// N is a count with its noun: N(3, "day") is "3 days", "3 дня".
func (l *language) N(n int, noun string) string {
	forms, ok := nouns[noun]
	if !ok {
		return fmt.Sprintf("%d %s", n, noun)
	}
	f := forms.en
	if l == ru {
		f = forms.ru
	}
	return fmt.Sprintf("%d %s", n, l.plural(n, f))
}

// nouns are the counted nouns of the pages.
var nouns = map[string]struct{ en, ru []string }{
	"day":        {[]string{"day", "days"}, []string{"день", "дня", "дней"}},
	"week":       {[]string{"week", "weeks"}, []string{"неделя", "недели", "недель"}},
	"project":    {[]string{"project", "projects"}, []string{"проект", "проекта", "проектов"}},
	"record":     {[]string{"record", "records"}, []string{"запись", "записи", "записей"}},
	"file":       {[]string{"file", "files"}, []string{"файл", "файла", "файлов"}},
	"commit":     {[]string{"commit", "commits"}, []string{"коммит", "коммита", "коммитов"}},
	"call":       {[]string{"call", "calls"}, []string{"вызов", "вызова", "вызовов"}},
	"error":      {[]string{"error", "errors"}, []string{"ошибка", "ошибки", "ошибок"}},
	"warning":    {[]string{"warning", "warnings"}, []string{"предупреждение", "предупреждения", "предупреждений"}},
	"node":       {[]string{"node", "nodes"}, []string{"узел", "узла", "узлов"}},
	"page":       {[]string{"page", "pages"}, []string{"страница", "страницы", "страниц"}},
	"roll-up":    {[]string{"roll-up", "roll-ups"}, []string{"свёртка", "свёртки", "свёрток"}},
	"fact":       {[]string{"fact", "facts"}, []string{"факт", "факта", "фактов"}},
	"token":      {[]string{"token", "tokens"}, []string{"токен", "токена", "токенов"}},
	"diagnostic": {[]string{"diagnostic", "diagnostics"}, []string{"диагностика", "диагностики", "диагностик"}},
}

// Date is a day as "Nov 25" or "25 ноя".
func (l *language) Date(month, day int) string {
	if l == ru {
		return fmt.Sprintf("%d %s", day, l.months[month-1])
	}
	return fmt.Sprintf("%s %d", l.months[month-1], day)
}

// langFuncs are the template functions bound to one language.
func langFuncs(l *language) template.FuncMap {
	return template.FuncMap{
		"t":        l.T,
		"tf":       l.F,
		"n":        l.N,
		"level":    func(n int) string { return l.T(levelWords[n]) },
		"kindText": func(k string) string { return l.T(kindWords[k]) },
		"lower":    strings.ToLower,
	}
}
