package factory

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/serve"
)

// A registered project that keeps its memory to itself
// (share_across_projects = false in its own file) is not served through
// ?project=ID: neither its memory page nor a file of it, while a sharing
// project's file is; the server's project list names it not.
func TestServeShowsNoOptedOutProject(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start, shared, private := filepath.Join(home, "work", "start"), filepath.Join(home, "work", "shared"), filepath.Join(home, "work", "secretive")
	var entries []string
	for _, root := range []string{start, shared, private} {
		write(filepath.Join(root, ".claude", "memory_long", "wiki", "Plan.md"), "# Plan\n\nWORD-"+filepath.Base(root)+"\n")
		entries = append(entries, fmt.Sprintf(`{"id":%q,"name":%q,"path":%q}`, project.ID(root), filepath.Base(root), root))
	}
	write(filepath.Join(private, ".claude", "cerebro.toml"), "share_across_projects = false\n")
	f := New(System{Getenv: func(k string) string { return env[k] }})
	write(f.Paths.Registry(), `{"projects":[`+strings.Join(entries, ",")+`]}`)
	opts := f.ServerOptions(start, "")
	opts.Addr = "127.0.0.1:3700"
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = opts.Addr
		w := httptest.NewRecorder()
		srv.Handler().ServeHTTP(w, r)
		body, _ := io.ReadAll(w.Result().Body)
		return w.Code, string(body)
	}
	file := "/en/memory/file?path=.claude/memory_long/wiki/Plan.md&project="
	if code, body := get(file + project.ID(shared)); code != 200 || !strings.Contains(body, "WORD-shared") {
		t.Fatalf("the sharing project's file: %d\n%s", code, body)
	}
	for _, path := range []string{file + project.ID(private), "/en/memory?project=" + project.ID(private), "/api/v1/projects"} {
		if _, body := get(path); strings.Contains(body, "WORD-secretive") || strings.Contains(body, private) {
			t.Errorf("%s serves the opted-out project:\n%s", path, body)
		}
	}
}
