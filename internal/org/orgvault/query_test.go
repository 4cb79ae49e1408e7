package orgvault

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestQueryWalksFromTheHubAndCites(t *testing.T) {
	v := curated(t)
	ans, err := v.Query("как проходят ретроспективы и репетиция переключения", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Hits) == 0 {
		t.Fatal("no hits")
	}
	var c *Hit
	for i := range ans.Hits {
		if ans.Hits[i].Path == "cases/Кейс A.md" {
			c = &ans.Hits[i]
		}
	}
	if c == nil {
		t.Fatalf("the case is not among %+v", ans.Hits)
	}
	want := []string{HubFile, "mocs/Процессы.md", "cases/Кейс A.md"}
	if !reflect.DeepEqual(c.Trail, want) || c.Via != "graph" {
		t.Fatalf("trail %v via %s, want %v via graph", c.Trail, c.Via, want)
	}
	line := lineOf(t, v.Root, "cases/Кейс A.md", "репетиция переключения")
	if !strings.HasPrefix(c.Citation, "cases/Кейс A.md#L") || !strings.Contains(c.Excerpt, "репетиция переключения") {
		t.Fatalf("citation %s excerpt %q (line %d)", c.Citation, c.Excerpt, line)
	}
	if ans.Fallback {
		t.Fatal("fell back although the walk answered")
	}
}

func TestQueryFallsBackToText(t *testing.T) {
	v := curated(t)
	write(t, v.Root, "approaches/Забытый.md", page("approach", "draft", "Забытый", "Канбан-доска для поддержки.", HubName))
	write(t, v.Root, "raw/memo.txt", "Канбан помогает поддержке.\n")
	ans, err := v.Query("канбан", 5)
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Fallback || len(ans.Hits) != 2 {
		t.Fatalf("answer %+v", ans)
	}
	for _, h := range ans.Hits {
		if h.Via != "text" || len(h.Trail) != 0 {
			t.Fatalf("hit %+v should come from the text search", h)
		}
	}
	if got, _ := v.Query("квантовая телепортация", 5); len(got.Hits) != 0 {
		t.Fatalf("unrelated query hits %+v", got.Hits)
	}
}

// TestQueryExcerptOfALongLineShowsTheMatch: a paragraph written as one
// long line is cut around the query's words, at word boundaries, and the
// citation names the line shown.
func TestQueryExcerptOfALongLineShowsTheMatch(t *testing.T) {
	v := curated(t)
	long := strings.Repeat("Общие слова о работе команды и планах. ", 80) + "Дежурство по выходным передаётся в понедельник утром. " + strings.Repeat("Ещё немного текста про встречи. ", 40)
	write(t, v.Root, "raw/long.txt", "Заметка\n\n"+long+"\n")
	ans, err := v.Query("дежурство по выходным", 5)
	if err != nil {
		t.Fatal(err)
	}
	var h *Hit
	for i := range ans.Hits {
		if ans.Hits[i].Path == "raw/long.txt" {
			h = &ans.Hits[i]
		}
	}
	if h == nil {
		t.Fatalf("the long note is not among %+v", ans.Hits)
	}
	if !strings.Contains(h.Excerpt, "Дежурство по выходным") || len([]rune(h.Excerpt)) > excerptChars {
		t.Fatalf("excerpt (%d runes) misses the match: %q", len([]rune(h.Excerpt)), h.Excerpt)
	}
	if !strings.HasPrefix(h.Excerpt, "…") || !strings.HasSuffix(h.Excerpt, "…") {
		t.Fatalf("the cut sides are not marked: %q", h.Excerpt)
	}
	if h.Citation != "raw/long.txt#L3-L3" {
		t.Fatalf("citation %s, want the long line alone", h.Citation)
	}
}

func TestTerms(t *testing.T) {
	if got := Terms("Ретроспективы и ретроспектива; running runs"); !reflect.DeepEqual(got, []string{"ретроспектив", "ретроспектив", "run", "run"}) {
		t.Fatalf("Terms = %v", got)
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
