package search

import (
	"context"
	"fmt"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
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
	if got, want := textan.StemmedText("Running tests; ёлка Ёжики"), "run test елк ежик"; got != want {
		t.Errorf("StemmedText = %q, want %q", got, want)
	}
	if got := textan.Stems("v1.2 sha256 a828e60"); strings.Join(got, " ") != "v1 2 sha256 a828e60" {
		t.Errorf("identifiers stemmed: %v", got)
	}
}

// The recency benchmark: the same fact stated twice, months apart, and
// the newer statement must win, with the defaults, in a fresh memory and
// in an archive nobody wrote to for years; an old exact answer must still
// beat a recent weak match; evergreen pages never age; scores stay
// readable.
func TestRecencyOrdersComparableHitsOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "daily", "2026-03-02.md"), "# 2026-03-02\n\n- Decided: the staging database runs on port 5433.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-20.md"), "# 2026-11-20\n\n- Decided: the staging database runs on port 6543.\n")
	write(t, filepath.Join(dir, "daily", "2025-12-01.md"), "# 2025-12-01\n\n- The nightly backup of the analytics warehouse goes to the eu-west bucket, encrypted with the ops key.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-28.md"), "# 2026-11-28\n\n- Talked about a backup plan and the bucket list for the offsite.\n")
	for i, topic := range []string{"lunch order", "the hiring loop", "a flaky login test", "the office move"} {
		write(t, filepath.Join(dir, "daily", fmt.Sprintf("2026-10-%02d.md", i+10)), "# notes\n\n- Discussed "+topic+".\n")
	}
	write(t, filepath.Join(dir, "CORE.md"), "# Core\n\nThe release train leaves every second Tuesday.\n")
	write(t, filepath.Join(dir, "daily", "2026-11-29.md"), "# 2026-11-29\n\n- Missed the release train meeting.\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	for _, at := range []time.Time{now, now.AddDate(4, 0, 0)} {
		o := defaults()
		o.Now = at
		r, err := Search(context.Background(), []*Index{ix}, "which port does the staging database run on", o)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) < 2 || !strings.HasSuffix(r.Results[0].Path, "2026-11-20.md") {
			t.Fatalf("now %s: the newer statement should win: %v", at.Format("2006-01-02"), paths(r))
		}
		if r.Results[1].Score < 0.1 {
			t.Errorf("now %s: the older statement scores %v, want a readable score", at.Format("2006-01-02"), r.Results[1].Score)
		}
		r, _ = Search(context.Background(), []*Index{ix}, "where does the nightly warehouse backup bucket go", o)
		if len(r.Results) == 0 || !strings.HasSuffix(r.Results[0].Path, "2025-12-01.md") {
			t.Fatalf("now %s: the year-old exact answer should beat the recent weak match: %v", at.Format("2006-01-02"), paths(r))
		}
		r, _ = Search(context.Background(), []*Index{ix}, "when does the release train leave", o)
		if len(r.Results) == 0 || !strings.HasSuffix(r.Results[0].Path, "CORE.md") {
			t.Fatalf("now %s: evergreen CORE.md should lead: %v", at.Format("2006-01-02"), paths(r))
		}
	}
	// plain exponential decay (no floor) buries the year-old answer
	o := defaults()
	o.RecencyFloor = -1
	r, _ := Search(context.Background(), []*Index{ix}, "where does the nightly warehouse backup bucket go", o)
	if len(r.Results) == 0 || strings.HasSuffix(r.Results[0].Path, "2025-12-01.md") {
		t.Fatalf("without a floor the year-old answer should sink: %v", paths(r))
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
	if d := recency(now.AddDate(0, 0, -30).Unix(), now.Unix(), 30, 0); d < 0.49 || d > 0.51 {
		t.Errorf("decay at one half-life without a floor = %v, want 0.5", d)
	}
	if d := recency(now.AddDate(0, 0, -30).Unix(), now.Unix(), 30, 0.9); d < 0.949 || d > 0.951 {
		t.Errorf("recency at one half-life over a 0.9 floor = %v, want 0.95", d)
	}
	if d := recency(now.AddDate(-3, 0, 0).Unix(), now.Unix(), 30, 0.9); d < 0.9 || d > 0.9001 {
		t.Errorf("recency of a three-year-old note = %v, want the floor 0.9", d)
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
	lines, _ := ReadLines(filepath.Join(dir, "page.md"), res.StartLine, res.EndLine-res.StartLine+1, 0)
	if strings.TrimRight(lines, "\n") != res.Snippet {
		t.Fatalf("snippet is not the cited lines")
	}
}

// Neighbouring chunks overlap, so two can yield the same passage: it is
// shown once.
func TestOverlappingChunksDoNotRepeatAPassage(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		if i == 15 {
			b.WriteString("The kafka retention is seven days for the audit topic.\n")
			continue
		}
		fmt.Fprintf(&b, "Line %d says nothing much about the weather today.\n", i)
	}
	write(t, filepath.Join(dir, "notes.md"), b.String())
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 60, OverlapTokens: 40})
	r, err := Search(context.Background(), []*Index{ix}, "kafka retention", defaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) == 0 || r.Results[0].StartLine > 15 || r.Results[0].EndLine < 15 {
		t.Fatalf("first result does not show line 15: %+v", r.Results)
	}
	for i, a := range r.Results {
		for _, b := range r.Results[:i] {
			shared := min(a.EndLine, b.EndLine) - max(a.StartLine, b.StartLine) + 1
			if 2*shared > a.EndLine-a.StartLine+1 {
				t.Errorf("result %d (lines %d-%d) repeats lines %d-%d", i+1, a.StartLine, a.EndLine, b.StartLine, b.EndLine)
			}
		}
	}
}

// FTS5 without positions (detail=column) refuses a phrase, and a word
// textan keeps whole (Go's Unicode tables) can be two tokens for SQLite's
// older ones: New Tai Lue's vowel sign U+19B0 is a letter for Go and a
// separator for SQLite. Only stems found in the index's vocabulary (one
// token each) select candidates, so such a query never reaches FTS5 as a
// phrase: it searches by its other words.
func TestWordSQLiteSplitsStillSearches(t *testing.T) {
	dir := t.TempDir()
	word := "\u1980\u19b0\u1983"
	if ws := textan.Words(word); len(ws) != 1 {
		t.Fatalf("textan reads %q as %d words; the test needs one", word, len(ws))
	}
	write(t, filepath.Join(dir, "a.md"), "# Firmware\n\nThe router firmware note "+word+".\n")
	write(t, filepath.Join(dir, "b.md"), "# Other\n\nNothing about routers here.\n")
	write(t, filepath.Join(dir, "daily", "2026-10-13.md"), "# 2026-10-13\n\n- Flashed the firmware "+word+".\n")
	ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindShort}, Params{})
	for _, c := range []struct{ q, want string }{
		{"firmware " + word, "a.md"},
		{word, ""},
		{"firmware " + word + " on 13 October", "2026-10-13.md"}, // the named day's words are probed first
	} {
		r, err := Search(context.Background(), []*Index{ix}, c.q, defaults())
		if err != nil {
			t.Fatalf("%q: %v", c.q, err)
		}
		if c.want != "" && (len(r.Results) == 0 || !strings.HasSuffix(r.Results[0].Path, c.want)) {
			t.Errorf("%q: %v, want %s first", c.q, paths(r), c.want)
		}
	}
}
