package orgvault

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestAnswerFromKeepsSearchOrderOnePerPage: the search's passages become
// one hit a page in their order, named by the page's title, type and
// status; the index, the hub and the templates never answer.
func TestAnswerFromKeepsSearchOrderOnePerPage(t *testing.T) {
	v := curated(t)
	write(t, v.Root, TemplatesDir+"/case.md", page("case", "draft", "Шаблон", "Ретро и кейсы.", HubName))
	found := []Passage{
		{Path: IndexFile, Start: 5, End: 6, Score: 9},
		{Path: "cases/Кейс A.md", Start: 11, End: 11, Score: 8, Snippet: "Урок: репетиция переключения экономит день."},
		{Path: HubFile, Start: 11, End: 12, Score: 7},
		{Path: "cases/Кейс A.md", Start: 9, End: 9, Score: 6, Snippet: "# Кейс A"},
		{Path: TemplatesDir + "/case.md", Start: 11, End: 11, Score: 5},
		{Path: "regulations/Ретро.md", Start: 11, End: 11, Score: 4, Snippet: "Каждые две недели, 45 минут."},
	}
	ans, err := v.AnswerFrom("ретро и репетиция", found, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Hit{
		{Path: "cases/Кейс A.md", Title: "Кейс A", Type: "case", Status: "active", Score: 8, Via: "search",
			Citation: "cases/Кейс A.md#L11-L11", Excerpt: "Урок: репетиция переключения экономит день."},
		{Path: "regulations/Ретро.md", Title: "Ретро", Type: "regulation", Status: "active", Score: 4, Via: "search",
			Citation: "regulations/Ретро.md#L11-L11", Excerpt: "Каждые две недели, 45 минут."},
	}
	if !reflect.DeepEqual(ans.Hits, want) || ans.Linked != 0 {
		t.Fatalf("hits %+v linked %d, want %+v", ans.Hits, ans.Linked, want)
	}
	if ans, _ := v.AnswerFrom("ретро", found, 1, false); len(ans.Hits) != 1 || ans.Hits[0].Path != "cases/Кейс A.md" {
		t.Fatalf("limit 1: %+v", ans.Hits)
	}
}

// TestAnswerFromFollowsLinks: with links, the pages a found page links to
// fill the places the search left, after its hits, each with the link it
// was reached by and its first paragraph cited.
func TestAnswerFromFollowsLinks(t *testing.T) {
	v := curated(t)
	found := []Passage{{Path: "cases/Кейс A.md", Start: 11, End: 11, Score: 3, Snippet: "Урок: репетиция переключения экономит день."}}
	ans, err := v.AnswerFrom("репетиция", found, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Hits) != 3 || ans.Linked != 2 || ans.Hits[0].Via != "search" {
		t.Fatalf("answer %+v", ans)
	}
	r := ans.Hits[1]
	line := lineOf(t, v.Root, "regulations/Ретро.md", "Каждые две недели")
	if r.Path != "regulations/Ретро.md" || r.Via != "link" || r.Title != "Ретро" || r.Type != "regulation" ||
		!reflect.DeepEqual(r.Trail, []string{"cases/Кейс A.md", "regulations/Ретро.md"}) ||
		r.Citation != fmt.Sprintf("regulations/Ретро.md#L%d-L%d", line, line) || r.Excerpt != "Каждые две недели, 45 минут." {
		t.Fatalf("linked hit %+v", r)
	}
	if ans.Hits[2].Path != "sources/Doc.md" {
		t.Fatalf("second link %+v", ans.Hits[2])
	}
	if ans, _ := v.AnswerFrom("репетиция", found, 3, false); len(ans.Hits) != 1 || ans.Linked != 0 {
		t.Fatalf("without links: %+v", ans)
	}
	if ans, _ := v.AnswerFrom("репетиция", found, 1, true); len(ans.Hits) != 1 {
		t.Fatalf("links past the limit: %+v", ans.Hits)
	}
}

func TestTrashMovesLogsAndCommits(t *testing.T) {
	v := curated(t)
	res, err := v.Trash("Ретро", now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if res.From != "regulations/Ретро.md" || res.To != ".trash/regulations/Ретро.md" || res.Commit == "" {
		t.Fatalf("result %+v", res)
	}
	if read(t, v.Root, res.To) == "" {
		t.Fatal("trashed page is empty")
	}
	if strings.Contains(read(t, v.Root, IndexFile), "regulations/Ретро") {
		t.Fatal("index.md still lists the trashed page")
	}
	if !strings.Contains(read(t, v.Root, LogFile), "trash · regulations/Ретро.md → .trash/regulations/Ретро.md") {
		t.Fatal("no log line")
	}
	if log, _ := v.Repo().Log(res.To, 0); len(log) != 1 || log[0].Hash != res.Commit {
		t.Fatalf("history of the trashed page %+v", log)
	}
	issues, _ := v.Lint(1 << 20)
	found := false
	for _, is := range issues {
		if is.Rule == "trash-link" && is.File == "mocs/Процессы.md" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the link to the trashed page is not reported: %v", sortedIssues(issues))
	}
	// Trashing a page of the same path again keeps both copies.
	write(t, v.Root, "regulations/Ретро.md", page("regulation", "draft", "Ретро", "v2", HubName))
	second, err := v.Trash("regulations/Ретро.md", now.Add(2*time.Hour))
	if err != nil || second.To == res.To {
		t.Fatalf("second trash %+v %v", second, err)
	}
	if _, err := v.Trash(HubName, now); err == nil {
		t.Fatal("the hub was trashed")
	}
}
