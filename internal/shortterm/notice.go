package shortterm

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cerebro-mem/cerebro/internal/shortterm/inject"
)

// blockNames are the words the person's line uses for the inject's other
// blocks.
var blockNames = map[string]string{"core": "CORE.md", "plan-fact": "plan-fact", "weekly-rollup": "the weekly roll-up"}

// recallNotice is the one line the person sees when SessionStart recalled
// memory — "cerebro: recalled 2 days, 3 sessions (4.1k chars)" — from the
// counts of what the inject handed (inject.Recalled), so it says what the
// model was handed. "" when nothing was recalled.
func recallNotice(text string, r inject.Recalled) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	var parts []string
	if r.Days > 0 {
		parts = append(parts, countOf(r.Days, "day"))
	}
	if r.Sessions > 0 {
		parts = append(parts, countOf(r.Sessions, "session"))
	}
	for _, k := range r.Blocks {
		if name := blockNames[k]; name != "" {
			parts = append(parts, name)
		} else {
			parts = append(parts, k)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "memory")
	}
	return fmt.Sprintf("cerebro: recalled %s (%s)", strings.Join(parts, ", "), charCount(utf8.RuneCountInString(text)))
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
