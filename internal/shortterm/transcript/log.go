package transcript

// Log is what one read of a transcript holds for the distillate: the main
// dialogue with every tool call paired with its result, the sidechains
// written inline (Claude Code 1.0's subagents), the session's title and
// where it ran.
type Log struct {
	// Items are the main dialogue, as [Reader.Read] returns it.
	Items []Item
	// Side are the sidechain items of a main file: a subagent's tool
	// calls (paired with their results) and its text.
	Side []Item
	// Title is the session's title when the read holds one: a title the
	// user gave (custom-title), else Claude Code's (ai-title), else a
	// summary line whose leafUuid is a message of this read. Summary
	// lines about other sessions (1.0 copies them to the top of a
	// resumed file) are not titles.
	Title string
	// SessionID and Cwd are the session and working directory the lines
	// name (the last cwd seen).
	SessionID, Cwd string
	// results are those not yet paired with a call: the call lies in an
	// earlier chunk, paired by [Log.Append].
	results map[string]Result
	// What the title is settled from, kept so that reads in chunks
	// settle it as one read would.
	custom, ai string
	summaries  []summaryLine
	uuids      map[string]bool
	// queued are prompts from queue lines not yet delivered (text →
	// item ID); delivered, the texts this read delivered that it had
	// not queued itself.
	queued    map[string]string
	delivered []string
}

// settleTitle: the user's title, else Claude Code's, else the newest
// summary of a message of this log.
func (l *Log) settleTitle() {
	switch {
	case l.custom != "":
		l.Title = l.custom
	case l.ai != "":
		l.Title = l.ai
	default:
		l.Title = ""
		for i := len(l.summaries) - 1; i >= 0; i-- {
			if l.uuids[l.summaries[i].leaf] {
				l.Title = l.summaries[i].text
				break
			}
		}
	}
}

// ReadLog is [Reader.Read] with everything else the distillate needs; see
// [Log]. Combine successive reads with [Log.Append].
func (r Reader) ReadLog(path string, from, maxBytes int64) (Log, int64, error) {
	return r.readLog(path, from, maxBytes, false)
}

// ReadSidechainLog reads a subagent's transcript as [Reader.ReadLog]
// reads the main one: its lines are all sidechain lines, its items the
// Items.
func (r Reader) ReadSidechainLog(path string, from, maxBytes int64) (Log, int64, error) {
	return r.readLog(path, from, maxBytes, true)
}

// Append adds the next read to l: items of a message split across the
// two are folded ([Merge]), results are paired with calls of either, and
// the newer read's title and cwd win.
func (l Log) Append(more Log) Log {
	items := l.Items
	queued := map[string]string{}
	for k, v := range l.queued {
		queued[k] = v
	}
	if len(more.delivered) > 0 && len(queued) > 0 {
		// A prompt queued in l and delivered in more is listed where it
		// was delivered.
		drop := map[string]bool{}
		for _, text := range more.delivered {
			if id, ok := queued[text]; ok {
				drop[id] = true
				delete(queued, text)
			}
		}
		kept := make([]Item, 0, len(items))
		for _, it := range items {
			if !(it.Role == RoleUser && it.Kind == "" && drop[it.ID]) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	for k, v := range more.queued {
		queued[k] = v
	}
	out := Log{
		Items: Merge(items, more.Items), Side: Merge(l.Side, more.Side),
		SessionID: l.SessionID, Cwd: l.Cwd,
		custom: l.custom, ai: l.ai, summaries: append(append([]summaryLine(nil), l.summaries...), more.summaries...),
		delivered: append(append([]string(nil), l.delivered...), more.delivered...),
	}
	if len(queued) > 0 {
		out.queued = queued
	}
	if more.custom != "" {
		out.custom = more.custom
	}
	if more.ai != "" {
		out.ai = more.ai
	}
	if len(l.uuids)+len(more.uuids) > 0 {
		out.uuids = make(map[string]bool, len(l.uuids)+len(more.uuids))
		for k := range l.uuids {
			out.uuids[k] = true
		}
		for k := range more.uuids {
			out.uuids[k] = true
		}
	}
	out.settleTitle()
	if out.SessionID == "" {
		out.SessionID = more.SessionID
	}
	if more.Cwd != "" {
		out.Cwd = more.Cwd
	}
	if len(l.results)+len(more.results) > 0 {
		out.results = make(map[string]Result, len(l.results)+len(more.results))
		for id, r := range l.results {
			out.results[id] = r
		}
		for id, r := range more.results {
			out.results[id] = r
		}
	}
	out.pair()
	return out
}

// pair attaches each unpaired result to its call. A call's result comes
// after it, so a result whose call is not in the log yet waits; one whose
// call was in an earlier segment never finds it, and is dropped when the
// log is handed on (Items carry only paired results).
func (l *Log) pair() {
	if len(l.results) == 0 {
		return
	}
	attach := func(items []Item) {
		for i := range items {
			tools := items[i].Tools
			copied := false
			for j, t := range tools {
				r, ok := l.results[t.ID]
				if t.ID == "" || !ok {
					continue
				}
				if !copied {
					// Items may share their Tools with an earlier Log.
					tools = append([]Tool(nil), tools...)
					copied = true
				}
				res := r
				res.trimFor(t.Name)
				tools[j].Result = &res
				delete(l.results, t.ID)
			}
			items[i].Tools = tools
		}
	}
	attach(l.Items)
	attach(l.Side)
}
