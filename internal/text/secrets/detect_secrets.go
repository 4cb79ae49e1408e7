package secrets

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// detectors run in priority order: on overlapping hits the earlier one
// wins, so provider-specific patterns come before generic ones.
var detectors = []detector{
	{"private-key", Secret, []string{"private key"}, findPrivateKeys},
	{"aws-access-key", Secret, []string{"akia", "asia", "abia", "acca"}, group(`\b((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b`, 1, 4)},
	{"aws-secret-key", Secret, []string{"aws"}, group(`(?i)aws[\w.-]{0,30}?(?:secret|sk)[\w.-]{0,20}["']?\s*(?:=>|[:=])\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`, 1, 0)},
	{"github-token", Secret, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, group(`\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b`, 1, 4)},
	{"gitlab-token", Secret, []string{"glpat-"}, group(`\b(glpat-[A-Za-z0-9_-]{20})(?:[^A-Za-z0-9_-]|$)`, 1, 6)},
	{"slack-token", Secret, []string{"xox"}, group(`\b(xox[abposr]-[A-Za-z0-9-]{10,})`, 1, 5)},
	{"slack-webhook", Secret, []string{"hooks.slack.com"}, group(`(https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{16,})`, 1, 35)},
	{"stripe-key", Secret, []string{"_live_"}, group(`\b((?:sk|rk)_live_[A-Za-z0-9]{20,})`, 1, 8)},
	{"anthropic-key", Secret, []string{"sk-ant-"}, group(`\b(sk-ant-[A-Za-z0-9_-]{32,})`, 1, 7)},
	{"openai-key", Secret, []string{"sk-"}, findOpenAI},
	{"google-api-key", Secret, []string{"aiza"}, group(`\b(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`, 1, 4)},
	{"twilio-key", Secret, nil, group(`\b((?:SK|AC)[0-9a-f]{32})\b`, 1, 2)},
	{"sendgrid-key", Secret, []string{"sg."}, group(`\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?:[^A-Za-z0-9_-]|$)`, 1, 3)},
	{"npm-token", Secret, []string{"npm_"}, group(`\b(npm_[A-Za-z0-9]{36})\b`, 1, 4)},
	{"telegram-bot-token", Secret, []string{":aa"}, group(`\b(\d{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`, 1, 13)},
	{"jwt", Secret, []string{"eyj"}, group(`\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`, 1, 0)},
	{"connection-string", Secret, []string{"://", "password", "pwd"}, findConnectionStrings},
	{"url-password", Secret, []string{"://"}, findURLPasswords},
	{"cli-password", Secret, []string{"mysql", "mariadb", "mongo", "redis-cli", "sshpass", "clickhouse", "ldap", "curl", "smbclient"}, findCLIPasswords},
	{"url-query-secret", Secret, []string{"="}, findQueryParams},
	{"auth-header", Secret, []string{"authorization", "bearer"}, findAuthHeaders},
	{"password", Secret, []string{"pass", "pwd", "identified", "пароль"}, findDBPasswords},
	{"password", Secret, []string{":"}, findPgpass},
	{"password", Secret, []string{"pass", "pwd", "pw", "пароль"}, findAssignments(true)},
	{"password", Secret, []string{"pass", "пароль"}, findPasswordProse},
	{"secret-assignment", Secret, []string{"secret", "token", "key", "credential", "секрет", "токен"}, findAssignments(false)},
	// crypt(3) password hashes (/etc/shadow, htpasswd): md5, bcrypt,
	// sha256/sha512-crypt, yescrypt, scrypt, argon2. A hash is a password
	// in waiting: offline cracking turns a weak one back into the password.
	{"password-hash", Secret, []string{"$1$", "$2", "$5$", "$6$", "$y$", "$7$", "$gy$", "$argon2"}, group(`(\$(?:1|2[abxy]|5|6|y|gy|7|argon2(?:id|i|d))\$[./A-Za-z0-9$=,+-]{20,})`, 1, 0)},
	{"service-token", Secret, []string{"_", "-", "."}, findPrefixedTokens},
	{"high-entropy", Secret, nil, findHighEntropy},
	// Personal data (pii.go).
	{"email", PII, []string{"@"}, findEmails},
	{"card-number", PII, nil, findCards},
	{"passport-ru", PII, []string{"паспорт", "passport", "серия"}, findPassports},
	{"inn", PII, []string{"инн", "inn", "tin", "налогоплательщик"}, findINN},
	{"snils", PII, nil, findSNILS},
	{"phone", PII, nil, findRussianPhones},
	{"phone", PII, nil, findIntlPhones},
}

// lazyRegexp compiles expr on first use: every hook process links this
// package, and most never scan anything.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// group returns a finder for a regexp's submatch, skipping placeholder
// values; skip is the length of a fixed prefix left out of the
// placeholder test.
func group(expr string, n, skip int) func(string) []match {
	re := lazyRegexp(expr)
	return func(text string) []match {
		var out []match
		for _, m := range re().FindAllStringSubmatchIndex(text, -1) {
			s, e := m[2*n], m[2*n+1]
			if s < 0 {
				continue
			}
			if isPlaceholder(text[min(s+skip, e):e]) {
				continue
			}
			out = append(out, match{s, e})
		}
		return out
	}
}

var placeholderParts = []string{
	"example", "xxxx", "your", "placeholder", "dummy", "sample", "redacted", "changeme",
	"change_me", "change-me", "replace", "fake", "<", ">", "{{", "${", "...", "…", "****",
	"todo", "insert", "_here", "-here", "lorem", "foobar", "secret123", "password123",
}

// placeholderPart reports whether v holds a word or mark of a stand-in.
func placeholderPart(v string) bool {
	l := strings.ToLower(v)
	for _, p := range placeholderParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

var placeholderWords = map[string]bool{
	"password": true, "passwd": true, "secret": true, "token": true, "null": true, "nil": true,
	"none": true, "true": true, "false": true, "undefined": true, "test": true, "empty": true,
	"string": true, "required": true, "optional": true, "hidden": true, "masked": true,
	"пароль": true, "секрет": true, "токен": true,
}

// isPlaceholder tells documentation values and stand-ins from real ones.
func isPlaceholder(v string) bool {
	l := strings.ToLower(strings.Trim(v, `"'`+"`"))
	if placeholderWords[l] || placeholderPart(l) {
		return true
	}
	distinct := map[rune]bool{}
	run, longest, prev := 0, 0, rune(-1)
	for _, c := range l {
		distinct[c] = true
		if c == prev {
			run++
		} else {
			run = 1
		}
		prev = c
		longest = max(longest, run)
	}
	return len(distinct) <= 3 || longest >= 6
}

var privateKeyRe = lazyRegexp(`-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----`)

// findPrivateKeys covers the whole block up to its END line (or the end of
// the text when it is cut), so that redaction removes all of it.
func findPrivateKeys(text string) []match {
	var out []match
	for _, m := range privateKeyRe().FindAllStringSubmatchIndex(text, -1) {
		end := len(text)
		if i := strings.Index(text[m[1]:], "-----END "); i >= 0 {
			end = m[1] + i
			if j := strings.Index(text[end+9:], "-----"); j >= 0 {
				end += 9 + j + 5
			}
		}
		body := strings.TrimSpace(text[m[1]:end])
		if i := strings.Index(body, "-----END"); i >= 0 {
			body = body[:i]
		}
		// Only the placeholder words count here: a real key's base64
		// holds long runs of one letter (OpenSSH's "AAAAAA…" lengths).
		if len(strings.TrimSpace(body)) < 16 || placeholderPart(body) {
			continue // a header quoted in prose, or "..."
		}
		out = append(out, match{m[0], end})
	}
	return out
}

var openAIRe = lazyRegexp(`\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})`)

func findOpenAI(text string) []match {
	var out []match
	for _, m := range openAIRe().FindAllStringSubmatchIndex(text, -1) {
		v := text[m[2]:m[3]]
		if strings.HasPrefix(v, "sk-ant-") || isPlaceholder(v[3:]) || !mixed(v[3:]) {
			continue
		}
		out = append(out, match{m[2], m[3]})
	}
	return out
}

// mixed reports whether s holds upper case, lower case and digits, as
// generated keys do and words and identifiers mostly do not.
func mixed(s string) bool {
	var up, lo, dig bool
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			lo = true
		case c >= '0' && c <= '9':
			dig = true
		}
	}
	return up && lo && dig
}

// In a URL the user may be empty (redis://:pw@host) and the password
// may hold '@': it runs to the last '@' before the host.
var (
	dbURLRe  = lazyRegexp(`(?i)\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|clickhouse|oracle|jdbc:[a-z]+)://[^\s:/@]*:([^\s/]+)@[^\s/@]`)
	adoRe    = lazyRegexp(`(?i)(?:server|data source|host|address)\s*=[^;\n]+;[^\n]*?\b(?:password|pwd)\s*=\s*([^;\s"']+)`)
	anyURLRe = lazyRegexp(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:([^\s/]+)@[^\s/@]`)
)

func findConnectionStrings(text string) []match {
	var out []match
	keep := func(m []int, base int) {
		if v := text[base+m[2] : base+m[3]]; !isPlaceholder(v) && !strings.HasPrefix(v, "$") {
			out = append(out, match{base + m[2], base + m[3]})
		}
	}
	linesWith(text, func(line string, offset int) {
		for _, m := range dbURLRe().FindAllStringSubmatchIndex(line, -1) {
			keep(m, offset)
		}
	}, "://", "@")
	// ADO-style strings sit on one line; only lines naming a password pay
	// for the regexp.
	linesWith(text, func(line string, offset int) {
		if l := strings.ToLower(line); strings.Contains(l, "password") || strings.Contains(l, "pwd") {
			for _, m := range adoRe().FindAllStringSubmatchIndex(line, -1) {
				keep(m, offset)
			}
		}
	}, ";", "=")
	return out
}

func findURLPasswords(text string) []match {
	var out []match
	linesWith(text, func(line string, offset int) {
		for _, m := range anyURLRe().FindAllStringSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; !isPlaceholder(v) && !strings.HasPrefix(v, "$") {
				out = append(out, match{offset + m[2], offset + m[3]})
			}
		}
	}, "://", "@")
	return out
}

// assignRe finds "<identifier> = value" in code, config and prose
// ("password: ...", "DB_PASSWORD=...", "\"api_key\": \"...\"").
// The regexp starts at the separator (a literal, which Go's regexp finds
// fast); the identifier before it is read backwards by hand.
var assignRe = lazyRegexp(`(?:[:=]|=>)[ \t]*(["'` + "`" + `]?)([^\s"'` + "`" + `,;<>()\[\]{}]+)`)

// identBefore returns the identifier ending just before i, skipping a
// closing quote and blanks ("\"api_key\" :").
func identBefore(text string, i int) string {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j > 0 && (text[j-1] == '"' || text[j-1] == '\'') {
		j--
	}
	end := j
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:j])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-') {
			break
		}
		j -= size
	}
	return text[j:end]
}

var (
	passwordWords = map[string]bool{"password": true, "passwd": true, "passphrase": true, "pwd": true, "pass": true, "pw": true, "пароль": true}
	secretWords   = map[string]bool{"secret": true, "token": true, "apikey": true, "accesskey": true, "privatekey": true, "credential": true, "credentials": true, "секрет": true, "токен": true}
	keyPairs      = map[string]bool{"api": true, "access": true, "private": true, "secret": true, "signing": true, "encryption": true, "master": true, "client": true}
	weakPasswords = map[string]bool{"qwerty": true, "letmein": true, "iloveyou": true, "monkey": true, "dragon": true, "qwertyuiop": true, "admin": true, "welcome": true}
)

// identParts splits an identifier on punctuation and camelCase, lower-cased.
func identParts(id string) []string {
	var parts []string
	var cur []rune
	rs := []rune(id)
	for i, c := range rs {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			if len(cur) > 0 {
				parts = append(parts, strings.ToLower(string(cur)))
			}
			cur = cur[:0]
			continue
		}
		if i > 0 && unicode.IsUpper(c) && unicode.IsLower(rs[i-1]) && len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
		cur = append(cur, c)
	}
	if len(cur) > 0 {
		parts = append(parts, strings.ToLower(string(cur)))
	}
	return parts
}

// keyClass says whether an identifier names a password (1), another
// secret (2) or neither (0). Only the identifier's last word or pair
// counts: "token_count" and "password_hint" are not secrets.
func keyClass(id string) int {
	p := identParts(id)
	if len(p) == 0 {
		return 0
	}
	last := p[len(p)-1]
	if passwordWords[last] {
		return 1
	}
	if secretWords[last] {
		return 2
	}
	if last == "key" && len(p) >= 2 && keyPairs[p[len(p)-2]] {
		return 2
	}
	// One word run together, as environment variables are (PGPASSWORD,
	// CLIENTSECRET, AUTHTOKEN); short suffixes (pass, pwd) are left out:
	// bypass, OLDPWD.
	for _, w := range []string{"password", "passwd", "passphrase"} {
		if strings.HasSuffix(last, w) {
			return 1
		}
	}
	for _, w := range []string{"secret", "token"} {
		if strings.HasSuffix(last, w) {
			return 2
		}
	}
	return 0
}

// passwordProseRe finds a password said in a sentence: "the db password is
// X", "пароль от базы: X". Only a value that mixes upper and lower case and
// digits counts: prose around it is made of words.
var passwordProseRe = lazyRegexp(`(?i)(?:password|passwd|passphrase|пароль)(?:[ \t]+[^\s:=]+){0,3}?[ \t]*(?:[ \t](?:is|was|это)[ \t]|:|—|=)[ \t]*["'«]?([^\s"'»,;]+)`)

func findPasswordProse(text string) []match {
	var out []match
	for _, m := range passwordProseRe().FindAllStringSubmatchIndex(text, -1) {
		v := strings.TrimRight(text[m[2]:m[3]], ".!?)")
		if len(v) >= 8 && mixed(v) && secretValue(v, true) {
			out = append(out, match{m[2], m[2] + len(v)})
		}
	}
	return out
}

func findAssignments(passwords bool) func(string) []match {
	return func(text string) []match {
		var out []match
		for _, m := range assignRe().FindAllStringSubmatchIndex(text, -1) {
			if m[0] > 0 && text[m[0]-1] == ':' {
				continue // the second colon of "::" or of a URL's "://"
			}
			class := keyClass(identBefore(text, m[0]))
			if class == 0 || (class == 1) != passwords {
				continue
			}
			s, e := m[4], m[5]
			v := text[s:e]
			if m[3] > m[2] { // quoted: drop a closing quote the value class let through
				v = strings.TrimRight(v, `"'`)
			}
			if !secretValue(v, class == 1) {
				continue
			}
			out = append(out, match{s, s + len(v)})
		}
		return out
	}
}

// secretValue decides whether an assigned value looks real: long enough,
// not a placeholder or a reference to somewhere else, and not a plain word.
func secretValue(v string, password bool) bool {
	if len(v) < 6 || isPlaceholder(v) {
		return false
	}
	if strings.ContainsAny(v, "$%") || strings.Contains(v, "://") || strings.HasPrefix(v, "/") ||
		strings.HasPrefix(strings.ToLower(v), "env.") || strings.HasPrefix(v, "process.") || strings.HasPrefix(v, "os.") {
		return false
	}
	var letters, digits, other, upper, lower int
	for _, c := range v {
		switch {
		case unicode.IsDigit(c):
			digits++
		case unicode.IsLetter(c):
			letters++
			if c > unicode.MaxASCII {
				return false // prose in another alphabet, not a generated value
			}
			if unicode.IsUpper(c) {
				upper++
			} else {
				lower++
			}
		default:
			other++
		}
	}
	if password {
		if letters == 0 && other == 0 {
			return len(v) >= 6 // a numeric password
		}
		if digits == 0 && other == 0 && (upper == 0 || lower == 0) {
			// One case of letters: a weak password, or a passphrase run
			// together (longer than the words prose puts after "password:").
			return weakPasswords[strings.ToLower(v)] || len(v) >= 14
		}
		return true
	}
	if letters == 0 || digits == 0 {
		return false // plain numbers and words: limits, counts, names
	}
	// A value a person chose ("hunter2isgood") is letters and digits only;
	// names of files and identifiers carry '_', '.' or '-'.
	return len(v) >= 16 || (len(v) >= 8 && mixed(v)) || (len(v) >= 12 && other == 0)
}

var (
	keyContext  = []string{"key", "secret", "token", "credential", "auth", "signature", "salt", "bearer", "пароль", "ключ", "токен", "секрет"}
	candidateRe = lazyRegexp(`[A-Za-z0-9+/_=-]{20,}`)
)

// findHighEntropy flags long random-looking strings on lines that speak of
// keys, secrets or tokens.
func findHighEntropy(text string) []match {
	var out []match
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if containsAny(strings.ToLower(line), keyContext) {
			for _, m := range candidateRe().FindAllStringIndex(line, -1) {
				if inLink(line, m[0]) {
					continue // a URL's path or query is an address, not a key
				}
				v := strings.TrimRight(line[m[0]:m[1]], "=")
				if randomLooking(v) {
					out = append(out, match{offset + m[0], offset + m[0] + len(v)})
				}
			}
		}
		offset += len(line)
	}
	return out
}

// inLink reports whether position i of line lies in a URL: the word
// holding it (back to a space, quote, bracket or parenthesis) has a scheme
// or starts with www.
func inLink(line string, i int) bool {
	start := strings.LastIndexAny(line[:i], " \t\"'<([`") + 1
	word := line[start:i]
	return strings.Contains(word, "://") || strings.HasPrefix(word, "www.")
}

// Entropy is the Shannon entropy of s in bits per character.
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

// randomLooking applies the entropy threshold: hex needs 32 characters and
// 3 bits per character; other alphabets 20 characters, 4 bits, upper and
// lower case and digits, and frequent changes of character class (which
// identifiers and words lack).
func randomLooking(v string) bool {
	if len(v) < 20 || isPlaceholder(v) || strings.Contains(v, "//") || strings.HasPrefix(v, "/") {
		return false
	}
	if isHex(v) {
		return len(v) >= 32 && Entropy(v) >= 3.0 && strings.ContainsAny(v, "abcdefABCDEF") && strings.ContainsAny(v, "0123456789")
	}
	if !mixed(v) || Entropy(v) < 4.0 {
		return false
	}
	changes := 0
	for i := 1; i < len(v); i++ {
		if class(v[i]) != class(v[i-1]) {
			changes++
		}
	}
	return float64(changes)/float64(len(v)) >= 0.3
}

func class(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return 0
	case c >= 'A' && c <= 'Z':
		return 1
	case c >= '0' && c <= '9':
		return 2
	}
	return 3
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func containsAny(s string, needles []string) bool {
	for _, n := range needles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}
