package rollup

import "fmt"

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
