package night

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Reply is one thing the person said on a day, as the daily file keeps
// it: a request of a section's "### Asked" list (the distillers keep the
// person's own words there), or a line of a section the person wrote
// into the file by hand, with the section's start time.
type Reply struct {
	Time string // HH:MM, "" when the section head has none
	Text string
}

// UserReplies returns the person's own words recorded in a daily file, as
// [daily.Parse] reads it: the requests under "### Asked" — never the
// reply's opening the distiller nests under a request, which is the
// assistant's — and every line of a section without a session (one a
// person added by hand). The other subsections say what the session did:
// tool outcomes, the assistant's summary, its final message.
func UserReplies(day []byte) []Reply {
	var out []Reply
	for _, sec := range daily.Parse(day).Sections {
		if !sec.Marked && sec.Short == "" {
			for _, l := range strings.Split(sec.Body, "\n") {
				l = strings.TrimSpace(l)
				if t := strings.TrimSpace(strings.TrimLeft(l, "-*>")); t != "" && !strings.HasPrefix(l, "#") {
					out = append(out, Reply{Time: sec.StartClock, Text: t})
				}
			}
			continue
		}
		for _, l := range sec.Lists {
			if !strings.EqualFold(l.Head, daily.HeadAsked) {
				continue
			}
			for i, item := range l.Items {
				if i < len(l.Nested) && l.Nested[i] {
					continue
				}
				out = append(out, Reply{Time: sec.StartClock, Text: item})
			}
		}
	}
	return out
}

// OwnerEvidence checks a proposed fact against the person's replies of its
// evidence day: the fact's text appears in one reply, or at least two
// thirds of its key terms (stemmed, stop words left out) do. It returns
// the reply that carries it. A day that merely exists, or words only the
// assistant wrote (an answer nested under a request, a tool's outcome, a
// summary), are not evidence.
func OwnerEvidence(day []byte, fact string) (Reply, bool) {
	norm := func(s string) string { return strings.Join(textan.Words(s), " ") }
	want := norm(fact)
	terms := textan.QueryTerms(fact)
	if want == "" || len(terms) == 0 {
		return Reply{}, false
	}
	need := (2*len(terms) + 2) / 3
	for _, r := range UserReplies(day) {
		if strings.Contains(" "+norm(r.Text)+" ", " "+want+" ") {
			return r, true
		}
		have := map[string]bool{}
		for _, s := range textan.Stems(r.Text) {
			have[s] = true
		}
		n := 0
		for _, t := range terms {
			if have[t] {
				n++
			}
		}
		if n >= need {
			return r, true
		}
	}
	return Reply{}, false
}
