package serve

import (
	"fmt"
	"html/template"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/longterm/night"
	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
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
	// formats are the translation's phrases holding a verb (%s, %d …) as
	// patterns, longest first: Note translates a part that fits one.
	formats func() []format
}

// format is a phrase with verbs read as a pattern: re matches the English
// and captures each verb's text, to is the translation with a %s for each.
type format struct {
	re *regexp.Regexp
	to string
}

var en = &language{code: "en", plural: func(n int, f []string) string {
	if n == 1 {
		return f[0]
	}
	return f[1]
}, months: []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}}

var ru = &language{code: "ru", words: ruWords, formats: sync.OnceValue(func() []format { return formatsOf(ruWords()) }), plural: func(n int, f []string) string {
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

// Note translates cerebro's own English built of parts — a parameter's
// fate, a level's note, why an answer misses a parameter: each "; "-joined
// part is a phrase of the translation, or fits one of its formats ("at
// most %d items per level"), whose arguments are kept as they are (a
// place, a path: the person's words). A part the translation does not know
// stays as it is.
func (l *language) Note(s string) string {
	out, _ := l.note(s)
	return out
}

// note is Note, and whether every part was translated.
func (l *language) note(s string) (string, bool) {
	if l.words == nil || s == "" {
		return s, true
	}
	// A phrase may hold "; " itself (a door's reason): the longest run of
	// parts the translation knows is taken first.
	parts := strings.Split(s, "; ")
	var out []string
	all := true
	for i := 0; i < len(parts); {
		j := len(parts)
		for ; j > i+1; j-- {
			if t, ok := l.part(strings.Join(parts[i:j], "; ")); ok {
				out = append(out, t)
				break
			}
		}
		if j == i+1 {
			t, ok := l.part(parts[i])
			out, all = append(out, t), all && ok
		}
		i = j
	}
	return strings.Join(out, "; "), all
}

func (l *language) part(p string) (string, bool) {
	if w, ok := l.words()[p]; ok {
		return w, true
	}
	return l.formatted(p)
}

// formatted translates p by the first format it fits. An argument that is
// itself a sentence of the translation (a reason inside a reason) is
// translated too; any other — a place, a path, a name — stays as written,
// even when a word of the pages happens to spell it.
func (l *language) formatted(p string) (string, bool) {
	for _, f := range l.formats() {
		if m := f.re.FindStringSubmatch(p); m != nil {
			args := make([]any, len(m)-1)
			for i := range args {
				a := m[i+1]
				if w, ok := l.words()[a]; ok && strings.Count(a, " ") >= 2 {
					a = w
				} else if w, ok := l.formatted(a); ok {
					a = w
				}
				args[i] = a
			}
			return fmt.Sprintf(f.to, args...), true
		}
	}
	return p, false
}

// verb is a fmt verb of a phrase.
var verb = regexp.MustCompile(`%[-+# 0]*[0-9.]*[a-zA-Z%]`)

// formatsOf reads the phrases of a translation that hold a verb as
// patterns, the longest (most specific) first.
func formatsOf(words map[string]string) []format {
	var keys []string
	for k := range words {
		if verb.MatchString(strings.ReplaceAll(k, "%%", "")) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	var out []format
	for _, k := range keys {
		var re strings.Builder
		re.WriteString("^")
		last := 0
		for _, m := range verb.FindAllStringIndex(k, -1) {
			re.WriteString(regexp.QuoteMeta(k[last:m[0]]))
			switch v := k[m[0]:m[1]]; v[len(v)-1] {
			case '%':
				re.WriteString("%")
			case 'd':
				re.WriteString(`(-?\d+)`)
			case 'f', 'g', 'e':
				re.WriteString(`(-?[\d.]+)`)
			default:
				re.WriteString(`(.+?)`)
			}
			last = m[1]
		}
		re.WriteString(regexp.QuoteMeta(k[last:]) + "$")
		to := verb.ReplaceAllStringFunc(words[k], func(v string) string {
			if v == "%%" {
				return v
			}
			return "%s"
		})
		out = append(out, format{re: regexp.MustCompile(re.String()), to: to})
	}
	return out
}

// codes are the words of fixed vocabularies the pages print as they come
// from memory's machinery — answer kinds, fates, statuses, depths,
// parameter kinds, plan statuses, night steps and the values a new
// plan-fact page starts with: Word translates these and nothing else, so
// a person's own stage or next step is never taken for a phrase.
var codes = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]string{
		{blackbox.KindAffirmative, blackbox.KindProbabilistic, blackbox.KindParamDep, blackbox.KindNone},
		{blackbox.FateAccepted, blackbox.FateNotSupported, blackbox.FateBadForm},
		{blackbox.StatusAnswered, blackbox.StatusEmpty, blackbox.StatusSkipped, blackbox.StatusError},
		{"unknown"}, // an item's scope fit
		planfact.PlanStatuses,
		{planfact.TemplateStage, planfact.TemplateNext, planfact.TemplateSummary},
		night.Steps,
	} {
		for _, c := range list {
			out[c] = true
		}
	}
	// The request contract's parameter kinds and choices (depth's
	// standard, deep, extreme).
	for _, p := range blackbox.Params(blackbox.VerbRecall) {
		out[p.Kind] = true
		for _, c := range p.Choices {
			out[c.Value] = true
		}
	}
	return out
})

// Word translates a word of a fixed vocabulary (codes); anything else is
// shown as it is.
func (l *language) Word(s string) string {
	if codes()[s] {
		return l.T(s)
	}
	return s
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
	// The dashboard's counts, whose words agree with the number.
	"registered project": {[]string{"project registered", "projects registered"}, []string{"проект зарегистрирован", "проекта зарегистрированы", "проектов зарегистрировано"}},
	"active":             {[]string{"active", "active"}, []string{"активный", "активных", "активных"}},
	"paused":             {[]string{"paused", "paused"}, []string{"на паузе", "на паузе", "на паузе"}},
	"recently completed": {[]string{"recently completed", "recently completed"}, []string{"недавно завершён", "недавно завершены", "недавно завершено"}},
	"day compiled":       {[]string{"day compiled", "days compiled"}, []string{"день собран", "дня собрано", "дней собрано"}},
	"cached":             {[]string{"cached", "cached"}, []string{"из кэша", "из кэша", "из кэша"}},
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
		"note":     l.Note,
		"word":     l.Word,
		"level":    func(n int) string { return l.T(levelWords[n]) },
		"kindText": func(k string) string { return l.T(kindWords[k]) },
		"lower":    strings.ToLower,
	}
}
