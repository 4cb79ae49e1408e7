package schedule

import (
	"fmt"
	"strings"
)

// Job is one thing the daily entry runs. The entry starts `memhook
// schedule run`, which runs every job in this order; a job that fails is
// reported and the next one still runs.
type Job struct {
	Name        string
	Description string
	Args        []string // memhook's arguments; the entry's --home is appended
}

// Jobs is what the one scheduler entry runs, in order. The night pass
// comes first so that the dashboard built after it shows the night's
// lint findings and roll-ups.
var Jobs = []Job{
	{Name: "night", Description: "night pass over every registered project's long-term memory (roll-ups, index, graph, lint, commits; model steps only when night.model is set)", Args: []string{"night", "--all"}},
	{Name: "evolve", Description: "decide skill candidates in every registered project (promote, remove or wait)", Args: []string{"evolve", "--all"}},
	{Name: "rollup", Description: "org dashboard (rollup.md) of every registered project", Args: []string{"rollup"}},
}

// JobNames lists the jobs, for the entry's description.
func JobNames() string {
	names := make([]string, len(Jobs))
	for i, j := range Jobs {
		names[i] = j.Name
	}
	return strings.Join(names, ", ")
}

// DescribeJobs is the list of jobs as --dry-run prints it.
func DescribeJobs() string {
	var b strings.Builder
	b.WriteString("the entry runs `memhook schedule run`, which runs these jobs in order:\n")
	for i, j := range Jobs {
		fmt.Fprintf(&b, "  %d. %s: memhook %s — %s\n", i+1, j.Name, strings.Join(j.Args, " "), j.Description)
	}
	return b.String()
}
