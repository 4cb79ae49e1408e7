package lessons

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/intent"
)

// Focus is the part of a shell command that is about key: the last step
// whose intent it is, with the short steps just before it, which are
// likely the recipe (`cd assets`, `git pull --rebase`, `export X=1`),
// up to the first long one, which is likely data (a commit's message),
// and without the steps at its start that only look (`ls`, `git
// status`). `git add -A && git commit -m "…a paragraph…" && git push
// --set-upstream origin x` is, for "git push", `git push --set-upstream
// origin x`: a lesson shows the form that matters, not the whole line. A
// command with no such step is returned whole.
func Focus(command, key string) string {
	steps := splitSteps(command)
	at := -1
	for i, s := range steps {
		for _, k := range intent.Steps(s) {
			if k == key {
				at = i
			}
		}
	}
	if at < 0 || len(steps) == 1 {
		return strings.TrimSpace(command)
	}
	from, size := at, len(steps[at])
	for from > 0 && len(steps[from-1]) <= shortStep && size+len(steps[from-1]) <= maxFocus {
		from--
		size += len(steps[from]) + 4
	}
	for from < at && len(intent.Steps(steps[from])) == 0 && !prepares(steps[from]) {
		from++
	}
	return strings.Join(steps[from:at+1], " && ")
}

// A step longer than shortStep before the key's is data, not recipe;
// a focused form stays within maxFocus bytes where it can.
const (
	shortStep = 60
	maxFocus  = 160
)

// prepares: a step that sets the shell up for the next (cd, export,
// source, an activate script).
func prepares(step string) bool {
	f := strings.Fields(step)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "cd", "pushd", "export", "source", ".", "set", "nvm", "conda", "unset":
		return true
	}
	return strings.HasSuffix(f[0], "activate")
}

// splitSteps cuts a command at &&, || and ; outside quotes and $( ).
func splitSteps(command string) []string {
	var out []string
	var b strings.Builder
	var quote byte
	depth := 0
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			out = append(out, s)
		}
		b.Reset()
	}
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && i+1 < len(command) && command[i+1] == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ';' || c == '\n'):
			flush()
			continue
		case depth == 0 && (c == '&' || c == '|') && i+1 < len(command) && command[i+1] == c:
			flush()
			i++
			continue
		}
		b.WriteByte(c)
	}
	flush()
	return out
}
