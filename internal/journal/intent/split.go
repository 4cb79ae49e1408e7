package intent

import (
	"regexp"
	"strings"
	"sync"
)

// Cutting a shell command into its steps and their words.

// split cuts a command into its steps' words: at &&, ||, ;, | and line
// ends outside quotes, a here-document's body left out. A backslash
// escapes a space, a quote or a line end; before a letter it is a
// Windows path's separator.
func split(command string) [][]string {
	var steps [][]string
	var words []string
	var w strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	end := func() {
		flushWord()
		if len(words) > 0 {
			steps = append(steps, words)
		}
		words = nil
	}
	var heredoc []string // delimiters of here-documents opened on this line
	var quote byte       // a quoted string may span lines
	lines := strings.Split(command, "\n")
	for li := 0; li < len(lines); li++ {
		line := lines[li]
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case quote == '"' && c == '<' && strings.HasPrefix(line[i:], "<<"):
				// A here-document inside a command substitution:
				// git commit -m "$(cat <<'EOF' … EOF)".
				if m := heredocStart().FindStringSubmatch(line[i:]); m != nil {
					heredoc = append(heredoc, m[1])
					i += len(m[0]) - 1
				}
				inWord = true
			case quote != 0:
				if c == quote {
					quote = 0
				} else if c == '\\' && quote == '"' && i+1 < len(line) {
					i++
					w.WriteByte(line[i])
				} else {
					w.WriteByte(c)
				}
				inWord = true
			case c == '\'' || c == '"':
				quote = c
				inWord = true
			case c == '\\' && i+1 < len(line) && !isAlnum(line[i+1]):
				i++
				w.WriteByte(line[i])
				inWord = true
			case c == '<' && strings.HasPrefix(line[i:], "<<") && !strings.HasPrefix(line[i:], "<<<"):
				flushWord()
				if m := heredocStart().FindStringSubmatch(line[i:]); m != nil {
					heredoc = append(heredoc, m[1])
					i += len(m[0]) - 1
				} else {
					i++
				}
			case c == '&' && strings.HasPrefix(line[i:], "&&"), c == '|' && strings.HasPrefix(line[i:], "||"):
				end()
				i++
			case c == ';', c == '|':
				end()
			case c == '&' && (i+1 >= len(line) || line[i+1] != '>') && (i == 0 || line[i-1] != '>' && line[i-1] != '<'):
				end() // a job sent to the background ends its step
			case c == '#' && !inWord:
				i = len(line) // a comment
			case c == ' ' || c == '\t' || c == '(' || c == ')' || c == '{' || c == '}':
				flushWord()
			default:
				w.WriteByte(c)
				inWord = true
			}
		}
		if strings.HasSuffix(strings.TrimRight(line, " \t"), "\\") || quote != 0 && len(heredoc) == 0 {
			continue // the step goes on on the next line
		}
		if quote == 0 {
			end()
		}
		// Skip the bodies of the here-documents this line opened.
		for _, d := range heredoc {
			for li+1 < len(lines) && strings.TrimSpace(lines[li+1]) != d {
				li++
			}
			li++
		}
		heredoc = nil
	}
	end()
	return steps
}

var heredocStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`) })

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
