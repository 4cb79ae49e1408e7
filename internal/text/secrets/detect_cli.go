package secrets

import "strings"

// A password given to a database or network client on its command line
// ("mysql -uroot -pS3cret shop", "redis-cli -a S3cret", "sshpass -p S3cret
// ssh host", "curl -u admin:S3cret …") has no "password =" for the
// assignment detector to see: the flag is the only sign. Each client's
// flags are its own, so the table names them per client.

// cliFlag is how one client takes its password: attached ("-pVALUE"),
// separate ("-a VALUE", "--pass VALUE") or after the user ("-u user:VALUE",
// "-U user%VALUE").
type cliFlag struct {
	flag     string
	attached bool // the value follows the flag in the same word
	separate bool // the value is the next word
	userSep  byte // the value follows this byte in the flag's value (user:pass)
}

// cliClients lists the clients by the start of their name: "mysql" covers
// mysqldump, mysqladmin, mysqlimport, mysqlsh.
var cliClients = []struct {
	prefix string
	flags  []cliFlag
}{
	// mysql's -p takes its value attached only: "-p" alone prompts.
	{"mysql", []cliFlag{{flag: "-p", attached: true}, {flag: "--password", separate: true}}},
	{"mariadb", []cliFlag{{flag: "-p", attached: true}, {flag: "--password", separate: true}}},
	{"mongo", []cliFlag{{flag: "-p", separate: true}, {flag: "--password", separate: true}}},
	{"redis-cli", []cliFlag{{flag: "-a", separate: true}, {flag: "--pass", separate: true}}},
	{"sshpass", []cliFlag{{flag: "-p", attached: true, separate: true}}},
	{"clickhouse-client", []cliFlag{{flag: "--password", separate: true}}},
	{"ldap", []cliFlag{{flag: "-w", separate: true}}},
	{"curl", []cliFlag{{flag: "-u", attached: true, separate: true, userSep: ':'}, {flag: "--user", separate: true, userSep: ':'}}},
	{"smbclient", []cliFlag{{flag: "-U", attached: true, separate: true, userSep: '%'}}},
}

// cliWord is one shell word of a line, its quotes stripped, with the byte
// span of the word as written.
type cliWord struct {
	text       string
	start, end int
}

// shellWords splits line on blanks, taking a quoted part whole. Enough for
// finding flags; not a shell parser.
func shellWords(line string) []cliWord {
	var out []cliWord
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		var b strings.Builder
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\n' && line[i] != '\r' {
			if q := line[i]; q == '\'' || q == '"' {
				j := strings.IndexByte(line[i+1:], q)
				if j < 0 {
					b.WriteString(line[i+1:])
					i = len(line)
					break
				}
				b.WriteString(line[i+1 : i+1+j])
				i += j + 2
				continue
			}
			b.WriteByte(line[i])
			i++
		}
		out = append(out, cliWord{text: b.String(), start: start, end: i})
	}
	return out
}

// valueSpan finds v's bytes inside line[w.start:w.end] (the word with its
// quotes), so redaction removes the value and keeps the flag.
func valueSpan(line string, w cliWord, v string) (int, int, bool) {
	i := strings.LastIndex(line[w.start:w.end], v)
	if i < 0 {
		return 0, 0, false
	}
	return w.start + i, w.start + i + len(v), true
}

func findCLIPasswords(text string) []match {
	var out []match
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		out = append(out, cliLine(line, offset)...)
		offset += len(line)
	}
	return out
}

func cliLine(line string, offset int) []match {
	var out []match
	words := shellWords(line)
	var flags []cliFlag
	keep := func(w cliWord, v string) {
		if !secretValue(v, true) {
			return
		}
		if s, e, ok := valueSpan(line, w, v); ok {
			out = append(out, match{offset + s, offset + e})
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		// A client's name (after a path or sudo) starts its flags; a shell
		// separator ends them.
		if name := w.text[strings.LastIndexByte(w.text, '/')+1:]; !strings.HasPrefix(w.text, "-") {
			if f := clientFlags(name); f != nil {
				flags = f
				continue
			}
			if strings.ContainsAny(w.text, "|;&") {
				flags = nil
			}
			continue
		}
		for _, f := range flags {
			var v string
			var vw cliWord
			switch {
			case w.text == f.flag && f.separate && i+1 < len(words):
				vw = words[i+1]
				v = vw.text
			case strings.HasPrefix(w.text, f.flag+"="):
				vw, v = w, w.text[len(f.flag)+1:]
			case f.attached && len(w.text) > len(f.flag) && strings.HasPrefix(w.text, f.flag) && !strings.HasPrefix(w.text, "--"):
				vw, v = w, w.text[len(f.flag):]
			default:
				continue
			}
			if f.userSep != 0 {
				j := strings.IndexByte(v, f.userSep)
				if j < 0 {
					break
				}
				v = v[j+1:]
			}
			keep(vw, v)
			break
		}
	}
	return out
}

func clientFlags(name string) []cliFlag {
	for _, c := range cliClients {
		if strings.HasPrefix(name, c.prefix) {
			return c.flags
		}
	}
	return nil
}
