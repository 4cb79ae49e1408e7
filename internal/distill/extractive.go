package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/transcript"
)

// Bullet and list bounds. Later bullets win where a list is cut: the end of
// a segment is closer to where the work stands.
const (
	maxAsked    = 8
	maxDone     = 7
	maxDecided  = 6
	maxOpen     = 6
	maxEdited   = 8
	maxRead     = 6
	maxCommands = 6
	bulletRunes = 180
	askRunes    = 160
	cmdRunes    = 80
)

// Extractive distils a segment without a model: the user's requests, what
// the assistant reports having done, decisions, the files and commands its
// tools touched, and what is left open. The same segment always gives the
// same body; an empty segment gives "".
func Extractive(seg Segment) string {
	turns := splitTurns(seg.Items)
	sc := sentenceCache{}
	sections := []section{
		{HeadAsked, asked(seg.Items)},
		{HeadDone, done(sc, turns, seg.Items)},
		{HeadDecided, decided(sc, seg.Items)},
		{HeadFiles, filesAndCommands(seg.Items, seg.Dir)},
		{HeadOpen, open(sc, turns, seg.Items)},
	}
	return render(fit(sections, MaxBody))
}

// turn is one user request and the assistant replies that followed it.
type turn struct {
	ask     *transcript.Item // nil for replies before the segment's first prompt
	replies []transcript.Item
}

func splitTurns(items []transcript.Item) []turn {
	var turns []turn
	for i := range items {
		it := items[i]
		if it.Role == transcript.RoleUser {
			turns = append(turns, turn{ask: &items[i]})
			continue
		}
		if len(turns) == 0 {
			turns = append(turns, turn{})
		}
		t := &turns[len(turns)-1]
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
	}
)

// request reduces a user prompt to the request it makes, or "" when it is
// an acknowledgement or a session command.
func request(text string) string {
	s := strings.TrimSpace(text)
	if g := greeting().FindString(s); g != "" {
		s = capitalize(s[len(g):])
	}
	s = oneLine(s)
	if s == "" || ack().MatchString(s) {
		return ""
	}
	if strings.HasPrefix(s, "/") {
		name, _, _ := strings.Cut(s, " ")
		if sessionCommands[strings.ToLower(name)] {
			return ""
		}
	}
	return s
}

func asked(items []transcript.Item) []string {
	var all []string
	seen := map[string]bool{}
	for _, it := range items {
		if it.Role != transcript.RoleUser {
			continue
		}
		r := request(it.Text)
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		all = append(all, safeBullet(r, askRunes))
	}
	if len(all) <= maxAsked {
		return all
	}
	// The first requests set the theme, the last ones where it ended.
	head, tail := 2, maxAsked-3
	out := append([]string{}, all[:head]...)
	out = append(out, "… "+itoa(len(all)-head-tail)+" more requests")
	return append(out, all[len(all)-tail:]...)
}

var (
	doneVerbs = wordSet(
		"added", "fixed", "updated", "created", "removed", "deleted", "implemented", "changed",
		"refactored", "renamed", "moved", "wrote", "installed", "configured", "replaced", "converted",
		"extracted", "merged", "committed", "pushed", "resolved", "cleaned up", "set up", "enabled",
		"disabled", "simplified", "documented", "verified", "built", "migrated", "upgraded", "bumped",
		"reverted", "restored", "switched", "introduced", "optimized", "improved", "rewrote",
		"reorganized", "split", "wired", "hooked up",
		"сделал", "сделала", "сделали", "исправил", "исправила", "исправили", "добавил", "добавила",
		"добавили", "обновил", "обновила", "обновили", "создал", "создала", "создали", "удалил",
		"удалила", "удалили", "переписал", "переписали", "перенёс", "перенес", "перенесли", "настроил",
		"настроили", "реализовал", "реализовали", "переименовал", "убрал", "убрали", "поправил",
		"поправили", "заменил", "заменили", "починил", "починили",
	)
	doneSubjects = wordSet("i", "we", "i've", "we've", "я", "мы")
	doneAdverbs  = wordSet("now", "also", "successfully", "just", "then", "тоже", "также", "ещё", "еще")
	filler       = phrases(
		"you're right", "you're absolutely right", "you're totally right", "you are right",
		"you are absolutely right", "great", "perfect", "excellent", "good", "nice", "i see",
		"got it", "sure", "certainly", "of course", "ok", "okay", "thanks", "thank you",
		"понял", "отлично", "хорошо", "конечно",
	)
	planning = phrases(
		"let me", "let's", "i'll", "i will", "i'm going to", "i am going to", "now i", "now let",
		"first i", "next i", "i need to", "i should",
		"сейчас", "давай", "давайте", "теперь я", "я посмотрю", "посмотрю",
	)
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
		if len(v) > 0 && v[0] == "have" {
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
		case "been", "was", "were":
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

func done(sc sentenceCache, turns []turn, items []transcript.Item) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(leadIn(s), bulletRunes)
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, t := range turns {
		ans, hasAnswer := t.answer()
		for _, r := range t.replies {
			n := 0
			for _, s := range sc.of(r.Text) {
				if n < 2 && isDone(s) {
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
	}
	if len(out) > maxDone {
		out = out[len(out)-maxDone:]
	}
	if summary := toolSummary(items); summary != "" {
		out = append(out, summary)
	}
	return out
}

// leadIn marks a sentence that introduces a list as cut short.
func leadIn(s string) string {
	if t, ok := strings.CutSuffix(s, ":"); ok {
		return strings.TrimSpace(t) + " …"
	}
	return s
}

// firstStatement is the first sentence of a reply that states something:
// not a plan ("Let me…"), not a question, not a bare lead-in ("Here's…:").
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
var decision = phrases(
	"decided", "decide to", "we'll use", "we will use", "we'll go with", "let's go with",
	"let's use", "let's keep", "going with", "go with", "agreed", "settled on", "we chose",
	"i chose", "opted for", "the decision", "decision:",
	"решили", "решено", "будем", "выбрали", "договорились", "остановимся на", "остановились на",
	"используем",
)

func decided(sc sentenceCache, items []transcript.Item) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		for _, s := range sc.of(it.Text) {
			if isQuestion(s.text) || strings.HasSuffix(s.text, ":") || !decision.in(s.words) {
				continue
			}
			b := safeBullet(s.text, bulletRunes)
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	if len(out) > maxDecided {
		out = out[len(out)-maxDecided:]
	}
	return out
}

var (
	// Markers of work left over, taken from any reply.
	openStrong = phrases(
		"todo", "to do", "to-do", "fixme", "tbd", "still need", "still needs", "not yet",
		"left to do", "remaining", "follow-up", "follow up", "haven't",
		"осталось", "ещё нужно", "еще нужно", "пока не", "не забыть", "не сделано", "доделать",
	)
	// Markers of a next step, taken only from the reply the segment ends on:
	// earlier ones were usually carried out in the next turn.
	openNext = phrases(
		"next step", "next steps", "you may want", "you might want", "consider",
		"нужно", "надо", "следующий шаг", "дальше", "потом", "стоит",
	)
	checkbox = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*[-*]\s+\[ \]\s+(.+)$`) })
)

func open(sc sentenceCache, turns []turn, items []transcript.Item) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		b := safeBullet(s, bulletRunes)
		if b != "" && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	var last transcript.Item
	hasLast := false
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Role == transcript.RoleAssistant && strings.TrimSpace(items[i].Text) != "" {
			last, hasLast = items[i], true
			break
		}
	}
	for _, it := range items {
		if it.Role != transcript.RoleAssistant {
			continue
		}
		final := hasLast && it.ID == last.ID
		for _, s := range sc.of(it.Text) {
			switch {
			case isDone(s) && !openStrong.in(s.words),
				planning.prefix(s.words), strings.HasSuffix(s.text, ":"):
			case final && isQuestion(s.text):
				add(s.text)
			case openStrong.in(s.words) && !isQuestion(s.text):
				add(s.text)
			case final && openNext.in(s.words):
				add(s.text)
			}
		}
		if final {
			for _, m := range checkbox().FindAllStringSubmatch(it.Text, -1) {
				add(m[1])
			}
		}
	}
	// A request the segment ends on that got no answer: no reply yet, or
	// only plans and tool calls (interrupted, or the session ended).
	if n := len(turns); n > 0 && turns[n-1].ask != nil && !turns[n-1].answered(sc) {
		if r := request(turns[n-1].ask.Text); r != "" {
			add("unanswered: " + r)
		}
	}
	if len(out) > maxOpen {
		out = out[len(out)-maxOpen:]
	}
	return out
}
