package night

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/daily"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Reply is one thing the person said on a day, as the daily file keeps it:
// an item of a section's "### Asked" list (the extractive distiller keeps
// the person's own words there), with the section's start time.
type Reply struct {
	Time string // HH:MM, "" when the section head has none
	Text string
}

// UserReplies returns the person's replies recorded in a daily file, as
// [daily.Parse] reads it.
func UserReplies(day []byte) []Reply {
	var out []Reply
	for _, sec := range daily.Parse(day).Sections {
		for _, item := range sec.Items(daily.HeadAsked) {
			out = append(out, Reply{Time: sec.StartClock, Text: item})
		}
	}
	return out
}

// OwnerEvidence checks a proposed fact against the person's replies of its
// evidence day: the fact's text appears in one reply, or at least two
// thirds of its key terms (stemmed, stop words left out) do. It returns
// the reply that carries it. A day that merely exists, or words only the
// assistant wrote, are not evidence.
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
