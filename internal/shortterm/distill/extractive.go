package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Bullet and list bounds. Where a list is longer, its first bullet and its
// newest ones are kept and the oldest of the middle left out: the end of a
// segment is where the work stands.
const (
	maxAsked    = 8
	maxDone     = 10
	maxDecided  = 6
	maxLearned  = 6
	maxOpen     = 6
	maxEdited   = 10
	maxRead     = 4
	maxCommands = 8
	bulletRunes = 220
	askRunes    = 200
	cmdRunes    = 80
	perReply    = 4 // outcome sentences taken from one reply
)

// Extractive distils a segment without a model: what was asked, the
// outcomes (with commits and the test results claimed as the result),
// decisions with their reasons, lessons, the files changed (by the session
// and its subagents) and the commands run, and what is left open. The same
// segment always gives the same body; an empty segment gives "".
func Extractive(seg Segment) string {
	turns := splitTurns(seg.Items, seg.Desk)
	sc := sentenceCache{}
	// A sentence is listed once: a decision is a decision before it is
	// an outcome.
	decided := decidedList(sc, turns, seg.Items, nil)
	seen := map[string]bool{}
	for _, b := range decided {
		seen[b] = true
	}
	done := doneList(sc, turns, seg, seen)
	for _, b := range done {
		seen[b] = true
	}
	sections := []section{
		{HeadAsked, askedList(turns)},
		{HeadDone, done},
		{HeadDecided, decided},
		{HeadLearned, learnedList(sc, turns, seen)},
		{HeadFiles, filesAndCommands(append(append([]transcript.Item(nil), seg.Items...), seg.Subagents...), seg.Dir)},
		{HeadOpen, openList(sc, turns, seg.Items)},
	}
	return render(fit(sections, MaxBody))
}

// turn is one user request and what followed it: the assistant's replies
// and the user's other words within the turn (answers, refusals).
type turn struct {
	ask     *transcript.Item // nil for replies before the segment's first prompt
	replies []transcript.Item
	words   []transcript.Item // user items of a Kind: answers, refusals, feedback
	// chore: the request is one of cerebro's own commands or a session
	// command; its replies are housekeeping, not the work.
	chore bool
	// desk: the request is a desk command in the desk (see deskWork): the
	// work itself, kept as its command line.
	desk bool
}

// request is what the turn asked, "" for none (see [request]).
func (t turn) request() string {
	if t.desk {
		return oneLine(t.ask.Text)
	}
	return request(t.ask.Text)
}

func splitTurns(items []transcript.Item, desk bool) []turn {
	var turns []turn
	for i := range items {
		it := items[i]
		if it.Role == transcript.RoleUser && it.Kind == "" {
			work := desk && deskWork(it.Text)
			turns = append(turns, turn{ask: &items[i], chore: housekeeping(it.Text) && !work, desk: work})
			continue
		}
		if len(turns) == 0 {
			turns = append(turns, turn{})
		}
		t := &turns[len(turns)-1]
		if it.Role == transcript.RoleUser {
			t.words = append(t.words, it)
			continue
		}
		t.replies = append(t.replies, it)
	}
	return turns
}

// answer is the turn's last reply with text: what the assistant ended on.
func (t turn) answer() (transcript.Item, bool) {
	for i := len(t.replies) - 1; i >= 0; i-- {
		if strings.TrimSpace(t.replies[i].Text) != "" {
			return t.replies[i], true
		}
	}
	return transcript.Item{}, false
}

// answered reports whether any reply of the turn states something.
func (t turn) answered(sc sentenceCache) bool {
	for _, r := range t.replies {
		if firstStatement(sc, r.Text) != "" {
			return true
		}
	}
	return false
}

func (t turn) interrupted() bool {
	for _, w := range t.words {
		if w.Kind == transcript.KindInterrupted {
			return true
		}
	}
	return false
}

var (
	greeting = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:hey|hi|hello|привет)[\s,]+claude[\s,!.:]*`)
	})
	ack = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:ok|okay|k|yes|yep|yeah|no|nope|thanks|thank you|thx|great|nice|cool|sure|go|go on|go ahead|continue|proceed|done|good|perfect|lgtm|да|нет|ок|окей|спасибо|продолжай|давай|хорошо|отлично|ага)[\s.!)]*$`)
	})
	// Session commands steer the client; they are not requests.
	sessionCommands = map[string]bool{
		"/clear": true, "/exit": true, "/quit": true, "/status": true, "/doctor": true,
		"/mcp": true, "/cost": true, "/help": true, "/config": true, "/model": true,
		"/login": true, "/logout": true, "/resume": true, "/context": true, "/memory": true,
		"/permissions": true, "/hooks": true, "/agents": true, "/ide": true, "/vim": true,
		"/theme": true, "/compact": true, "/usage": true, "/export": true, "/rewind": true,
		"/release-notes": true, "/terminal-setup": true, "/upgrade": true, "/output-style": true,
		"/plugin": true, "/plugins": true, "/add-dir": true, "/init": true, "/bug": true,
	}
)

// request reduces a user prompt to the request it makes, or "" when it is
// an acknowledgement, a session command or one of cerebro's commands.
func request(text string) string {
	s := strings.TrimSpace(text)
	if g := greeting().FindString(s); g != "" {
		s = capitalize(s[len(g):])
	}
	s = oneLine(s)
	if s == "" || ack().MatchString(s) || housekeeping(s) {
		return ""
	}
	return s
}

func askedList(turns []turn) []string {
	var all []string
	seen := map[string]bool{}
	for _, t := range turns {
		if t.ask == nil {
			continue
		}
		r := t.request()
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		all = append(all, safeBullet(r, askRunes))
	}
	return capKeepEnds(all, maxAsked, " more requests")
}

// capKeepEnds keeps the first item (the goal) and the newest ones, with
// one note for those left out of the middle.
func capKeepEnds(all []string, limit int, what string) []string {
	if len(all) <= limit {
		return all
	}
	tail := limit - 2
	out := append([]string{}, all[0])
	out = append(out, "… "+itoa(len(all)-1-tail)+what+" left out")
	return append(out, all[len(all)-tail:]...)
}

var (
	doneVerbs = wordSet(
		"added", "fixed", "updated", "created", "removed", "deleted", "implemented", "changed",
		"refactored", "renamed", "moved", "wrote", "installed", "configured", "replaced", "converted",
		"extracted", "merged", "committed", "pushed", "resolved", "cleaned up", "set up", "enabled",
		"disabled", "simplified", "documented", "verified", "built", "migrated", "upgraded", "bumped",
		"reverted", "restored", "switched", "introduced", "optimized", "improved", "rewrote",
		"reorganized", "split", "wired", "hooked up", "found", "confirmed", "reformatted", "ran",
		"сделал", "сделала", "сделали", "исправил", "исправила", "исправили", "добавил", "добавила",
		"добавили", "обновил", "обновила", "обновили", "создал", "создала", "создали", "удалил",
		"удалила", "удалили", "переписал", "переписали", "перенёс", "перенес", "перенесли", "настроил",
		"настроили", "реализовал", "реализовали", "переименовал", "убрал", "убрали", "поправил",
		"поправили", "заменил", "заменили", "починил", "починили",
	)
	doneSubjects = wordSet("i", "we", "i've", "we've", "я", "мы")
	doneAdverbs  = wordSet("now", "also", "successfully", "just", "then", "тоже", "также", "ещё", "еще")
	// Praise and acknowledgements: no content of their own.
	filler = phrases(
		"you're right", "you're absolutely right", "you're totally right", "you are right",
		"you are absolutely right", "great", "perfect", "excellent", "good", "nice", "i see",
		"got it", "sure", "certainly", "of course", "ok", "okay", "thanks", "thank you", "awesome",
		"great question", "good question", "good catch", "great catch", "excellent question",
		"понял", "отлично", "хорошо", "конечно",
	)
	// Plans in progress: what the assistant is about to do, not what it did.
	planning = phrases(
		"let me", "let's", "i'll", "i will", "i'm going to", "i am going to", "now i", "now let",
		"first i", "next i", "i need to", "i should", "now i'll", "now let's",
		"сейчас", "давай", "давайте", "теперь я", "я посмотрю", "посмотрю",
	)
	// A test result claimed as the result: "63 tests passed", "all checks
	// pass", "tests are green".
	testClaim = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\b\d+\s+(?:tests?|specs?|checks?)\b.*\b(?:pass|passed|passing|green|ok|succeed|succeeded)\b|\b(?:all|the)\s+(?:\w+\s+)?(?:tests?|checks?|specs?)\s+(?:now\s+)?(?:pass|passed|are passing|are green|succeed)|\b\d+\s+passed\b|✅|тесты проходят|тесты прошли)`)
	})
	commitHash = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bcommit(?:ted)?\b.*\b[0-9a-f]{7,40}\b|\b[0-9a-f]{7,40}\b.*\bcommit`)
	})
)

// isDone reports whether a sentence reports work done: it opens with a
// past-tense action ("Fixed…", "I've added…", "Добавил…"), states a result
// ("…was fixed", "tests pass") or is a "Done"/"Готово".
func isDone(s sent) bool {
	ws := s.words
	if len(ws) < 3 || isQuestion(s.text) {
		return false
	}
	if ws[0] == "done" || ws[0] == "готово" {
		return true
	}
	v := ws
	if doneSubjects[v[0]] {
		v = v[1:]
		if len(v) > 0 && (v[0] == "have" || v[0] == "also") {
			v = v[1:]
		}
	}
	if len(v) > 0 && doneAdverbs[v[0]] {
		v = v[1:]
	}
	if len(v) > 0 && doneVerbs[v[0]] || len(v) > 1 && doneVerbs[v[0]+" "+v[1]] {
		return true
	}
	for i := 0; i+1 < len(ws); i++ {
		next := ws[i+1]
		if next == "successfully" || next == "now" {
			if i+2 >= len(ws) {
				break
			}
			next = ws[i+2]
		}
		switch ws[i] {
		case "been", "was", "were", "is", "are":
			if doneVerbs[next] {
				return true
			}
		case "test", "tests":
			if next == "pass" || next == "passes" || next == "passed" {
				return true
			}
		}
	}
	return false
}

// outcome reports whether a sentence is worth keeping as an outcome.
func outcome(s sent) bool {
	if planning.prefix(s.words) || filler.prefix(s.words) && len(s.words) < 4 || isQuestion(s.text) {
		return false
	}
	return isDone(s) || testClaim().MatchString(s.text) || commitHash().MatchString(s.text)
}

func doneList(sc sentenceCache, turns []turn, seg Segment, skip map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(leadIn(stripFiller(s)), bulletRunes)
		if b != "" && !seen[b] && !skip[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	var chores []string
	for _, t := range turns {
		if t.chore {
			if name, args, ok := cerebroCommand(t.ask.Text); ok && cerebroChanges[name] && args != "status" {
				chores = append(chores, strings.TrimSpace("cerebro: "+name+" "+args))
			}
			continue
		}
		ans, hasAnswer := t.answer()
		for _, r := range t.replies {
			n := 0
			for _, s := range sc.of(r.Text) {
				if n < perReply && outcome(s) {
					add(s.text)
					n++
				}
			}
			// A turn's closing reply is its substance even without an
			// action verb: the answer to a question, a finding.
			if n == 0 && hasAnswer && r.ID == ans.ID {
				if first := firstStatement(sc, r.Text); first != "" {
					add(first)
				}
			}
		}
		for _, tool := range commits(t.replies) {
			add(tool)
		}
	}
	out = capKeepEnds(out, maxDone, " earlier outcomes")
	for _, c := range chores {
		out = append(out, safeBullet(c, bulletRunes))
	}
	if summary := toolSummary(append(append([]transcript.Item(nil), seg.Items...), seg.Subagents...)); summary != "" {
		out = append(out, summary)
	}
	return out
}

// commits lists the commit messages of the git commits a turn ran.
func commits(replies []transcript.Item) []string {
	var out []string
	for _, r := range replies {
		for _, t := range r.Tools {
			if toolKind(t.Name) != kindRun || !transcript.IsCommit(t.Target) {
				continue
			}
			if m := commitMessage().FindStringSubmatch(t.Target); m != nil {
				out = append(out, "committed: "+strings.TrimSpace(firstOf(m[1:])))
			}
		}
	}
	return out
}

var commitMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-[a-zA-Z]*m\s+(?:"([^"\n]+)|'([^'\n]+)|\$\(cat <<'?EOF'?\s*\n([^\n]+))`)
})

func firstOf(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// stripFiller drops a leading exclamation of praise from a sentence.
func stripFiller(s string) string {
	for _, p := range []string{"Perfect! ", "Great! ", "Excellent! ", "Good! ", "Nice! ", "Awesome! "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

// leadIn marks a sentence that introduces a list as cut short.
func leadIn(s string) string {
	if t, ok := strings.CutSuffix(s, ":"); ok {
		return strings.TrimSpace(t) + " …"
	}
	return s
}

// firstStatement is the first sentence of a reply that states something:
// not a plan ("Let me…"), not praise, not a question, not a bare lead-in
// ("Here's…:").
//
// A long answer that has a summary or findings heading is represented by
// what follows that heading.
func firstStatement(sc sentenceCache, text string) string {
	if loc := conclusionHeading().FindStringIndex(text); loc != nil {
		if s := firstStatement(sc, text[loc[1]:]); s != "" {
			return s
		}
	}
	for _, s := range sc.of(text) {
		if planning.prefix(s.words) || filler.prefix(s.words) || isQuestion(s.text) ||
			strings.HasSuffix(s.text, ":") || len(s.words) < 4 {
			continue
		}
		return s.text
	}
	return ""
}

var conclusionHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t]*#{1,6}[ \t]+[^\n]*(?:summary|findings|conclusion|tl;dr|result|итог|вывод|резюме)[^\n]*\n`)
})
