package rollup

import "fmt"

// ActivityWords is a project's activity as rollup.md writes it ("fresh ·
// today", "⚠ stale · 45 days ago"): the web dashboard shows the same
// words, from here.
func ActivityWords(p *Project) string { return activityCell(p) }

// WeeksAgo names the week that ended n weeks before the one ending today,
// in the words rollup.md uses for days: "this week", "1 week ago", "3 weeks ago".
func WeeksAgo(n int) string {
	switch n {
	case 0:
		return "this week"
	case 1:
		return "1 week ago"
	}
	return fmt.Sprintf("%d weeks ago", n)
}
