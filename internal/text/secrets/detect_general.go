package secrets

import (
	"regexp"
	"strings"
)

type regexpT = regexp.Regexp

// General rules: shapes a secret takes whichever service or database
// issued it, so that a provider or a client nobody listed is still found.
// A service token is a short prefix naming its issuer and a long random
// body; a database password sits in a URL, a .pgpass line, an SQL
// statement, an XML element, a command-line flag or an HTTP header.

// hashNames are prefixes of digests and identifiers, not of tokens: an
// object id "sha256-<hex>", "commit-<hex>", a model API's message, tool
// call and request ids (msg_…, toolu_…, req_…, chatcmpl-…), a payment
// API's object ids (pi_…, cus_…).
var hashNames = map[string]bool{
	"msg": true, "toolu": true, "srvtoolu": true, "req": true, "request": true, "file": true, "call": true,
	"chatcmpl": true, "resp": true, "asst": true, "thread": true, "batch": true, "evt": true, "event": true,
	"pi": true, "ch": true, "cus": true, "sub": true, "price": true, "prod": true, "txn": true, "seti": true,
	"pm": true, "src": true, "in": true, "acct": true, "org": true, "user": true, "team": true, "ws": true,
	"sha": true, "sha1": true, "sha224": true, "sha256": true, "sha384": true, "sha512": true,
	"md5": true, "blake2b": true, "blake2s": true, "blake3": true, "xxh64": true, "crc32": true,
	"commit": true, "rev": true, "git": true, "id": true, "uuid": true, "uid": true, "guid": true,
	"hash": true, "digest": true, "checksum": true, "object": true, "obj": true, "run": true, "session": true,
}

// findPrefixedTokens finds tokens shaped "<issuer>_<random body>"
// (hf_…, dop_v1_…, lin_api_…, pypi-…, ya29.…): one to four short
// segments, then a body of at least 20 letters and digits that reads as
// random — generated keys do, words and identifiers do not.
func findPrefixedTokens(text string) []match {
	var out []match
	for i := 0; i < len(text); {
		if !tokenByte(text[i]) || (i > 0 && (tokenByte(text[i-1]) || text[i-1] == '/')) {
			i++
			continue
		}
		j := i
		for j < len(text) && tokenByte(text[j]) {
			j++
		}
		if j-i >= 24 && !inLink(text[max(0, strings.LastIndexByte(text[:i], '\n')+1):i+1], i-max(0, strings.LastIndexByte(text[:i], '\n')+1)) {
			if end, ok := prefixedToken(text[i:j]); ok {
				out = append(out, match{i, i + end})
			}
		}
		i = j
	}
	return out
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// prefixedToken decides whether run is a prefixed token and returns the
// end of the token in it (a trailing '.' or '-' is punctuation).
func prefixedToken(run string) (int, bool) {
	segs := strings.FieldsFunc(run, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(segs) < 2 || !(run[0] >= 'a' && run[0] <= 'z' || run[0] >= 'A' && run[0] <= 'Z') {
		return 0, false
	}
	for k, s := range segs {
		if hashNames[strings.ToLower(s)] {
			return 0, false // agent_msg_01…: an id, whichever segment names it
		}
		if len(s) >= 20 {
			if k == 0 || k > 4 || !randomBody(s) {
				return 0, false
			}
			return len(strings.TrimRight(run, ".-")), true
		}
		if len(s) > 15 {
			return 0, false
		}
	}
	return 0, false
}

// randomBody is the entropy test of a token's body: randomLooking for
// mixed case, and for one case with digits (hex included) enough of both
// and frequent changes between them.
func randomBody(s string) bool {
	if isPlaceholder(s) {
		return false
	}
	if mixed(s) {
		return randomLooking(s)
	}
	var letters, digits, changes int
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			digits++
		} else {
			letters++
		}
		if i > 0 && class(s[i]) != class(s[i-1]) {
			changes++
		}
	}
	if isHex(s) {
		return len(s) >= 32 && letters >= 4 && digits >= 4 && Entropy(s) >= 3.0
	}
	return len(s) >= 24 && letters >= 4 && digits >= 4 && float64(changes)/float64(len(s)) >= 0.3 && Entropy(s) >= 3.5
}

var (
	pgpassRe   = lazyRegexp(`(?:^|\s)[^\s:#]+:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:([^\s:]+)(?:\s|$)`)
	sqlPassRe  = lazyRegexp(`(?i)\b(?:password|identified[ \t]+by)[ \t]*\(?[ \t]*['"]([^'"\s]{1,128})['"]`)
	xmlPassRe  = lazyRegexp(`(?i)<([a-z0-9_.:-]*(?:password|passwd|passphrase|secret|token|apikey|api_key|api-key|credentials?))>[ \t]*([^<\s]+)[ \t]*</`)
	flagPassRe = lazyRegexp(`(?i)(?:^|\s)--?[a-z0-9-]*?(password|passwd|passphrase|pwd|pass|secret|token|api-key|apikey)[ =]["']?([^\s"']+)`)
	barePassRe = lazyRegexp(`(?i)\b(?:password|passwd|passphrase|пароль)[ \t]+["'«]?([^\s"'»,;]+)`)
	authRe     = lazyRegexp(`(?i)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|token|basic|digest|apikey|api-key|key|sso-key|negotiate|otoken)[ \t]+)?([^\s"',;]{8,})`)
	bearerRe   = lazyRegexp(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{12,}=*)`)
)

// findDBPasswords finds a password in a .pgpass line
// (host:port:db:user:password), an SQL statement (PASSWORD 'x',
// IDENTIFIED BY 'x'), an XML element (<password>x</password>), a
// command-line flag (--db-password x) and after the bare word
// ("password Xk9…", a value mixing case and digits).
func findDBPasswords(text string) []match {
	var out []match
	add := func(v string, password bool, at int) {
		if secretValue(v, password) {
			out = append(out, match{at, at + len(v)})
		}
	}
	// Each regexp runs only on the lines that name what it looks for:
	// none of them can start with a literal, and a 6 MB artifact is
	// mostly lines that name none.
	lower := foldLower(text)
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		l := lower[offset : offset+len(line)]
		pass := containsAny(l, []string{"pass", "pwd", "пароль"})
		if pass || strings.Contains(l, "identified") {
			for _, m := range sqlPassRe().FindAllStringSubmatchIndex(line, -1) {
				add(line[m[2]:m[3]], true, offset+m[2])
			}
		}
		if strings.Contains(l, "</") && (pass || containsAny(l, []string{"secret", "token", "key", "credential"})) {
			for _, m := range xmlPassRe().FindAllStringSubmatchIndex(line, -1) {
				add(line[m[4]:m[5]], keyClass(line[m[2]:m[3]]) == 1, offset+m[4])
			}
		}
		if strings.Contains(l, "-") && (pass || containsAny(l, []string{"secret", "token", "api"})) {
			for _, m := range flagPassRe().FindAllStringSubmatchIndex(line, -1) {
				word := strings.ToLower(line[m[2]:m[3]])
				password := strings.HasPrefix(word, "pass") || word == "pwd"
				if v := line[m[4]:m[5]]; !password || word != "pass" || mixed(v) {
					add(v, password, offset+m[4])
				}
			}
		}
		if pass {
			for _, m := range barePassRe().FindAllStringSubmatchIndex(line, -1) {
				if v := strings.TrimRight(line[m[2]:m[3]], ".!?)"); len(v) >= 8 && mixed(v) {
					add(v, true, offset+m[2])
				}
			}
		}
		offset += len(line)
	}
	return out
}

// findQueryParams finds a secret passed in a URL's query
// ("?access_token=…", "&password=…"): the assignment rule reads a URL as
// one value and never sees the parameters inside it. Read from each '='
// back to the '?', '&' or ';' before its name, by hand: a regexp that
// starts with a class of characters cannot skip ahead.
func findQueryParams(text string) []match {
	var out []match
	for at := 0; at < len(text); {
		k := strings.IndexByte(text[at:], '=')
		if k < 0 {
			break
		}
		eq := at + k
		at = eq + 1
		j := eq
		for j > 0 && eq-j <= 40 && (isWordByte(text[j-1]) || text[j-1] == '.' || text[j-1] == '-') {
			j--
		}
		if j == eq || j == 0 || !strings.ContainsRune("?&;", rune(text[j-1])) {
			continue
		}
		end := eq + 1
		for end < len(text) && !strings.ContainsRune("&# \t\r\n\"'<>", rune(text[end])) {
			end++
		}
		class := keyClass(text[j:eq])
		if end > eq+1 && class != 0 && secretValue(text[eq+1:end], class == 1) {
			out = append(out, match{eq + 1, end})
		}
	}
	return out
}

// findPgpass finds the password of a .pgpass line.
func findPgpass(text string) []match {
	var out []match
	linesWith(text, func(line string, offset int) {
		if strings.Count(line, ":") >= 4 {
			for _, m := range pgpassRe().FindAllStringSubmatchIndex(line, -1) {
				if v := strings.TrimRight(line[m[2]:m[3]], ".,;)"); secretValue(v, true) {
					out = append(out, match{offset + m[2], offset + m[2] + len(v)})
				}
			}
		}
	}, ":")
	return out
}

// findAuthHeaders finds the credential of an HTTP Authorization header,
// whatever its scheme, and a bearer token anywhere.
func findAuthHeaders(text string) []match {
	var out []match
	for _, re := range []func() *regexpT{authRe, bearerRe} {
		for _, m := range re().FindAllStringSubmatchIndex(text, -1) {
			v := strings.TrimRight(text[m[2]:m[3]], ".)")
			if isPlaceholder(v) || strings.HasPrefix(v, "$") || !strings.ContainsAny(v, "0123456789") && len(v) < 16 {
				continue
			}
			out = append(out, match{m[2], m[2] + len(v)})
		}
	}
	return out
}
