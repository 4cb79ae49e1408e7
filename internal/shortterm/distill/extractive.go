package distill

import (
	"regexp"
	"strings"
	"sync"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/journal/intent"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// Bullet and list bounds. Where a list is longer, its first bullet and its
// newest ones are kept and the oldest of the middle left out: the end of a
// segment is where the work stands.
const (
	maxAsked    = 8
	maxDone     = 14
	maxNotDone  = 8
	maxDecided  = 6
	maxLearned  = 6
	maxOpen     = 8
	maxEdited   = 10
	maxRead     = 4
	maxCommands = 8
	bulletRunes = 220
	cmdRunes    = 80
)

// Extractive distils a segment without a model. Done and Not done come
// from the tool results alone (commits with their hashes, pushes, test
// verdicts, what failed or was refused and never fixed); Open from state
// (the last todo list, the newest unfixed failure, an unanswered request,
// the next steps of the final message); Decided and Learned from
// sentences phrased as a decision or a lesson and from the user's
// answers; Asked, Before compaction and Final message are the session's
// own words. The same segment always gives the same body; an empty
// segment gives "".
func Extractive(seg Segment) string {
	turns := splitTurns(seg.Items, seg.Desk)
	sc := sentenceCache{}
	f := collectFacts(segmentCalls(seg.Items, seg.Subagents), seg.Dir, seg.Cwd)
	asked := askedList(sc, turns, finalReply(turns))
	final := finalMessage(sc, turns)
	before := beforeCompaction(seg.Items)
	decided := decidedList(sc, turns, f.decided)
	learned := learnedList(sc, turns, f.fixed, decided)
	open := openList(sc, turns, f.open)
	files := filesList(f, turns)
	if len(asked)+len(f.done)+len(f.notDone)+len(decided)+len(learned)+len(open)+len(final)+len(before) == 0 {
		return "" // acknowledgements and session commands only
	}
	sections := []section{
		{head: daily.HeadAsked, bullets: asked, elastic: true},
		{head: daily.HeadDone, bullets: capKeepEnds(f.done, maxDone, " earlier outcomes")},
		{head: daily.HeadNotDone, bullets: capKeepEnds(f.notDone, maxNotDone, " earlier failures")},
		{head: daily.HeadDecided, bullets: decided},
		{head: daily.HeadLearned, bullets: learned},
		{head: daily.HeadOpen, bullets: open},
		{head: daily.HeadFiles, bullets: files},
		{head: daily.HeadBefore, bullets: before, elastic: true},
		{head: daily.HeadFinal, bullets: final, elastic: true},
	}
	return render(fit(sections, MaxBody))
}

// filesList: the files changed (by a call that succeeded, the session's
// or a subagent's), the files only read, the commands run, the skills
// loaded.
func filesList(f facts, turns []turn) []string {
	changed := orderedSet{}
	for _, p := range f.changed {
		changed.add(p)
	}
	var readOnly []string
	for _, p := range f.read {
		if !changed.seen[p] {
			readOnly = append(readOnly, p)
		}
	}
	var out []string
	if b := codeList("changed", changed.list, maxEdited); b != "" {
		out = append(out, b)
	}
	if b := codeList("read", readOnly, maxRead); b != "" {
		out = append(out, b)
	}
	if b := codeList("ran", f.ran, maxCommands); b != "" {
		out = append(out, b)
	}
	if b := codeList("skills", f.skills, maxCommands); b != "" {
		out = append(out, b)
	}
	// cerebro's own commands that change the memory: run, as the user
	// typed them (their outcome is memory's own record, not this one's).
	var chores []string
	for _, t := range turns {
		if t.chore {
			if name, args, ok := cerebroCommand(t.ask.Text); ok && cerebroChanges[name] && args != "status" {
				chores = append(chores, strings.TrimSpace("/cerebro:"+name+" "+args))
			}
		}
	}
	if b := codeList("cerebro", chores, maxCommands); b != "" {
		out = append(out, b)
	}
	return out
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
	// superseded: the user's next request corrected what this turn's
	// replies said ("no, it's V4"): their account is not kept.
	superseded bool
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
	// A correction replaces what it corrects: the turn before it, whose
	// replies stated what the user set right.
	for i := 1; i < len(turns); i++ {
		if turns[i].ask == nil || turns[i].chore || !correction(turns[i].ask.Text) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if !turns[j].chore && len(turns[j].replies) > 0 {
				turns[j].superseded = true
				break
			}
		}
	}
	return turns
}

// corrections open a user's words that set right what the assistant
// said: "no, it's V4", "actually it is DOMI", "it's not…", "I meant…";
// notBut is "not X but Y" anywhere in them.
var (
	corrections = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)^(?:no|nope|nah|not quite|wrong|incorrect|that's wrong|that is wrong)\b[\s,.!:;—–-]+\S|` +
			`^actually[\s,]+\S|^(?:it|that|this)(?:'s| is) not\b|\bi meant\b|^нет[\s,.!—-]+\S|^на самом деле\b`)
	})
	notBut = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:not|не)\s+([^,.;?!]{1,60}?)\s*(?:\s+but|,\s*а)\s+(\S+)`)
	})
)

// correction reports whether a prompt corrects the reply before it: a
// short message (a long one is a request of its own) in one of the
// forms above; "not sure, but…" and "not only X but also Y" are none.
func correction(text string) bool {
	s := strings.TrimSpace(text)
	if len([]rune(s)) > 300 {
		return false
	}
	if corrections().MatchString(s) {
		return true
	}
	for _, m := range notBut().FindAllStringSubmatch(s, -1) {
		first := strings.ToLower(strings.Fields(m[1])[0])
		if first != "sure" && first != "only" && first != "just" && first != "yet" && !strings.EqualFold(m[2], "also") {
			return true
		}
	}
	return false
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

// answered reports whether a reply of the turn says something besides
// what it is about to do: a short answer ("Port 3700.") answers.
func (t turn) answered(sc sentenceCache) bool {
	for _, r := range t.replies {
		if statesSomething(sc, r.Text) {
			return true
		}
	}
	return false
}

// stumbled reports whether an action of the turn (a write, an edit, a
// command that changes something) failed or was not allowed.
func (t turn) stumbled() bool {
	// An action is keyed by its intent; one whose newest attempt in the
	// turn succeeded was retried and done, and the reply's account of it
	// stands.
	failed := map[string]bool{}
	for _, r := range t.replies {
		for _, tool := range r.Tools {
			if tool.Result == nil {
				continue
			}
			key := ""
			switch tool.Name {
			case "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "PowerShell":
				key = intent.Of(tool.Name, tool.Target, tool.Input.Command)
			}
			if key != "" {
				failed[key] = !tool.Result.OK()
			}
		}
	}
	for _, f := range failed {
		if f {
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
		"/plugin": true, "/plugins": true, "/add-dir": true, "/bug": true,
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
	// "… is complete", "… are now ready": a state claimed as reached.
	stateDone    = wordSet("complete", "completed", "done", "ready", "finished", "working", "passing", "green", "готово", "готов")
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
			if doneVerbs[next] || ws[i] == "been" && strings.HasSuffix(next, "ed") {
				return true
			}
			if (ws[i] == "is" || ws[i] == "are") && stateDone[next] {
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

// stripFiller drops a leading exclamation of praise from a sentence.
func stripFiller(s string) string {
	for _, p := range []string{"Perfect! ", "Great! ", "Excellent! ", "Good! ", "Nice! ", "Awesome! "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

var conclusionHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t]*#{1,6}[ \t]+[^\n]*(?:summary|findings|conclusion|tl;dr|result|итог|вывод|резюме)[^\n]*\n`)
})
