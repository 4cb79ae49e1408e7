package shortterm

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// memoryBlock is the opening tag of one block of the recalled memory
// SessionStart hands the model: <memory kind="short-term" source="…" date="…">.
var memoryBlock = lazyregexp.New(`(?m)^<memory kind="([^"]+)" source="[^"]*"(?: date="([^"]*)")?[^>\n]*>\n`)

// timelineDay and timelineSession are a timeline block's day heading
// ("2026-11-29", or "2026-11-29 · <file>" for an archived day) and a
// session's line under it ("- 10:00 · title · outcome").
var (
	timelineDay     = lazyregexp.New(`(?m)^(\d{4}-\d{2}-\d{2})(?: · |$)`)
	timelineSession = lazyregexp.New(`(?m)^- \d{2}:\d{2} · `)
)

// RecallNotice is the one line the person sees when SessionStart recalled
// memory — "cerebro: recalled 2 days, 3 sessions (4.1k chars)" — read from
// the recalled text itself (its blocks, and the daily sections in them
// through daily.Parse), so it says what the model was handed. "" when
// nothing was recalled.
func RecallNotice(context string) string {
	if strings.TrimSpace(context) == "" {
		return ""
	}
	days := map[string]bool{}
	sessions := map[string]bool{}
	sections, lines := 0, 0
	var more []string
	locs := memoryBlock.FindAllStringSubmatchIndex(context, -1)
	for i, loc := range locs {
		kind := context[loc[2]:loc[3]]
		end := len(context)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := context[loc[1]:end]
		body, _, _ = strings.Cut(body, "\n</memory>")
		switch kind {
		case "short-term":
			if loc[4] >= 0 {
				days[context[loc[4]:loc[5]]] = true
			}
			for _, sec := range daily.Parse([]byte(body)).Sections {
				sections++
				if sec.Short != "" {
					sessions[sec.Short] = true
				}
			}
		case "timeline":
			// One line per session of the days before, no id on it.
			for _, m := range timelineDay.FindAllStringSubmatch(body, -1) {
				days[m[1]] = true
			}
			lines += len(timelineSession.FindAllString(body, -1))
		case "core":
			more = append(more, "CORE.md")
		case "plan-fact":
			more = append(more, "plan-fact")
		case "weekly-rollup":
			more = append(more, "the weekly roll-up")
		default:
			more = append(more, kind)
		}
	}
	var parts []string
	if len(days) > 0 {
		parts = append(parts, countOf(len(days), "day"))
	}
	if n := len(sessions) + lines; n > 0 {
		parts = append(parts, countOf(n, "session"))
	} else if sections > 0 {
		parts = append(parts, countOf(sections, "section"))
	}
	parts = append(parts, more...)
	if len(parts) == 0 {
		parts = append(parts, "memory")
	}
	return fmt.Sprintf("cerebro: recalled %s (%s)", strings.Join(parts, ", "), charCount(utf8.RuneCountInString(context)))
}

// charCount is a size as people read it: 850 chars, 4.1k chars.
func charCount(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d chars", n)
	}
	return fmt.Sprintf("%.1fk chars", float64(n)/1000)
}

// countOf is "1 day", "3 days".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
