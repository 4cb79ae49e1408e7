package search

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestIncrementalUpdateTouchesOnlyChangedFiles(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		write(t, filepath.Join(dir, n+".md"), "note "+n+" about kafka\n")
	}
	ix := indexed(t, state, Root{Dir: dir, Kind: KindDir}, Params{})
	st, err := ix.Update(context.Background(), now, nil)
	if err != nil || st.Indexed != 0 || st.Removed != 0 || !st.Complete {
		t.Fatalf("second update with nothing changed: %+v %v", st, err)
	}
	write(t, filepath.Join(dir, "b.md"), "note b now about zookeeper\n")
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "c.md"), later, later) // touched, same content
	os.Remove(filepath.Join(dir, "a.md"))
	st, err = ix.Update(context.Background(), now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Indexed != 1 || st.Removed != 1 || st.Files != 2 {
		t.Fatalf("got %+v, want 1 re-chunked, 1 removed, 2 files", st)
	}
	r, _ := Search(context.Background(), []*Index{ix}, "kafka", defaults())
	if got := paths(r); len(got) != 1 || !strings.HasSuffix(got[0], "c.md") {
		t.Fatalf("kafka found in %v, want only c.md (a deleted, b rewritten)", got)
	}
	r, _ = Search(context.Background(), []*Index{ix}, "zookeeper", defaults())
	if len(r.Results) != 1 {
		t.Fatalf("zookeeper found in %v", paths(r))
	}
	files, chunks, _ := ix.Stats()
	if files != 2 || chunks != 2 {
		t.Fatalf("index holds %d files, %d chunks", files, chunks)
	}
}

func TestUpdateStopsAtDeadlineAndResumes(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 5; i++ {
		write(t, filepath.Join(dir, string(rune('a'+i))+".md"), "text\n")
	}
	ix, err := Open(t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	st, err := ix.Update(ctx, now, func(done, total int) {
		if n++; n == 2 {
			cancel()
		}
	})
	if err != nil || st.Complete || st.Pending != 3 {
		t.Fatalf("cancelled update: %+v %v", st, err)
	}
	st, err = ix.Update(context.Background(), now, nil)
	if err != nil || !st.Complete || st.Indexed != 3 {
		t.Fatalf("resumed update: %+v %v", st, err)
	}
}

func TestFingerprintChangeRebuilds(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "alpha\n")
	root := Root{Dir: dir, Kind: KindDir}
	ix := indexed(t, state, root, Params{ChunkTokens: 400, OverlapTokens: 80})
	if !ix.Rebuilt {
		t.Fatal("a new index should report a build")
	}
	ix.Close()
	same, err := Open(state, root, Params{ChunkTokens: 400, OverlapTokens: 80})
	if err != nil {
		t.Fatal(err)
	}
	if same.Rebuilt {
		t.Fatal("same parameters rebuilt the index")
	}
	same.Close()
	other, err := Open(state, root, Params{ChunkTokens: 200, OverlapTokens: 40})
	if err != nil {
		t.Fatal(err)
	}
	files, _, _ := other.Stats()
	if !other.Rebuilt || files != 0 {
		t.Fatalf("changed chunking: rebuilt=%v files=%d", other.Rebuilt, files)
	}
	fp, _ := other.Fingerprint()
	if !strings.Contains(fp, "chunk=200/40") || !strings.Contains(fp, textan.Version) || !strings.Contains(fp, "embed=none") {
		t.Fatalf("fingerprint %q", fp)
	}
	st, _ := other.Update(context.Background(), now, nil)
	if st.Indexed != 1 {
		t.Fatalf("rebuild re-read %d files", st.Indexed)
	}
	other.Close()
	// a new embedding model rebuilds too
	var fail atomic.Bool
	emb, _ := NewEmbedder(EmbedConfig{Provider: "ollama", URL: fakeProvider(t, &fail).URL, Model: "m2"})
	withVec, err := Open(state, root, Params{ChunkTokens: 200, OverlapTokens: 40, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	defer withVec.Close()
	if files, _, _ := withVec.Stats(); !withVec.Rebuilt || files != 0 {
		t.Fatalf("changed embedding model: rebuilt=%v files=%d", withVec.Rebuilt, files)
	}
}

func TestOrgRootSkipsPrivateFolders(t *testing.T) {
	desk := t.TempDir()
	write(t, filepath.Join(desk, "wiki", "Kafka.md"), "kafka page\n")
	write(t, filepath.Join(desk, ".claude", "memory_short", "daily", "2026-11-29.md"), "kafka private\n")
	write(t, filepath.Join(desk, ".trash", "old.md"), "kafka trash\n")
	write(t, filepath.Join(desk, "raw", "_large", "dump.md"), "kafka dump\n")
	write(t, filepath.Join(desk, "raw", "small.md"), "kafka raw\n")
	roots := Roots("", desk, "", ScopeOrg)
	ix := indexed(t, t.TempDir(), roots[0], Params{})
	r, _ := Search(context.Background(), []*Index{ix}, "kafka", defaults())
	got := strings.Join(paths(r), " ")
	if len(r.Results) != 2 || !strings.Contains(got, "Kafka.md") || !strings.Contains(got, "small.md") {
		t.Fatalf("org search found %v", got)
	}
}

func TestRoots(t *testing.T) {
	if got, want := AutoMemoryDir("/home/u", "/home/u/src/my.app"), "/home/u/.claude/projects/-home-u-src-my-app/memory"; got != want {
		t.Errorf("AutoMemoryDir = %q, want %q", got, want)
	}
	kinds := func(rs []Root) string {
		var k []string
		for _, r := range rs {
			k = append(k, string(r.Kind))
		}
		return strings.Join(k, ",")
	}
	if long := Roots("/p", "", "", ScopeProject)[1]; !long.skipped("raw/_large") || long.skipped("raw") {
		t.Errorf("long-term root skips %v", long.Skip)
	}
	if got := kinds(Roots("/p", "/desk", "/home/u", ScopeProject)); got != "short,long,auto" {
		t.Errorf("project scope: %s", got)
	}
	if got := kinds(Roots("/p", "/desk", "/home/u", ScopeOrg)); got != "org" {
		t.Errorf("org scope: %s", got)
	}
	if got := kinds(Roots("/p", "/desk", "/home/u", ScopeAll)); got != "short,long,auto,org" {
		t.Errorf("all scope: %s", got)
	}
	if got := kinds(Roots("/p", "/desk", "/home/u", ScopeProjects)); got != "short,long,auto" {
		t.Errorf("projects scope (this project's own roots): %s", got)
	}
	if got := kinds(Roots("/p", "/desk", "/home/u", ScopeEverything)); got != "short,long,auto,org" {
		t.Errorf("everything scope (this project's own roots and the org's): %s", got)
	}
	if _, err := ParseScope("galaxy"); err == nil {
		t.Error("bad scope accepted")
	}
}

// fakeVector is a deterministic bag-of-words vector where a few synonyms
// share a dimension, so vector search finds what words alone do not.
func fakeVector(text string) []float32 {
	syn := map[string]string{"automobile": "car", "vehicle": "car", "mend": "repair", "fix": "repair"}
	v := make([]float32, 64)
	for _, w := range textan.Words(text) {
		if s, ok := syn[w]; ok {
			w = s
		}
		h := fnv.New32a()
		h.Write([]byte(textan.Stem(w)))
		v[h.Sum32()%64]++
	}
	return v
}

func fakeProvider(t *testing.T, fail *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			http.Error(w, "model not loaded", http.StatusInternalServerError)
			return
		}
		switch r.URL.Path {
		case "/api/embeddings":
			var req struct{ Model, Prompt string }
			json.NewDecoder(r.Body).Decode(&req)
			json.NewEncoder(w).Encode(map[string]any{"embedding": fakeVector(req.Prompt)})
		case "/v1/embeddings":
			if r.Header.Get("Authorization") != "Bearer k123" {
				http.Error(w, "no key", http.StatusUnauthorized)
				return
			}
			var req struct {
				Model string
				Input []string
			}
			json.NewDecoder(r.Body).Decode(&req)
			var data []map[string]any
			for i, in := range req.Input {
				data = append(data, map[string]any{"index": i, "embedding": fakeVector(in)})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHybridSearchWithFakeProviders(t *testing.T) {
	var fail atomic.Bool
	srv := fakeProvider(t, &fail)
	for _, cfg := range []EmbedConfig{
		{Provider: "ollama", URL: srv.URL, Model: "nomic-embed-text"},
		{Provider: "openai", URL: srv.URL, Model: "text-embedding-3-small", APIKey: "k123"},
	} {
		t.Run(cfg.Provider, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "garage.md"), "Took the car to the garage for a repair of the brakes.\n")
			write(t, filepath.Join(dir, "garden.md"), "Planted tomatoes in the garden.\n")
			emb, err := NewEmbedder(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ix := indexed(t, t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{Embedder: emb})
			fp, _ := ix.Fingerprint()
			if !strings.Contains(fp, "embed="+cfg.Provider+"/"+cfg.Model) {
				t.Fatalf("fingerprint %q lacks the provider", fp)
			}
			o := defaults()
			o.Embedder = emb
			r, err := Search(context.Background(), []*Index{ix}, "automobile mend", o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Mode != ModeHybrid || len(r.Results) == 0 || !strings.HasSuffix(r.Results[0].Path, "garage.md") {
				t.Fatalf("hybrid: mode %s results %v notes %v", r.Mode, paths(r), r.Notes)
			}
			// BM25 alone knows neither word
			o.Embedder = nil
			if r, _ := Search(context.Background(), []*Index{ix}, "automobile mend", o); len(r.Results) != 0 || r.Mode != ModeBM25 {
				t.Fatalf("bm25 found %v", paths(r))
			}
			// the provider fails at query time: text search, said so
			fail.Store(true)
			defer fail.Store(false)
			o.Embedder = emb
			r, err = Search(context.Background(), []*Index{ix}, "garage brakes", o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Mode != ModeBM25 || len(r.Results) != 1 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "embedding provider failed") {
				t.Fatalf("failing provider: mode %s results %v notes %v", r.Mode, paths(r), r.Notes)
			}
		})
	}
}

func TestFailingProviderAtIndexTimeKeepsText(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	srv := fakeProvider(t, &fail)
	emb, _ := NewEmbedder(EmbedConfig{Provider: "ollama", URL: srv.URL, Model: "m"})
	dir := t.TempDir()
	write(t, filepath.Join(dir, "garage.md"), "Took the car to the garage.\n")
	ix, _ := Open(t.TempDir(), Root{Dir: dir, Kind: KindDir}, Params{ChunkTokens: 400, OverlapTokens: 80, Embedder: emb})
	defer ix.Close()
	st, err := ix.Update(context.Background(), now, nil)
	if err != nil || st.EmbedErr == nil || !st.Complete {
		t.Fatalf("update with a failing provider: %+v %v", st, err)
	}
	fail.Store(false)
	o := defaults()
	o.Embedder = emb
	r, _ := Search(context.Background(), []*Index{ix}, "garage", o)
	if r.Mode != ModeBM25 || len(r.Results) != 1 || len(r.Notes) == 0 {
		t.Fatalf("no vectors stored yet: mode %s notes %v", r.Mode, r.Notes)
	}
	// the next update embeds what was missed
	if st, _ := ix.Update(context.Background(), now, nil); st.EmbedErr != nil {
		t.Fatal(st.EmbedErr)
	}
	if r, _ := Search(context.Background(), []*Index{ix}, "garage", o); r.Mode != ModeHybrid {
		t.Fatalf("after recovery mode %s", r.Mode)
	}
}

func TestUnknownProvider(t *testing.T) {
	if _, err := NewEmbedder(EmbedConfig{Provider: "voyage"}); err == nil {
		t.Fatal("unknown provider accepted")
	}
	if e, err := NewEmbedder(EmbedConfig{}); e != nil || err != nil {
		t.Fatal("no provider should mean no embedder")
	}
}

func TestResolveRefusesPathsOutsideRoots(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	roots := Roots(proj, filepath.Join(home, "desk"), home, ScopeAll)
	write(t, filepath.Join(proj, ".claude", "memory_long", "CORE.md"), "core\n")
	write(t, filepath.Join(proj, "secret.md"), "secret\n")
	os.Symlink(filepath.Join(proj, "secret.md"), filepath.Join(proj, ".claude", "memory_long", "link.md"))
	os.Symlink(proj, filepath.Join(proj, ".claude", "memory_long", "up"))
	ok := []string{".claude/memory_long/CORE.md", ".claude/memory_short/daily/2026-12-01.md", filepath.Join(home, "desk", "wiki", "New.md")}
	for _, p := range ok {
		if _, err := Resolve(roots, proj, p); err != nil {
			t.Errorf("Resolve(%s): %v", p, err)
		}
	}
	bad := []string{"secret.md", ".claude/memory_long/../../secret.md", ".claude/memory_long/link.md",
		".claude/memory_long/up/secret.md", "/etc/passwd", ".claude/memory_long/CORE.txt",
		filepath.Join(home, "desk", ".claude", "memory_short", "daily", "x.md")}
	for _, p := range bad {
		_, err := Resolve(roots, proj, p)
		var out *OutsideError
		if !errors.As(err, &out) || out.Hint() == "" {
			t.Errorf("Resolve(%s) = %v, want a refusal", p, err)
		}
	}
	text, err := ReadLines(filepath.Join(proj, ".claude", "memory_short", "daily", "2026-12-01.md"), 1, 0, 0)
	if text != "" || err != nil {
		t.Errorf("missing memory file read as %q, %v", text, err)
	}
}

func TestReadLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	write(t, p, "one\ntwo\nthree\nfour\n")
	for _, c := range []struct {
		from, n int
		want    string
	}{{1, 0, "one\ntwo\nthree\nfour\n"}, {2, 2, "two\nthree\n"}, {4, 10, "four\n"}, {9, 1, ""}} {
		if got, _ := ReadLines(p, c.from, c.n, 0); got != c.want {
			t.Errorf("ReadLines(%d, %d) = %q, want %q", c.from, c.n, got, c.want)
		}
	}
}

func TestAutoRecall(t *testing.T) {
	proj, state := t.TempDir(), t.TempDir()
	roots := Roots(proj, "", "", ScopeProject)
	o := defaults()
	o.Limit = 2
	// no index yet: nothing, and nothing created
	if got, err := AutoRecall(context.Background(), state, roots, "kafka retention", o, 0.3); got != "" || err != nil {
		t.Fatalf("without an index: %q %v", got, err)
	}
	if entries, _ := os.ReadDir(state); len(entries) != 0 {
		t.Fatalf("auto-recall created %d files", len(entries))
	}
	write(t, filepath.Join(proj, ".claude", "memory_long", "Kafka.md"), "# Kafka\nRetention is seven days on the events topic.\n")
	write(t, filepath.Join(proj, ".claude", "memory_short", "daily", "2026-11-29.md"), "Lunch talk about retention of staff.\n")
	ix := indexed(t, state, roots[1], Params{})
	ix.Close()
	ix = indexed(t, state, roots[0], Params{})
	ix.Close()
	got, err := AutoRecall(context.Background(), state, roots, "what is the kafka retention?", o, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "[cerebro auto-recall]") || !strings.Contains(got, "Kafka.md#L1-L2") || strings.Contains(got, "Lunch") {
		t.Fatalf("block:\n%s", got)
	}
	// one word of three matches: below the threshold
	if got, _ := AutoRecall(context.Background(), state, roots, "kafka partition count", o, 0.5); got != "" {
		t.Fatalf("a weak match was recalled:\n%s", got)
	}
	// the prompt's private span is never a query
	if got, _ := AutoRecall(context.Background(), state, roots, "<private>what is the kafka retention?</private>", o, 0.5); got != "" {
		t.Fatalf("a private span was searched:\n%s", got)
	}
}
