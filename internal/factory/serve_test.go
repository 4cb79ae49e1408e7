package factory

import (
	"fmt"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// A registered project that keeps its memory to itself
// (share_across_projects = false in its own file) is not served through
// ?project=ID: neither its memory page nor a file of it, while a sharing
// project's file is; the server's project list names it not.
func TestServeShowsNoOptedOutProject(t *testing.T) {
	home, env := homeEnv(t)
	start, shared, private := filepath.Join(home, "work", "start"), filepath.Join(home, "work", "shared"), filepath.Join(home, "work", "secretive")
	var entries []string
	for _, root := range []string{start, shared, private} {
		testfile.Write(t, filepath.Join(root, ".claude", "memory_long", "wiki", "Plan.md"), "# Plan\n\nWORD-"+filepath.Base(root)+"\n")
		entries = append(entries, fmt.Sprintf(`{"id":%q,"name":%q,"path":%q}`, project.ID(root), filepath.Base(root), root))
	}
	testfile.Write(t, filepath.Join(private, ".claude", "cerebro.toml"), "share_across_projects = false\n")
	f := New(System{Getenv: func(k string) string { return env[k] }})
	testfile.Write(t, f.Paths.Registry(), `{"projects":[`+strings.Join(entries, ",")+`]}`)
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

// homeEnv is a home folder of its own and the environment that makes it
// the user's: the desk and the user's settings under it.
func homeEnv(t *testing.T) (string, map[string]string) {
	home := t.TempDir()
	return home, map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config")}
}
