package distill

import (
	"regexp"
	"strings"
	"sync"
)

// What a shell command did, read from the command and from what git, gh
// and the test runners printed (reference transcript-outcomes.md §3–4).
// Nothing here trusts the model's account: a commit is a commit because
// git printed its hash (or, with -q, because it exited 0 and a later git
// log lists it), a test run passed because the runner printed the verdict.

// commit is one commit a command made.
type commit struct {
	hash, subject string
	amend         bool
	// was is the hash git first printed, when a later git log shows
	// the same subject under another (a rebase, an amend, a rewrite).
	was string
}

// gitCommits are the commits a command's output shows: git prints
// "[branch hash] subject" for each, "(root-commit)" for the first.
var gitCommitLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\[([^\]\s]+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+)$`)
})

func commitLines(out string) []commit {
	var cs []commit
	for _, m := range gitCommitLine().FindAllStringSubmatch(out, -1) {
		cs = append(cs, commit{hash: m[2], subject: strings.TrimSpace(m[3])})
	}
	return cs
}

// gitRuns lists the git subcommands a command line runs ("commit",
// "push", "log" …), each with the text from it to the next git call (its
// arguments and any heredoc body that follows).
type gitRun struct {
	sub, args string
}

var gitCall = sync.OnceValue(func() *regexp.Regexp {
	// git at a command boundary, with global options before the
	// subcommand.
	return regexp.MustCompile(`(?:^|[\s;&|(])git((?:\s+-[Cc]\s+\S+|\s+--?[a-z-]+(?:=\S+)?)*)\s+([a-z][a-z-]*)`)
})

func gitRuns(cmd string) []gitRun {
	locs := gitCall().FindAllStringSubmatchIndex(cmd, -1)
	var out []gitRun
	for i, l := range locs {
		end := len(cmd)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, gitRun{sub: cmd[l[4]:l[5]], args: cmd[l[5]:end]})
	}
	return out
}

var (
	heredocStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`) })
	messageFlag  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)(?:-[a-zA-Z]*m|--message)(?:\s+|=)("((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"'$][^\s]*))`)
	})
	fileFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)(?:-[a-zA-Z]*F|--file)(?:\s+|=)(\S+)`) })
)

// commitMessage is the message a `git commit` call's arguments give: a
// -m string, a -m "$(cat <<'EOF' … EOF)" heredoc, or -F - with a
// heredoc. "" when it is in a file or an editor.
func commitMessage(args string) string {
	if m := messageFlag().FindStringSubmatch(args); m != nil {
		switch {
		case strings.HasPrefix(m[1], `"`):
			if strings.HasPrefix(m[2], "$(") {
				return heredocBody(args)
			}
			return strings.ReplaceAll(m[2], `\"`, `"`)
		case m[3] != "":
			return m[3]
		default:
			return m[4]
		}
	}
	if m := fileFlag().FindStringSubmatch(args); m != nil && m[1] == "-" {
		return heredocBody(args)
	}
	return ""
}

// heredocBody is the body of the first heredoc in s.
func heredocBody(s string) string {
	m := heredocStart().FindStringSubmatchIndex(s)
	if m == nil {
		return ""
	}
	delim := s[m[2]:m[3]]
	rest := s[m[1]:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return ""
	}
	var body []string
	for _, line := range strings.Split(rest[nl+1:], "\n") {
		if strings.TrimSpace(line) == delim {
			break
		}
		body = append(body, line)
	}
	return strings.Join(body, "\n")
}

// subject is a commit message's first non-empty line.
func subject(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// gitLogLine is a line of `git log --oneline` (or of a full log's
// "commit <hash>" header, whose subject follows).
var gitLogLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:\* )?([0-9a-f]{7,40}) (?:\([^)]*\) )?(.+)$`)
})

// logged reads the commits a git log output lists, subject → hash.
func logged(out string) map[string]string {
	m := map[string]string{}
	for _, l := range gitLogLine().FindAllStringSubmatch(out, -1) {
		s := strings.TrimSpace(l[2])
		if _, ok := m[s]; !ok {
			m[s] = l[1]
		}
	}
	return m
}

// push is what a git push printed: the refs it updated and where.
type push struct {
	remote string
	refs   []string // "main", "spotter-gqc (99b497c..ceff8c3)", "tag v1.0"
}

var (
	pushTo  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^To (\S+)`) })
	pushRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(?:[+*= -]\s+)?(\[new branch\]|\[new tag\]|[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40})\s+(\S+)\s+->\s+(\S+)`)
	})
)

func pushLines(out string) push {
	var p push
	if m := pushTo().FindStringSubmatch(out); m != nil {
		p.remote = m[1]
	}
	for _, m := range pushRef().FindAllStringSubmatch(out, -1) {
		switch m[1] {
		case "[new tag]":
			p.refs = append(p.refs, "tag "+m[3])
		case "[new branch]":
			p.refs = append(p.refs, m[3]+" (new branch)")
		default:
			p.refs = append(p.refs, m[3]+" ("+m[1]+")")
		}
	}
	return p
}

// pushArgs names what a push command pushed when its output does not
// (-q): the arguments that are not options.
func pushArgs(args string) string {
	var ws []string
	for _, w := range strings.Fields(firstCommand(args)) {
		if strings.HasPrefix(w, "-") || w == "2>&1" || w == ">/dev/null" {
			continue
		}
		ws = append(ws, w)
	}
	return strings.Join(ws, " ")
}

// firstCommand cuts s at the first command separator.
func firstCommand(s string) string {
	for _, sep := range []string{"&&", "||", ";", "|", "\n", ")"} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// tagArgs is the tag a `git tag` call creates, "" when it lists or
// deletes tags.
func tagArgs(args string) string {
	ws := strings.Fields(firstCommand(args))
	name := ""
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		switch {
		case w == "-d" || w == "--delete" || w == "-l" || w == "--list" || w == "-v" || w == "--verify":
			return ""
		case w == "-m" || w == "-F" || w == "-u":
			i++ // its value
		case strings.HasPrefix(w, "-"):
		case name == "":
			name = strings.Trim(w, `"'`)
		}
	}
	return name
}

var prURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`https://\S+/pull/\d+`)
})

var ghCreate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(])gh\s+pr\s+create\b`)
})

// pullNewURL is the link GitHub prints after a push of a branch that has
// no pull request: "remote: Create a pull request … by visiting: URL".
var pullNewURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`https://\S+/pull/new/\S+`)
})
