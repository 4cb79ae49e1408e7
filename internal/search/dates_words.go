package search

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The words and calendar arithmetic [ParseDates] reads dates with.

// notPast words before a weekday make it a plan or a habit, not a day
// gone by: "next Monday", "every Friday", «на понедельник».
var notPast = map[string]bool{
	"next": true, "every": true, "each": true, "until": true, "till": true, "by": true,
	"на": true, "следующий": true, "следующую": true, "следующее": true, "каждый": true, "каждую": true, "каждое": true,
}

// monthPreps make a month name alone a date: "in May", «в мае».
var monthPreps = map[string]bool{"in": true, "during": true, "в": true, "во": true}

// datePreps are prepositions a date takes with it out of the query.
var datePreps = map[string]bool{"on": true, "in": true, "during": true, "в": true, "во": true, "на": true, "за": true}

func dayRange(y, m, d int) (DayRange, bool) {
	if y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1 {
		return DayRange{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return DayRange{}, false // 31 February
	}
	return DayRange{t, t}, true
}

func monthRange(y, m int) (DayRange, bool) {
	if y < 1900 || y > 2199 || m < 1 || m > 12 {
		return DayRange{}, false
	}
	first := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
	return DayRange{first, first.AddDate(0, 1, -1)}, true
}

// isoWeek is ISO week w of year y, Monday to Sunday (week 1 holds 4 January).
func isoWeek(y, w int) (DayRange, bool) {
	if y < 1900 || y > 2199 || w < 1 || w > 53 {
		return DayRange{}, false
	}
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	mon := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+7*(w-1))
	if wy, _ := mon.ISOWeek(); wy != y {
		return DayRange{}, false // week 53 of a 52-week year
	}
	return DayRange{mon, mon.AddDate(0, 0, 6)}, true
}

// lastWeekday is the most recent day with weekday wd, today included or not.
func lastWeekday(t time.Time, wd time.Weekday, includeToday bool) time.Time {
	back := (int(t.Weekday()) - int(wd) + 7) % 7
	if back == 0 && !includeToday {
		back = 7
	}
	return t.AddDate(0, 0, -back)
}

var ordinalRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,2})(st|nd|rd|th|го|е|ое|ого)?$`) })

func dayNumber(w string) (int, bool) {
	m := ordinalRe().FindStringSubmatch(w)
	if m == nil {
		return 0, false
	}
	d, _ := strconv.Atoi(m[1])
	return d, d >= 1 && d <= 31
}

func yearNumber(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(w)
	return y, err == nil && y >= 1900 && y <= 2199
}

var ruOrdinal = map[string]bool{"го": true, "е": true, "ое": true, "ого": true}

var countWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"один": 1, "одну": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
}

func countWord(w string) (int, bool) {
	if n, ok := countWords[w]; ok {
		return n, true
	}
	if len(w) <= 3 && w != "" && strings.Trim(w, "0123456789") == "" {
		n, _ := strconv.Atoi(w)
		return n, true
	}
	return 0, false
}

type dateUnit struct {
	unit string
	bare bool // "неделю назад": the unit alone means one
}

var dateUnits = map[string]dateUnit{
	"day": {"day", false}, "days": {"day", false}, "week": {"week", false}, "weeks": {"week", false},
	"month": {"month", false}, "months": {"month", false}, "year": {"year", false}, "years": {"year", false},
	"день": {"day", true}, "дня": {"day", false}, "дней": {"day", false},
	"неделю": {"week", true}, "недели": {"week", false}, "недель": {"week", false}, "неделя": {"week", false}, "неделе": {"week", false},
	"месяц": {"month", true}, "месяца": {"month", false}, "месяцев": {"month", false}, "месяце": {"month", false},
	"год": {"year", true}, "года": {"year", false}, "лет": {"year", false}, "году": {"year", false},
}

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
	"понедельник": time.Monday, "вторник": time.Tuesday, "среда": time.Wednesday, "среду": time.Wednesday,
	"четверг": time.Thursday, "пятница": time.Friday, "пятницу": time.Friday, "суббота": time.Saturday,
	"субботу": time.Saturday, "воскресенье": time.Sunday,
}

var months = map[string]int{}

// abbrevMonth marks the short forms, which may carry a dot (Oct. 13).
var abbrevMonth = map[string]bool{}

func init() {
	full := [][]string{
		{"january", "январь", "января", "январе"}, {"february", "февраль", "февраля", "феврале"},
		{"march", "март", "марта", "марте"}, {"april", "апрель", "апреля", "апреле"},
		{"may", "май", "мая", "мае"}, {"june", "июнь", "июня", "июне"}, {"july", "июль", "июля", "июле"},
		{"august", "август", "августа", "августе"}, {"september", "сентябрь", "сентября", "сентябре"},
		{"october", "октябрь", "октября", "октябре"}, {"november", "ноябрь", "ноября", "ноябре"},
		{"december", "декабрь", "декабря", "декабре"},
	}
	short := [][]string{
		{"jan", "янв"}, {"feb", "фев"}, {"mar", "мар"}, {"apr", "апр"}, {}, {"jun", "июн"}, {"jul", "июл"},
		{"aug", "авг"}, {"sep", "sept", "сен", "сент"}, {"oct", "окт"}, {"nov", "ноя", "нояб"}, {"dec", "дек"},
	}
	for i := range full {
		for _, w := range full[i] {
			months[w] = i + 1
		}
		for _, w := range short[i] {
			months[w] = i + 1
			abbrevMonth[w] = true
		}
	}
}

func monthWord(w string) (int, bool) {
	m, ok := months[w]
	return m, ok
}
