package secrets

import (
	"regexp"
	"strings"
)

var emailRe = lazyRegexp(`^([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b`)

func isLocalByte(c byte) bool { return isWordByte(c) || strings.IndexByte(".%+-", c) >= 0 }

var (
	placeholderDomains = []string{"example.com", "example.org", "example.net", "domain.com", "yourdomain.com", "email.com", "mail.com", "company.com", "acme.com", "localhost"}
	placeholderTLDs    = map[string]bool{"example": true, "test": true, "invalid": true, "localhost": true, "local": true}
	fileExts           = map[string]bool{"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "avif": true, "ico": true, "bmp": true}
	placeholderLocals  = map[string]bool{"user": true, "username": true, "name": true, "you": true, "your.name": true, "yourname": true, "email": true, "john.doe": true, "jane.doe": true, "someone": true, "git": true, "foo": true}
)

func findEmails(text string) []match {
	var out []match
	var starts []int
	for i := 0; i < len(text); i++ {
		if text[i] == '@' {
			s := i
			for s > 0 && isLocalByte(text[s-1]) {
				s--
			}
			if s < i && (len(starts) == 0 || starts[len(starts)-1] != s) {
				starts = append(starts, s)
			}
		}
	}
	for _, m := range anchored(text, starts, 320, emailRe()) {
		v := strings.ToLower(text[m[2]:m[3]])
		at := strings.LastIndex(v, "@")
		local, domain := v[:at], v[at+1:]
		tld := domain[strings.LastIndex(domain, ".")+1:]
		if placeholderTLDs[tld] || fileExts[tld] || placeholderLocals[local] || strings.HasPrefix(local, ".") {
			continue
		}
		skip := false
		for _, d := range placeholderDomains {
			if domain == d || strings.HasSuffix(domain, "."+d) {
				skip = true
			}
		}
		if !skip {
			out = append(out, match{m[2], m[3]})
		}
	}
	return out
}

// Russian numbers: +7 or 8, a code starting 3, 4, 8 or 9, then 3-2-2
// digits. A leading 8 needs a separator somewhere, so that plain long
// numbers (IDs, counters) stay silent.
var ruPhoneRe = lazyRegexp(`^((?:\+7|8)[ \-]?(?:\([3489]\d{2}\)|[3489]\d{2})[ \-]?\d{3}[ \-]?\d{2}[ \-]?\d{2})(?:[^\w\-.]|[.\-]\D|[.\-]?$)`)

func findRussianPhones(text string) []match {
	var out []match
	starts := positions(text, func(i int) bool {
		return (text[i] == '8' || text[i] == '+' && i+1 < len(text) && text[i+1] == '7') && (i == 0 || !isWordByte(text[i-1]) && text[i-1] != '+')
	})
	for _, m := range anchored(text, starts, 64, ruPhoneRe()) {
		v := text[m[2]:m[3]]
		if v[0] == '8' && !strings.ContainsAny(v, " -(") {
			continue
		}
		if fakeDigits(digitsOf(v)[1:]) {
			continue
		}
		out = append(out, match{m[2], m[3]})
	}
	return out
}

// International numbers need the + and a country code; 8 to 15 digits in
// all (E.164), in groups separated by a space, dot or dash.
var intlPhoneRe = lazyRegexp(`^(\+[1-9]\d{0,2}[ .\-]?(?:\(\d{1,4}\)[ .\-]?)?\d{1,4}(?:[ .\-]?\d{1,4}){1,5})(?:[^\w\-.]|[.\-]\D|[.\-]?$)`)

func findIntlPhones(text string) []match {
	var out []match
	starts := positions(text, func(i int) bool {
		return text[i] == '+' && i+1 < len(text) && text[i+1] >= '1' && text[i+1] <= '9' && (i == 0 || !isWordByte(text[i-1]) && text[i-1] != '+')
	})
	for _, m := range anchored(text, starts, 64, intlPhoneRe()) {
		v := text[m[2]:m[3]]
		d := digitsOf(v)
		if len(d) < 8 || len(d) > 15 || fakeDigits(d[2:]) {
			continue
		}
		if strings.Count(v, ".") > 0 && strings.Count(v, " ") == 0 && strings.Count(v, "-") == 0 {
			continue // dotted only: more like a version or an address
		}
		out = append(out, match{m[2], m[3]})
	}
	return out
}

func digitsOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// fakeDigits spots stand-ins: one digit repeated, or runs like 1234567.
func fakeDigits(d string) bool {
	if len(d) == 0 {
		return true
	}
	if strings.Count(d, d[:1]) == len(d) {
		return true
	}
	return strings.Contains("01234567890", d) || strings.Contains("98765432109", d)
}

var cardRe = lazyRegexp(`^((?:\d[ \-]?){12,18}\d)(?:[^\w\-]|[.,]\D|[.,]?$|-\D)`)

var testCards = map[string]bool{
	"4111111111111111": true, "4242424242424242": true, "5555555555554444": true, "4000056655665556": true,
	"378282246310005": true, "5105105105105100": true, "4012888888881881": true, "371449635398431": true,
	"6011111111111117": true, "3530111333300000": true, "2200000000000004": true,
}

func findCards(text string) []match {
	var out []match
	starts := positions(text, func(i int) bool {
		if !isDigit(text[i]) || i > 0 && (isWordByte(text[i-1]) || strings.IndexByte(".,-+", text[i-1]) >= 0) {
			return false
		}
		digits := 0
		for j := i; j < len(text) && j < i+38 && (isDigit(text[j]) || text[j] == ' ' || text[j] == '-'); j++ {
			if isDigit(text[j]) {
				digits++
			}
		}
		return digits >= 13
	})
	for _, m := range anchored(text, starts, 64, cardRe()) {
		v := text[m[2]:m[3]]
		d := digitsOf(v)
		if len(d) < 13 || len(d) > 19 || !luhn(d) || testCards[d] || fakeDigits(d) || !cardPrefix(d) || !cardGrouping(v) {
			continue
		}
		out = append(out, match{m[2], m[3]})
	}
	return out
}

// cardPrefix checks the issuer range: Visa, Mastercard, Mir, Amex, JCB,
// Diners, Discover, UnionPay, Maestro.
func cardPrefix(d string) bool {
	p2 := d[:2]
	p4 := d[:4]
	switch {
	case d[0] == '4':
		return true
	case p2 >= "51" && p2 <= "55", p4 >= "2221" && p4 <= "2720", p4 >= "2200" && p4 <= "2204":
		return true
	case p2 == "34", p2 == "37", p2 == "35", p2 == "36", p2 == "38", p2 == "30", p2 == "62", p2 == "60", p2 == "65", p2 == "64":
		return true
	case p2 == "50", p2 >= "56" && p2 <= "58", p2 == "63", p2 == "67":
		return true
	}
	return false
}

// cardGrouping accepts one separator kind and groups of 3 to 6 digits
// (4-4-4-4, 4-6-5, 4-4-4-4-3) or no separators at all.
func cardGrouping(v string) bool {
	sep := ""
	if strings.Contains(v, " ") {
		sep = " "
	}
	if strings.Contains(v, "-") {
		if sep != "" {
			return false
		}
		sep = "-"
	}
	if sep == "" {
		return true
	}
	for _, g := range strings.Split(v, sep) {
		if len(g) < 3 || len(g) > 6 {
			return false
		}
	}
	return true
}

func luhn(d string) bool {
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

// A Russian passport: series (4 digits, often "45 06") and number (6)
// after the word «паспорт» (or «серия», "passport") on the same line.
var passportRe = lazyRegexp(`(?i)^(?:паспорт[а-яё]*|passport|серия)[^\n\d]{0,40}?(\d{2} ?\d{2})[ \t]*(?:№|N|No\.?|номер|number)?[ \t]*(\d{6})(?:\D|$)`)

func findPassports(text string) []match {
	var out []match
	starts := keywordStarts(foldLower(text), "паспорт", "passport", "серия")
	for _, m := range anchored(text, starts, 200, passportRe()) {
		series, number := digitsOf(text[m[2]:m[3]]), text[m[4]:m[5]]
		if fakeDigits(series+number) || series == "0000" || number == "000000" {
			continue
		}
		out = append(out, match{m[2], m[5]})
	}
	return out
}

// An INN is 10 digits (organisation) or 12 (person) with check digits;
// it is looked for after «ИНН» (or "INN", "TIN"), since any tenth number
// passes the 10-digit check by chance.
var innRe = lazyRegexp(`(?i)^(?:ИНН|INN|TIN|налогоплательщик[а-яё]*)[^\n\d]{0,20}?(\d{12}|\d{10})(?:\D|$)`)

func findINN(text string) []match {
	var out []match
	starts := keywordStarts(foldLower(text), "инн", "inn", "tin", "налогоплательщик")
	for _, m := range anchored(text, starts, 200, innRe()) {
		if ValidINN(text[m[2]:m[3]]) && !fakeDigits(text[m[2]:m[3]]) {
			out = append(out, match{m[2], m[3]})
		}
	}
	return out
}

// ValidINN checks the check digits of a 10- or 12-digit INN.
func ValidINN(d string) bool {
	check := func(w []int) int {
		s := 0
		for i, k := range w {
			s += k * int(d[i]-'0')
		}
		return s % 11 % 10
	}
	switch len(d) {
	case 10:
		return check([]int{2, 4, 10, 3, 5, 9, 4, 6, 8}) == int(d[9]-'0')
	case 12:
		return check([]int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == int(d[10]-'0') &&
			check([]int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == int(d[11]-'0')
	}
	return false
}

// SNILS is "XXX-XXX-XXX YY" anywhere, or 11 digits after «СНИЛС».
var (
	snilsRe    = lazyRegexp(`^(\d{3}-\d{3}-\d{3}[ \-]\d{2})`)
	snilsCtxRe = lazyRegexp(`(?i)^(?:СНИЛС|SNILS)[^\n\d]{0,20}?(\d{3} ?\d{3} ?\d{3} ?\d{2})(?:\D|$)`)
)

func findSNILS(text string) []match {
	var out []match
	bare := positions(text, func(i int) bool {
		return i+3 < len(text) && text[i+3] == '-' && isDigit(text[i]) && (i == 0 || !isDigit(text[i-1]) && text[i-1] != '-')
	})
	for _, pass := range []struct {
		re     *regexp.Regexp
		starts []int
	}{{snilsRe(), bare}, {snilsCtxRe(), keywordStarts(foldLower(text), "снилс", "snils")}} {
		re := pass.re
		for _, m := range anchored(text, pass.starts, 120, re) {
			if re == snilsRe() && (m[2] > 0 && strings.ContainsRune("0123456789-", rune(text[m[2]-1])) ||
				m[3] < len(text) && strings.ContainsRune("0123456789-", rune(text[m[3]]))) {
				continue // part of a longer number
			}
			d := digitsOf(text[m[2]:m[3]])
			if len(d) == 11 && ValidSNILS(d) && !fakeDigits(d[:9]) {
				out = append(out, match{m[2], m[3]})
			}
		}
	}
	return out
}

// ValidSNILS checks the control number of an 11-digit SNILS.
func ValidSNILS(d string) bool {
	if len(d) != 11 {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(d[i]-'0') * (9 - i)
	}
	c := sum
	if sum >= 100 {
		c = sum % 101
		if c == 100 {
			c = 0
		}
	}
	return c == int(d[9]-'0')*10+int(d[10]-'0')
}
