package transcript

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// assembler turns lines into items, folding the lines of one assistant
// message into the item its first line started, and gathers what else a
// read finds: tool results, inline sidechains, titles, queued prompts.
type assembler struct {
	items []Item
	index map[string]int // assistant message.id → position in items
	// more holds the texts of a message's later lines, joined by finish:
	// folding line by line copied the text so far for every line.
	more map[int][]string
	// sidechain: the file is a subagent's, its lines all sidechain lines.
	sidechain bool
	// side assembles the sidechain lines of a main file (Claude Code
	// 1.0 wrote subagents inline); nil until one is met.
	side *assembler
	// results are the tool results read, by tool_use_id, until paired.
	results map[string]Result
	// uuids of the dialogue lines read: a summary line is this
	// session's title only when its leafUuid is one of them.
	uuids     map[string]bool
	summaries []summaryLine
	aiTitle   string
	custom    string
	session   string
	cwd       string
	// queued maps a prompt typed while a turn ran (a queue-operation
	// line) to its item, until the line that delivers it shows up.
	queued        map[string]int
	dropped       map[int]bool
	deliveredText []string
}

type summaryLine struct{ leaf, text string }

func (a *assembler) add(raw []byte) {
	line := trimLine(raw)
	if len(line) == 0 || line[0] != '{' {
		return
	}
	// The type check comes first so the bulk of a transcript (progress,
	// snapshots) is dismissed without copying or validating large lines.
	switch typ := gjson.GetBytes(line, "type").Str; typ {
	case RoleUser, RoleAssistant:
	case "summary", "ai-title", "custom-title", "queue-operation", "attachment":
		a.meta(typ, line)
		return
	default:
		return
	}
	if !a.sidechain && gjson.GetBytes(line, "isSidechain").Bool() {
		if a.side == nil {
			a.side = &assembler{sidechain: true}
		}
		a.side.add(raw)
		return
	}
	p, ok := parse(line, a.sidechain)
	if !ok {
		return
	}
	if p.uuid != "" {
		if a.uuids == nil {
			a.uuids = map[string]bool{}
		}
		a.uuids[p.uuid] = true
	}
	if a.session == "" {
		a.session = p.session
	}
	if p.cwd != "" {
		a.cwd = p.cwd
	}
	for _, r := range p.results {
		if a.results == nil {
			a.results = map[string]Result{}
		}
		a.results[r.id] = r.res
	}
	if !p.hasItem {
		return
	}
	it := p.item
	if it.Role == RoleUser && it.Kind == "" {
		a.delivered(it.Text)
	}
	a.append(it)
}

func (a *assembler) append(it Item) {
	if it.Role == RoleAssistant && it.ID != "" {
		if a.index == nil {
			a.index = make(map[string]int)
		}
		if i, seen := a.index[it.ID]; seen {
			first := &a.items[i]
			if it.Text != "" {
				if a.more == nil {
					a.more = make(map[int][]string)
				}
				a.more[i] = append(a.more[i], it.Text)
			}
			first.Tools = append(first.Tools, it.Tools...) // the assembler's own slice
			if first.Time.IsZero() {
				first.Time = it.Time
			}
			return
		}
		a.index[it.ID] = len(a.items)
	}
	a.items = append(a.items, it)
}

// meta reads the lines that carry no dialogue but still matter: titles
// and prompts typed while a turn was running.
func (a *assembler) meta(typ string, line []byte) {
	if !gjson.ValidBytes(line) {
		return
	}
	s := string(bytes.ToValidUTF8(line, []byte("\uFFFD")))
	switch typ {
	case "summary":
		if leaf, text := gjson.Get(s, "leafUuid").Str, strings.TrimSpace(gjson.Get(s, "summary").Str); leaf != "" && text != "" {
			a.summaries = append(a.summaries, summaryLine{leaf, text})
		}
	case "ai-title":
		if t := strings.TrimSpace(gjson.Get(s, "aiTitle").Str); t != "" {
			a.aiTitle = t
		}
	case "custom-title":
		if t := strings.TrimSpace(gjson.Get(s, "customTitle").Str); t != "" {
			a.custom = t
		}
	case "queue-operation":
		// A prompt typed while the model worked. Claude Code usually
		// writes it again as a user line (or, from 2.1, an attachment)
		// when it hands it over; some versions never do.
		if gjson.Get(s, "operation").Str != "enqueue" {
			return
		}
		a.queue(gjson.Get(s, "content").Str, gjson.Get(s, "timestamp").Str, gjson.Get(s, "uuid").Str)
	case "attachment":
		at := gjson.Get(s, "attachment")
		if at.Get("type").Str != "queued_command" || gjson.Get(s, "isSidechain").Bool() {
			return
		}
		if k := at.Get("origin.kind").Str; k != "" && k != "human" {
			return
		}
		text := CleanUser(at.Get("prompt").Str)
		if text == "" {
			return
		}
		when, _ := time.Parse(time.RFC3339Nano, gjson.Get(s, "timestamp").Str)
		a.delivered(text)
		a.append(Item{Role: RoleUser, Text: text, Time: when, ID: gjson.Get(s, "uuid").Str})
	}
}

func (a *assembler) queue(content, ts, uuid string) {
	text := CleanUser(content)
	if text == "" {
		return
	}
	when, _ := time.Parse(time.RFC3339Nano, ts)
	if uuid == "" {
		uuid = "queued-" + ts
	}
	if a.queued == nil {
		a.queued = map[string]int{}
	}
	a.queued[text] = len(a.items)
	a.items = append(a.items, Item{Role: RoleUser, Text: text, Time: when, ID: uuid})
}

// delivered drops the queued copy of a prompt that a user line or an
// attachment now delivers: the prompt is listed once, where the model
// got it. A prompt queued before this read is dropped by [Log.Append].
func (a *assembler) delivered(text string) {
	if i, ok := a.queued[text]; ok {
		if a.dropped == nil {
			a.dropped = map[int]bool{}
		}
		a.dropped[i] = true
		delete(a.queued, text)
		return
	}
	a.deliveredText = append(a.deliveredText, text)
}

// finish pairs the results read with their calls and settles the title.
func (a *assembler) finish() Log {
	a.joinTexts()
	items := a.items
	if len(a.dropped) > 0 {
		kept := make([]Item, 0, len(items))
		for i, it := range items {
			if !a.dropped[i] {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	l := Log{Items: items, SessionID: a.session, Cwd: a.cwd, results: a.results,
		custom: a.custom, ai: a.aiTitle, summaries: a.summaries, uuids: a.uuids, delivered: a.deliveredText}
	for text, i := range a.queued {
		if l.queued == nil {
			l.queued = map[string]string{}
		}
		l.queued[text] = a.items[i].ID
	}
	if a.side != nil {
		side := a.side.finish()
		l.Side = side.Items
		for id, r := range side.results {
			if l.results == nil {
				l.results = map[string]Result{}
			}
			l.results[id] = r
		}
	}
	l.pair()
	l.settleTitle()
	return l
}

// joinTexts joins every message's texts, once.
func (a *assembler) joinTexts() {
	for i, texts := range a.more {
		parts := texts
		if a.items[i].Text != "" {
			parts = append([]string{a.items[i].Text}, texts...)
		}
		a.items[i].Text = strings.Join(parts, "\n\n")
	}
	a.more = nil
}

// ParseLine parses one transcript line. It reports false for anything that
// is not main dialogue, and for an assistant line that carries neither text
// nor tool calls (thinking only). Invalid UTF-8 is replaced, never refused.
func ParseLine(raw []byte) (Item, bool) {
	line := trimLine(raw)
	if len(line) == 0 || line[0] != '{' {
		return Item{}, false
	}
	if typ := gjson.GetBytes(line, "type").Str; typ != RoleUser && typ != RoleAssistant {
		return Item{}, false
	}
	p, ok := parse(line, false)
	return p.item, ok && p.hasItem
}

// parsed is what one dialogue line holds.
type parsed struct {
	item          Item
	hasItem       bool
	results       []idResult
	uuid, session string
	cwd           string
}

type idResult struct {
	id  string
	res Result
}

// parse reads a user or assistant line (its type already checked), its
// text cut to [MaxText].
func parse(line []byte, sidechain bool) (parsed, bool) {
	p, ok := parseWhole(line, sidechain)
	p.item.Text = CutText(p.item.Text)
	return p, ok
}

func parseWhole(line []byte, sidechain bool) (parsed, bool) {
	var s string
	if utf8.Valid(line) {
		s = string(line)
	} else {
		s = string(bytes.ToValidUTF8(line, []byte("\uFFFD")))
	}
	if !gjson.Valid(s) {
		return parsed{}, false
	}
	typ := gjson.Get(s, "type").Str
	fields := topFields(s, "isSidechain", "isMeta", "isCompactSummary",
		"isVisibleInTranscriptOnly", "isApiErrorMessage", "toolUseResult", "timestamp", "uuid", "message",
		"sessionId", "cwd")
	p := parsed{uuid: fields[7].Str, session: fields[9].Str, cwd: fields[10].Str}
	msg := fields[8]
	when, _ := time.Parse(time.RFC3339Nano, fields[6].Str)
	userItem := func(text, kind string) (parsed, bool) {
		p.item, p.hasItem = Item{Role: RoleUser, Text: text, Time: when, ID: fields[7].Str, Kind: kind}, true
		return p, true
	}
	if typ == RoleUser && fields[1].Bool() && !fields[0].Bool() {
		// A hook's feedback that blocked the turn is written as a meta
		// message; it is the one meta message worth keeping.
		if text, kind := userNotice(msg.Get("content")); kind == KindHookFeedback {
			return userItem(text, kind)
		}
	}
	if typ == RoleUser && fields[2].Bool() && !fields[0].Bool() {
		// Claude Code's own summary of the conversation before a
		// compaction: not the user's words, but the best account of
		// what the compaction replaced.
		if text := compactSummary(msg.Get("content")); text != "" {
			return userItem(text, KindCompactSummary)
		}
		return p, true
	}
	if (fields[0].Bool() && !sidechain) || fields[1].Bool() || fields[2].Bool() || fields[3].Bool() || fields[4].Bool() {
		return p, true
	}
	if typ == RoleUser {
		content := msg.Get("content")
		if results := toolResults(content, fields[5]); len(results) > 0 || fields[5].Exists() {
			p.results = results
			// A tool result, whatever its shape; a few carry the user's
			// own words (an answer, a refusal with its reason).
			if text, kind := userResult(content, fields[5]); kind != "" {
				return userItem(text, kind)
			}
			return p, true
		}
		if text, kind := userNotice(content); kind != "" {
			return userItem(text, kind)
		}
		text, ok := userText(content)
		if !ok {
			return p, true
		}
		return userItem(text, "")
	}
	if msg.Get("model").Str == "<synthetic>" {
		return p, true // "No response requested." and local error notices
	}
	it := Item{Role: RoleAssistant, Time: when, ID: msg.Get("id").Str}
	if it.ID == "" {
		it.ID = fields[7].Str
	}
	// The texts are joined once at the end: joining block by block copied
	// the text so far for every block, quadratic in a line of 200k blocks.
	var texts []string
	msg.Get("content").ForEach(func(_, block gjson.Result) bool {
		switch block.Get("type").Str {
		case "text":
			if t := strings.TrimSpace(block.Get("text").Str); t != "" {
				texts = append(texts, t)
			}
		case "tool_use":
			if len(it.Tools) == MaxLineTools {
				return true
			}
			name, input := block.Get("name").Str, block.Get("input")
			it.Tools = append(it.Tools, Tool{Name: name, Target: toolTarget(input), ID: block.Get("id").Str, Input: toolInput(name, input)})
		}
		return true
	})
	it.Text = strings.Join(texts, "\n\n")
	if content := msg.Get("content"); content.Type == gjson.String {
		it.Text = strings.TrimSpace(content.Str)
	}
	if it.Text == "" && len(it.Tools) == 0 {
		return p, true
	}
	p.item, p.hasItem = it, true
	return p, true
}

// MaxLineTools is how many tool calls of one assistant line are read.
// Claude Code writes a message's parallel calls, a few dozen at most, on
// one line each or together; a line of 100k calls is hostile, and reading
// each as a Tool (and again as a call of the segment) took a Stop hook
// past 180 MB. The calls after the cap are dropped at read; their results
// then pair with nothing and are passed over like any orphan result.
const MaxLineTools = 512

// topFields reads the named top-level fields of a JSON object in one pass
// (the first of a repeated key, like gjson.Get). gjson.GetMany scans the
// line once per name, skipping the whole message each time a name comes
// after it or is absent: eleven scans of a line of 200k content blocks.
func topFields(s string, names ...string) []gjson.Result {
	out := make([]gjson.Result, len(names))
	left := len(names)
	gjson.Parse(s).ForEach(func(k, v gjson.Result) bool {
		for i, n := range names {
			if n == k.Str && !out[i].Exists() {
				out[i] = v
				left--
			}
		}
		return left > 0
	})
	return out
}

// toolResults reads the tool_result blocks of a user line.
func toolResults(content, tur gjson.Result) []idResult {
	if !content.IsArray() {
		return nil
	}
	var out []idResult
	content.ForEach(func(_, block gjson.Result) bool {
		if block.Get("type").Str == "tool_result" {
			if id := block.Get("tool_use_id").Str; id != "" {
				out = append(out, idResult{id, parseResult(block, tur)})
			}
		}
		return true
	})
	return out
}

// commandMax bounds a shell command kept whole: a heredoc commit
// message fits, a generated file does not need to.
const commandMax = 8 << 10

// planMax bounds a plan kept for its steps.
const planMax = 4 << 10

// todoMax bounds a TodoWrite list.
const todoMax = 64

func toolInput(name string, input gjson.Result) Input {
	var in Input
	switch name {
	case "Bash", "PowerShell":
		in.Command = bound(strings.TrimSpace(input.Get("command").Str), commandMax, 0)
		in.Background = input.Get("run_in_background").Bool()
	case "TodoWrite":
		input.Get("todos").ForEach(func(_, t gjson.Result) bool {
			if c := strings.TrimSpace(t.Get("content").Str); c != "" {
				in.Todos = append(in.Todos, Todo{Content: truncateRunes(c, targetMax), Status: t.Get("status").Str})
			}
			return len(in.Todos) < todoMax
		})
	case "TaskCreate", "TaskUpdate":
		in.Subject = truncateRunes(strings.TrimSpace(input.Get("subject").Str), targetMax)
		in.TaskID = firstString(input, "taskId", "task_id", "id")
		in.Status = input.Get("status").Str
	case "TaskOutput", "BashOutput", "KillShell":
		in.TaskID = firstString(input, "task_id", "bash_id", "shell_id", "taskId")
	case "Task", "Agent":
		in.Description = truncateRunes(strings.TrimSpace(input.Get("description").Str), targetMax)
		in.Agent = input.Get("subagent_type").Str
	case "Skill":
		in.Args = truncateRunes(strings.TrimSpace(input.Get("args").Str), targetMax)
	case "ExitPlanMode":
		in.Plan = bound(strings.TrimSpace(input.Get("plan").Str), planMax, 0)
	case "AskUserQuestion":
		in.Subject = truncateRunes(strings.TrimSpace(input.Get("questions.0.question").Str), targetMax)
	}
	return in
}

func firstString(input gjson.Result, keys ...string) string {
	for _, k := range keys {
		if v := input.Get(k); v.Exists() && v.String() != "" {
			return v.String()
		}
	}
	return ""
}

// compactSummary is the summary a compaction wrote, without the framing
// Claude Code puts around it.
func compactSummary(content gjson.Result) string {
	text := content.Str
	if content.IsArray() {
		text = resultText(content)
	}
	text = strings.TrimSpace(text)
	text = strings.TrimSpace(strings.TrimPrefix(text, "This session is being continued from a previous conversation that ran out of context."))
	text = strings.TrimSpace(strings.TrimPrefix(text, "The summary below covers the earlier portion of the conversation."))
	if i := strings.Index(text, "\nIf you need specific details from before compaction"); i >= 0 {
		text = text[:i]
	}
	for _, tail := range []string{"\nPlease continue the conversation from where", "\nContinue the conversation from where"} {
		if i := strings.Index(text, tail); i >= 0 {
			text = text[:i]
		}
	}
	return strings.TrimSpace(text)
}

// targetKeys are the tool-input fields that name what a call was about,
// in order of preference.
var targetKeys = []string{
	"file_path", "notebook_path", "command", "pattern", "url", "query", "path", "skill", "description", "plan",
}

// targetMax bounds a target: a heredoc command can run to kilobytes.
const targetMax = 300

func toolTarget(input gjson.Result) string {
	for _, k := range targetKeys {
		if v := input.Get(k); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return truncateRunes(strings.TrimSpace(v.Str), targetMax)
		}
	}
	return ""
}

func trimLine(b []byte) []byte {
	return bytes.TrimRight(b, "\r\n")
}

func validJSON(b []byte) bool {
	return gjson.ValidBytes(b)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// truncateRunes cuts s to at most n runes, marking the cut with "…".
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// MaxText bounds the text of one item (a prompt, a reply) as memory keeps
// it: a 15 MB pasted log or a 60 MB reply is cut here, at read, so that no
// step after (the journal, the counts, the distiller, the secret scan) ever
// holds or scans it whole. Both sides of a message (the hook's copy and the
// transcript's) are cut at the same place, so they still match.
const MaxText = 64 << 10

// cutMark ends a text cut at [MaxText].
const cutMark = " …[cut by cerebro]"

// CutText cuts s to [MaxText] bytes on a character boundary, marking the
// cut; a shorter s is returned as it is.
func CutText(s string) string {
	if len(s) <= MaxText {
		return s
	}
	n := MaxText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + cutMark
}
