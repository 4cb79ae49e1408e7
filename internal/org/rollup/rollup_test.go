package rollup

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testfile.Golden(t, filepath.Join("testdata", name), string(got))
}

func TestDashboardGolden(t *testing.T) {
	p := plant(t)
	r := Collect(p.opts())
	golden(t, "dashboard.md", normalize(Render(r), p.root))

	// The states the golden file shows, asserted by name too so that an
	// -update cannot silently bless a regression.
	state := map[string]string{}
	for _, group := range [][]*Project{r.Active, r.Paused, r.Completed} {
		for _, pr := range group {
			state[pr.Name] = pr.Activity
		}
	}
	want := map[string]string{"alpha": Fresh, "bravo": Stale, "charlie": Unknown, "delta": Unreachable,
		"echo": Fresh, "golf": Stale, "hotel": Fresh, "india": Fresh}
	if !reflect.DeepEqual(state, want) {
		t.Errorf("activity states = %v, want %v", state, want)
	}
	if len(r.Completed) != 1 || r.Completed[0].Name != "echo" || r.HiddenCompleted != 1 {
		t.Errorf("completed = %v, hidden %d; want echo shown and foxtrot hidden", names(r.Completed), r.HiddenCompleted)
	}
	if len(r.Paused) != 1 || r.Paused[0].Name != "golf" {
		t.Errorf("paused = %v", names(r.Paused))
	}
	kinds := map[string]bool{}
	for _, d := range r.Diagnostics {
		kinds[d.Project+"/"+d.Kind+"/"+d.Field] = true
	}
	for _, k := range []string{"delta/unreachable/", "hotel/no План-факт.md/", "india/contract broken/plan_status",
		"india/contract broken/blockers", "india/contract broken/updated", "cerebro/desk registered/",
		"relative/invalid registry entry/", "alpha-again/invalid registry entry/"} {
		if !kinds[k] {
			t.Errorf("no diagnostic %s in %v", k, kinds)
		}
	}
	md := string(Render(r))
	if _, listed := state["cerebro"]; listed || strings.Contains(md, "### cerebro") {
		t.Error("the desk is listed as a project")
	}
	if !strings.Contains(md, "**echo** — completed 2026-11-27, 3 days ago · **Q4 case candidate**") {
		t.Errorf("echo is not a Q4 case candidate:\n%s", md)
	}
	if strings.Contains(md, "foxtrot") {
		t.Error("a project completed 10 days ago is shown")
	}
}

func names(ps []*Project) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestCorruptRegistryIsReportedNotRewritten(t *testing.T) {
	p := plant(t)
	bad := []byte(`{"projects": [ {"id": "x", `)
	writeFile(t, p.registry, string(bad), time.Time{})
	dir := filepath.Dir(p.registry)
	r := Collect(p.opts())
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, DashboardFile))
	golden(t, "corrupt.md", normalize(got, p.root))
	if after, _ := os.ReadFile(p.registry); !bytes.Equal(after, bad) {
		t.Errorf("the corrupt registry was changed to %q", after)
	}
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Kind != KindRegistryCorrupt {
		t.Errorf("diagnostics = %+v", r.Diagnostics)
	}
}

func TestInvalidEntriesAreSkippedAndReported(t *testing.T) {
	p := plant(t)
	entries := append(p.entries[:1:1],
		p.entries[0], // exact duplicate
		p.entries[1],
	)
	entries[2].ID = "../escape"
	entries = append(entries, p.entries[2])
	entries[3].Path = ""
	p.writeRegistry(t, entries)
	r := Collect(p.opts())
	golden(t, "invalid.md", normalize(Render(r), p.root))
	if len(r.Active) != 1 || r.Active[0].Name != "alpha" {
		t.Errorf("active = %v, want only alpha", names(r.Active))
	}
	if err := Write(filepath.Dir(p.registry), r); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(p.registry), "escape.json")); err == nil {
		t.Error("a hostile id escaped the cache folder")
	}
}

func TestDeterministic(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	runOnce := func() map[string]string {
		if err := Write(dir, Collect(p.opts())); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		md, _ := os.ReadFile(filepath.Join(dir, DashboardFile))
		files[DashboardFile] = string(md)
		ents, _ := os.ReadDir(filepath.Join(dir, CacheDir))
		for _, e := range ents {
			data, _ := os.ReadFile(filepath.Join(dir, CacheDir, e.Name()))
			files[e.Name()] = string(data)
		}
		return files
	}
	first := runOnce()
	if len(first) != 1+9 {
		t.Fatalf("wrote %d files, want the dashboard and 9 caches", len(first))
	}
	if got := runOnce(); !reflect.DeepEqual(got, first) {
		t.Error("a second run over the same inputs wrote different bytes")
	}
	for seed := int64(1); seed <= 3; seed++ {
		p.writeRegistry(t, shuffled(p.entries, seed))
		os.RemoveAll(filepath.Join(dir, CacheDir))
		if got := runOnce(); !reflect.DeepEqual(got, first) {
			t.Errorf("registry order (seed %d) changed the output", seed)
		}
	}
	// Parallelism must not change anything either.
	o := p.opts()
	o.Workers = 1
	if !bytes.Equal(Render(Collect(o)), []byte(first[DashboardFile])) {
		t.Error("one worker renders differently from several")
	}
}

func TestCacheFiles(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	if err := Write(dir, Collect(p.opts())); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(dir, CacheDir))
	if err != nil {
		t.Fatal(err)
	}
	// Nine planted projects are read (the desk, the relative path and the
	// duplicate are not); each gets its cache file, the hidden one included.
	if len(ents) != 9 {
		t.Errorf("%d cache files, want 9", len(ents))
	}
	data, err := os.ReadFile(filepath.Join(dir, CacheDir, p.entries[1].ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cache-bravo.json", normalize(data, p.root))
}

func TestNeverWritesInsideProjects(t *testing.T) {
	p := plant(t)
	projects := filepath.Join(p.root, "projects")
	before := snapshot(t, projects)
	o := p.opts()
	o.WithGit = true
	if err := Write(filepath.Dir(p.registry), Collect(o)); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, projects)
	if !reflect.DeepEqual(before, after) {
		for k, v := range after {
			if before[k] != v {
				t.Errorf("changed inside a project: %s", k)
			}
		}
		for k := range before {
			if _, ok := after[k]; !ok {
				t.Errorf("removed inside a project: %s", k)
			}
		}
	}
}

func TestDeskDailyCoexists(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	dailyDir := filepath.Join(dir, "daily")
	before := snapshot(t, dailyDir)
	if err := Write(dir, Collect(p.opts())); err != nil {
		t.Fatal(err)
	}
	if err := AppendLog(dir, LogLine{At: today, Date: "2026-11-30", Projects: 9, Problems: 3}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, snapshot(t, dailyDir)) {
		t.Error("the rollup changed the desk's own daily memory")
	}
	for _, name := range []string{"registry.json", DashboardFile, LogFile, CacheDir, "daily"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("desk folder lacks %s: %v", name, err)
		}
	}
}

func TestWithGit(t *testing.T) {
	p := plant(t)
	alpha := p.entries[0].Path
	repo, err := gitrepo.Init(alpha)
	if err != nil {
		t.Fatal(err)
	}
	for i, when := range []time.Time{day(30), day(13), day(2)} {
		writeFile(t, filepath.Join(alpha, "src.txt"), strings.Repeat("x", i+1), time.Time{})
		if _, err := repo.CommitPaths([]string{"src.txt"}, "change "+string(rune('A'+i))+"\n\nbody", when); err != nil {
			t.Fatal(err)
		}
	}
	// bravo is an empty repository; charlie has none but sits inside the
	// temporary root, which is no repository either.
	if _, err := gitrepo.Init(p.entries[1].Path); err != nil {
		t.Fatal(err)
	}
	o := p.opts()
	o.WithGit = true
	r := Collect(o)
	byName := map[string]*Project{}
	for _, pr := range r.Active {
		byName[pr.Name] = pr
	}
	g := byName["alpha"].Git
	if g == nil || g.Recent != 2 || g.LastMessage != "change C" || g.LastWhen[:10] != "2026-11-28" {
		t.Fatalf("alpha git = %+v, want 2 recent commits, last 'change C' on 2026-11-28", g)
	}
	if g := byName["bravo"].Git; g == nil || g.LastHash != "" || g.Recent != 0 {
		t.Errorf("bravo git = %+v, want an empty repository", g)
	}
	if byName["charlie"].Git != nil {
		t.Errorf("charlie has no repository but shows %+v", byName["charlie"].Git)
	}
	md := string(normalize(Render(r), p.root))
	for _, want := range []string{"- git: last commit `", "on 2026-11-28 (change C) · 2 commits in the window", "- git: no commits yet"} {
		if !strings.Contains(md, want) {
			t.Errorf("dashboard lacks %q", want)
		}
	}
	if !bytes.Equal(Render(r), Render(Collect(o))) {
		t.Error("--with-git is not deterministic")
	}
}

func TestCacheOfUnregisteredProjectsAndStaleTempsArePruned(t *testing.T) {
	p := plant(t)
	dir := filepath.Dir(p.registry)
	if err := Write(dir, Collect(p.opts())); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, CacheDir)
	gone := filepath.Join(cache, "left-the-registry-0001.json")
	os.WriteFile(gone, []byte("{}\n"), 0o644)
	oldTemp := filepath.Join(cache, ".x.json.tmp-123")
	newTemp := filepath.Join(cache, ".y.json.tmp-456")
	other := filepath.Join(cache, "notes.txt")
	for _, f := range []string{oldTemp, newTemp, other} {
		os.WriteFile(f, []byte("x"), 0o644)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(oldTemp, old, old)
	if err := Write(dir, Collect(p.opts())); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{gone: false, oldTemp: false, newTemp: true, other: true,
		filepath.Join(cache, p.entries[1].ID+".json"): true} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
	// A corrupt registry lists nobody: nothing is pruned then.
	writeFile(t, p.registry, `{"projects": [`, time.Time{})
	if err := Write(dir, Collect(p.opts())); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cache, p.entries[1].ID+".json")); err != nil {
		t.Error("a corrupt registry pruned the caches")
	}
}
