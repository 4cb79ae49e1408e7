package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// indexed opens and fully updates an index of dir.
func indexed(t *testing.T, stateDir string, root Root, p Params) *Index {
	t.Helper()
	if p.ChunkTokens == 0 {
		p.ChunkTokens, p.OverlapTokens = 400, 80
	}
	ix, err := Open(stateDir, root, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	st, err := ix.Update(context.Background(), now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Complete {
		t.Fatalf("update incomplete: %+v", st)
	}
	return ix
}

func defaults() Options {
	return Options{Limit: 10, CandidatePool: 50, HalfLifeDays: 30, MMR: true, MMRLambda: 0.7, VectorWeight: 0.7, TextWeight: 0.3, Now: now}
}

func paths(r *Response) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, x.Path)
	}
	return out
}

func TestRussianInflectedFormsMatch(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "notes.md"), "# Заметки\n\nОбсудили сроки проектов и бюджет.\nМигрировали базу данных на новый сервер.\n")
	write(t, filepath.Join(dir, "other.md"), "Про погоду и отпуск.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	for _, q := range []string{"проект", "проекта", "ПРОЕКТАМИ", "сервера", "базы данных", "бюджетом"} {
		r, err := Search(context.Background(), []*Index{ix}, q, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) != 1 || r.Results[0].Path != filepath.Join(dir, "notes.md") {
			t.Errorf("query %q: got %v, want notes.md only", q, paths(r))
		}
	}
}

func TestEnglishStemsAndYo(t *testing.T) {
	if got, want := StemmedText("Running tests; ёлка Ёжики"), "run test елк ежик"; got != want {
		t.Errorf("StemmedText = %q, want %q", got, want)
	}
	if got := Stems("v1.2 sha256 a828e60"); strings.Join(got, " ") != "v1 2 sha256 a828e60" {
		t.Errorf("identifiers stemmed: %v", got)
	}
}

func TestDecayRanksRecentFirstAndEvergreenStays(t *testing.T) {
	dir := t.TempDir()
	body := "Standup moved; the router config changed.\n"
	write(t, filepath.Join(dir, "daily", "2026-11-29.md"), body)
	write(t, filepath.Join(dir, "daily", "2026-06-01.md"), body+"Standup standup router router router config.\n")
	write(t, filepath.Join(dir, "CORE.md"), "Standup router config summary.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	o := defaults()
	o.MMR = false
	r, err := Search(context.Background(), []*Index{ix}, "standup router", o)
	if err != nil {
		t.Fatal(err)
	}
	got := paths(r)
	if len(got) != 3 || !strings.HasSuffix(got[2], "2026-06-01.md") {
		t.Fatalf("order %v: the six-month-old note should rank last", got)
	}
	// without decay the older note, with more matches, ranks above the recent one
	o.HalfLifeDays = 0
	r, _ = Search(context.Background(), []*Index{ix}, "standup router", o)
	if got := paths(r); strings.HasSuffix(got[2], "2026-06-01.md") {
		t.Fatalf("with decay off the old note still ranks last: %v", got)
	}
	// CORE.md scores the same whatever the date
	o.HalfLifeDays = 30
	o.Now = now.AddDate(5, 0, 0)
	r, _ = Search(context.Background(), []*Index{ix}, "standup router", o)
	if !strings.HasSuffix(r.Results[0].Path, "CORE.md") {
		t.Fatalf("five years on, CORE.md should lead: %v", paths(r))
	}
}

func TestFileDate(t *testing.T) {
	mt := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		kind Kind
		rel  string
		want time.Time
	}{
		{KindShort, "daily/2026-11-29.md", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
		{KindShort, "rollups/week/2026-W48.md", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
		{KindShort, "rollups/month/2026-02.md", time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC)},
		{KindShort, "notes.md", mt},
		{KindLong, "2026-01-05 meeting.md", time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		if got := fileDate(c.kind, c.rel, mt); got != c.want.Unix() {
			t.Errorf("fileDate(%s, %s) = %v, want %v", c.kind, c.rel, time.Unix(got, 0).UTC(), c.want)
		}
	}
	for _, ever := range []struct {
		kind Kind
		rel  string
	}{{KindShort, "CORE.md"}, {KindAuto, "MEMORY.md"}, {KindLong, "wiki/Deploy.md"}, {KindOrg, "people/Ann.md"}} {
		if got := fileDate(ever.kind, ever.rel, mt); got != 0 {
			t.Errorf("%s %s should be evergreen, dated %v", ever.kind, ever.rel, time.Unix(got, 0))
		}
	}
	if d := decay(now.AddDate(0, 0, -30).Unix(), now, 30); d < 0.49 || d > 0.51 {
		t.Errorf("decay at one half-life = %v, want 0.5", d)
	}
}

func TestMMRDropsNearDuplicates(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "2026-11-29.md"), "Configured the Omada router, put IoT devices on VLAN 10 home network.\n")
	write(t, filepath.Join(dir, "2026-11-28.md"), "Configured the Omada router, moved IoT devices to VLAN 10 home network.\n")
	write(t, filepath.Join(dir, "2026-11-27.md"), "Set up AdGuard DNS at 192.168.10.2 for the home network.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	o := defaults()
	o.Limit = 2
	o.MMR = false
	r, _ := Search(context.Background(), []*Index{ix}, "home network setup", o)
	if got := paths(r); !strings.HasSuffix(got[1], "2026-11-28.md") {
		t.Fatalf("without MMR the near-duplicate should be second: %v", got)
	}
	o.MMR = true
	r, _ = Search(context.Background(), []*Index{ix}, "home network setup", o)
	got := paths(r)
	if !strings.HasSuffix(got[0], "2026-11-29.md") || !strings.HasSuffix(got[1], "2026-11-27.md") {
		t.Fatalf("with MMR the near-duplicate should give way: %v", got)
	}
}

func TestChunksHaveLineRangesAndOverlap(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		b.WriteString("line number " + strings.Repeat("x", 30) + "\n")
	}
	cs := ChunkLines(b.String(), 100, 20) // 400 characters, 80 overlap
	if len(cs) < 8 {
		t.Fatalf("got %d chunks", len(cs))
	}
	if cs[0].StartLine != 1 || cs[len(cs)-1].EndLine != 100 {
		t.Fatalf("chunks do not cover the file: %+v ... %+v", cs[0], cs[len(cs)-1])
	}
	for i := 1; i < len(cs); i++ {
		if overlap := cs[i-1].EndLine - cs[i].StartLine + 1; overlap < 1 || overlap > 2 {
			t.Errorf("chunk %d overlaps %d lines, want 1-2", i, overlap)
		}
		if len(cs[i].Text) > 400 {
			t.Errorf("chunk %d is %d characters", i, len(cs[i].Text))
		}
	}
}

func TestSnippetCappedAndCitesItsLines(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		if i == 40 {
			b.WriteString("The deploy key rotates every quarter.\n")
			continue
		}
		b.WriteString("Filler about lunch and weather and nothing in particular.\n")
	}
	write(t, filepath.Join(dir, "page.md"), b.String())
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{})
	r, _ := Search(context.Background(), []*Index{ix}, "deploy key rotation", defaults())
	if len(r.Results) == 0 {
		t.Fatal("no results")
	}
	res := r.Results[0]
	if len([]rune(res.Snippet)) > SnippetChars || !strings.Contains(res.Snippet, "deploy key") {
		t.Fatalf("snippet (%d chars) %q", len([]rune(res.Snippet)), res.Snippet)
	}
	if res.StartLine > 40 || res.EndLine < 40 {
		t.Fatalf("lines %d-%d do not hold line 40", res.StartLine, res.EndLine)
	}
	if want := res.Path + fmt.Sprintf("#L%d-L%d", res.StartLine, res.EndLine); res.Citation != want {
		t.Fatalf("citation %q, want %q", res.Citation, want)
	}
	lines, _ := ReadLines(filepath.Join(dir, "page.md"), res.StartLine, res.EndLine-res.StartLine+1)
	if strings.TrimRight(lines, "\n") != res.Snippet {
		t.Fatalf("snippet is not the cited lines")
	}
}
