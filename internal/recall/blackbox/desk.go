package blackbox

import (
	"sort"
	"strconv"
)

// ProjectRanges are the line ranges of one project's memory that a search
// across the desk pointed at: ID "" for the asking project, another's
// registry id otherwise; Base is the project's root.
type ProjectRanges struct {
	ID, Base string
	Ranges   []Range
}

// ScanProjects scores every project's ranges as [ScanRanges] scores one
// project's (the share of the question's words, alike for all) and keeps
// the best limit of them all, the asking project's first on a tie.
// Another project's passages carry its id in their Path (id:path) and in
// Project.
func ScanProjects(projects []ProjectRanges, query string, limit int) []Hit {
	var hits []Hit
	for _, p := range projects {
		for _, h := range ScanRanges(p.Base, p.Ranges, query, limit) {
			if p.ID != "" {
				h.Path, h.Project = p.ID+":"+h.Path, p.ID
			}
			hits = append(hits, h)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if (hits[i].Project == "") != (hits[j].Project == "") {
			return hits[i].Project == ""
		}
		return hits[i].Path+"\x00"+strconv.Itoa(hits[i].Line) < hits[j].Path+"\x00"+strconv.Itoa(hits[j].Line)
	})
	return hits[:min(limit, len(hits))]
}
