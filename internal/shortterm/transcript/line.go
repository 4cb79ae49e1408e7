package transcript

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// assembler turns lines into items, folding the lines of one assistant
// message into the item its first line started.
type assembler struct {
	items []Item
	index map[string]int // assistant message.id → position in items
	// more holds the texts of a message's later lines, joined by done:
	// folding line by line copied the text so far for every line.
	more map[int][]string
	// sidechain: the file is a subagent's, its lines all sidechain lines.
	sidechain bool
}

func (a *assembler) add(raw []byte) {
	it, ok := parseLine(raw, a.sidechain)
	if !ok {
		return
	}
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

// done returns the items with every message's texts joined.
func (a *assembler) done() []Item {
	for i, texts := range a.more {
		parts := texts
		if a.items[i].Text != "" {
			parts = append([]string{a.items[i].Text}, texts...)
		}
		a.items[i].Text = strings.Join(parts, "\n\n")
	}
	a.more = nil
	return a.items
}

// ParseLine parses one transcript line. It reports false for anything that
// is not main dialogue, and for an assistant line that carries neither text
// nor tool calls (thinking only). Invalid UTF-8 is replaced, never refused.
func ParseLine(raw []byte) (Item, bool) { return parseLine(raw, false) }

// ParseSidechainLine parses a line of a subagent's transcript: the same
// as [ParseLine], sidechain lines included. What a subagent did (its
// tool calls) belongs to the session that started it.
func ParseSidechainLine(raw []byte) (Item, bool) { return parseLine(raw, true) }

func parseLine(raw []byte, sidechain bool) (Item, bool) {
	it, ok := parseLineWhole(raw, sidechain)
	it.Text = CutText(it.Text)
	return it, ok
}

func parseLineWhole(raw []byte, sidechain bool) (Item, bool) {
	line := trimLine(raw)
	if len(line) == 0 || line[0] != '{' {
		return Item{}, false
	}
	// The type check comes first so the bulk of a transcript (progress,
	// attachments, snapshots) is dismissed without copying or validating
	// large lines.
	typ := gjson.GetBytes(line, "type").Str
	if typ != RoleUser && typ != RoleAssistant {
		return Item{}, false
	}
	var s string
	if utf8.Valid(line) {
		s = string(line)
	} else {
		s = string(bytes.ToValidUTF8(line, []byte("\uFFFD")))
	}
	if !gjson.Valid(s) {
		return Item{}, false
	}
	fields := gjson.GetMany(s, "isSidechain", "isMeta", "isCompactSummary",
		"isVisibleInTranscriptOnly", "isApiErrorMessage", "toolUseResult", "timestamp", "uuid", "message")
	if typ == RoleUser && fields[1].Bool() && !fields[0].Bool() {
		// A hook's feedback that blocked the turn is written as a meta
		// message; it is the one meta message worth keeping.
		if text, kind := userNotice(fields[8].Get("content")); kind == KindHookFeedback {
			when, _ := time.Parse(time.RFC3339Nano, fields[6].Str)
			return Item{Role: RoleUser, Text: text, Time: when, ID: fields[7].Str, Kind: kind}, true
		}
	}
	if (fields[0].Bool() && !sidechain) || fields[1].Bool() || fields[2].Bool() || fields[3].Bool() || fields[4].Bool() {
		return Item{}, false
	}
	msg := fields[8]
	when, _ := time.Parse(time.RFC3339Nano, fields[6].Str)
	if typ == RoleUser {
		if fields[5].Exists() {
			// A tool result, whatever its shape; a few carry the user's
			// own words (an answer, a refusal with its reason).
			if text, kind := userResult(msg.Get("content"), fields[5]); kind != "" {
				return Item{Role: RoleUser, Text: text, Time: when, ID: fields[7].Str, Kind: kind}, true
			}
			return Item{}, false
		}
		if text, kind := userNotice(msg.Get("content")); kind != "" {
			return Item{Role: RoleUser, Text: text, Time: when, ID: fields[7].Str, Kind: kind}, true
		}
		text, ok := userText(msg.Get("content"))
		if !ok {
			return Item{}, false
		}
		return Item{Role: RoleUser, Text: text, Time: when, ID: fields[7].Str}, true
	}
	if msg.Get("model").Str == "<synthetic>" {
		return Item{}, false // "No response requested." and local error notices
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
			it.Tools = append(it.Tools, Tool{Name: block.Get("name").Str, Target: toolTarget(block.Get("input"))})
		}
		return true
	})
	it.Text = strings.Join(texts, "\n\n")
	if content := msg.Get("content"); content.Type == gjson.String {
		it.Text = strings.TrimSpace(content.Str)
	}
	if it.Text == "" && len(it.Tools) == 0 {
		return Item{}, false
	}
	return it, true
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
