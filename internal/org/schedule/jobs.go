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
// comes first; the maintenance after it pushes what the night committed,
// and the dashboard, built last, shows the night's lint findings, its
// roll-ups and how each remote stands.
var Jobs = []Job{
	{Name: "night", Description: "night pass over every registered project's long-term memory (roll-ups, index, graph, lint, commits; model steps only when night.model is set)", Args: []string{"night", "--all"}},
	{Name: "evolve", Description: "decide skill candidates in every registered project (promote, remove or wait)", Args: []string{"evolve", "--all"}},
	{Name: "long-sync", Description: "push every registered project's long-term memory to long.remote, taking its new commits back (nothing when long.remote is not set)", Args: []string{"long", "sync", "--all"}},
	{Name: "org-sync", Description: "sync the org vault with org.remote (nothing when it is not set)", Args: []string{"org", "sync", "--if-configured"}},
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
