package night

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Values of night.core: what step 4 does with the CORE.md lines it draws
// from the person's own replies.
const (
	// CorePropose leaves each line for `memhook core review` (default):
	// CORE.md reaches every session's context, so a line the night got
	// wrong would mislead every session until someone noticed, while a
	// card is read only when asked for. The owner check proves the person
	// said it, not that they want it in every session.
	CorePropose = "propose"
	// CoreApply adds each line through the CORE writer (cap, commit).
	CoreApply = "apply"
	// CoreOff skips the step.
	CoreOff = "off"
)

// Bounds of one day's CORE proposals.
const (
	maxCoreLines     = 3
	maxCoreLineChars = 200
)

const coreInstructions = CoreRequest + `

CORE.md is the short file every session of this project starts with (below between <core> tags). Below between <replies> tags are the person's own words from one day. Propose at most 3 lines for CORE.md: only what the person stated that every future session must know (a standing rule, a preference, a constraint of the project), never a one-off task or a passing remark, and nothing CORE.md already says. Each line restates the person's words, in their language, under 200 characters. Reply with ONE JSON object and nothing else:

{"add": ["..."]}

An empty list is the usual answer.
Example: {"add": ["Releases leave on Fridays; never deploy on a Monday."]}
`

type coreAnswer struct {
	Add []string `json:"add"`
}

// coreDay runs step 4 for a day: one call over the person's replies in
// the sections the step has not seen yet (none when there are none), then
// the proposals are checked and applied or kept. done=false: no call
// could be made, the day waits.
func (n *run) coreDay(ctx context.Context, d longterm.Day, data []byte, units []unit, c *dayCache) (bool, error) {
	if n.o.Core == CoreOff {
		return true, nil
	}
	from := c.CoreTo
	if from < 1 {
		from = 1 // unit 0 is the header
	}
	var replies []Reply
	if from < len(units) {
		replies = UserReplies([]byte(joinUnits(units[from:])))
	}
	if len(replies) > 0 {
		core, _ := safefs.ReadFile(n.s.Path(longterm.CoreFile), maxFileBytes)
		prompt := corePrompt(string(core), n.o.CoreMaxChars, replies)
		a, ok, err := n.ask(ctx, prompt)
		if !ok {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		c.Core = append(c.Core, cachedPart{From: from, To: len(units), Answer: a.Text, InputTokens: a.Usage.Input(), OutputTokens: a.Usage.OutputTokens})
	}
	c.CoreTo = len(units)
	if err := n.saveCache(c); err != nil {
		return false, err
	}
	var lines []string
	for _, p := range c.Core {
		var a coreAnswer
		if err := parseAnswer(p.Answer, &a); err != nil {
			// A CORE answer that does not parse is dropped: step 4 only
			// proposes, and the day's facts must not wait on it.
			n.rep.problem(fmt.Errorf("core %s: %w", d.Date, err))
			continue
		}
		lines = append(lines, a.Add...)
	}
	if len(lines) == 0 {
		return true, nil
	}
	n.rep.ranOnce(StepCoreEdits)
	err := n.step("night core "+d.Date, func() error { return n.applyCore(d, data, lines) })
	return err == nil, err
}

func corePrompt(core string, max int, replies []Reply) string {
	var b strings.Builder
	b.WriteString(coreInstructions)
	left := max - utf8.RuneCountInString(core)
	if max > 0 {
		fmt.Fprintf(&b, "\nCORE.md may hold %d characters; %d are left.\n", max, left)
	}
	fmt.Fprintf(&b, "\n<core>\n%s\n</core>\n\n<replies>\n", strings.TrimRight(core, "\n"))
	for _, r := range replies {
		if r.Time != "" {
			fmt.Fprintf(&b, "- %s %s\n", r.Time, oneLine(r.Text))
		} else {
			fmt.Fprintf(&b, "- %s\n", oneLine(r.Text))
		}
	}
	b.WriteString("</replies>\n")
	return b.String()
}

// applyCore checks each proposed line — one line, bounded, no heading,
// not in CORE.md already, stated by the person in one of the day's replies
// — and applies it through the CORE writer (night.core = "apply") or keeps
// it for `memhook core review`. A line over CORE's cap is kept too.
func (n *run) applyCore(d longterm.Day, data []byte, lines []string) error {
	core, _ := safefs.ReadFile(n.s.Path(longterm.CoreFile), maxFileBytes)
	have := normLine(string(core))
	var keep []longterm.CoreProposal
	taken := 0
	for _, raw := range lines {
		line := oneLine(strings.TrimLeft(strings.TrimSpace(raw), "-*• "))
		switch {
		case taken == maxCoreLines:
			continue
		case line == "", strings.HasPrefix(line, "#"), utf8.RuneCountInString(line) > maxCoreLineChars:
			continue
		case strings.Contains(have, normLine(line)):
			continue // CORE.md says it already
		}
		reply, ok := OwnerEvidence(data, line)
		if !ok {
			continue // not the person's own words: never proposed
		}
		taken++
		p := longterm.CoreProposal{Day: d.Date, Time: reply.Time, Line: "- " + line, Reply: reply.Text}
		if n.o.Core == CoreApply {
			_, err := n.s.CoreAdd(p.Line, n.o.CoreMaxChars, n.o.Now)
			var big *longterm.CoreTooBigError
			switch {
			case errors.As(err, &big):
				p.Why = big.Error()
			case err != nil:
				return err
			default:
				n.rep.CoreAdded++
				n.rep.wrote("memory_long/" + longterm.CoreFile)
				have += " " + normLine(line)
				continue
			}
		}
		keep = append(keep, p)
	}
	if len(keep) == 0 {
		return nil
	}
	added, err := n.s.ProposeCore(keep)
	n.rep.CoreProposed += added
	return err
}

func normLine(s string) string { return " " + strings.Join(textan.Words(s), " ") + " " }
