// Package serve is `memhook serve`: a small web application over one
// project's memory — the playground (ask memory directly and see the raw
// answer and why), the org dashboard, the memory browser and the skills'
// versions. Plain net/http and html/template with embedded assets: no
// network, no CDN, a few lines of JavaScript only where a page needs them.
//
//	srv, err := serve.New(serve.Options{Addr: "127.0.0.1:3700", Root: root, OpenBox: ..., ...})
//	err = srv.Serve(ctx, listener) // until ctx ends
//
// Safe by default: the caller listens on loopback unless told otherwise;
// every request whose Host is not the served address is refused (DNS
// rebinding); every state change is a POST carrying the process's CSRF
// token; files are read only under the project's memory roots, never
// through a symlink, and bounded; everything from a note is escaped.
package serve

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

//go:embed templates/*.html static/*
var assets embed.FS

// MaxRequestBytes bounds a request body: the CLI's limit on a request.
const MaxRequestBytes = 4 << 20

// maxFileBytes bounds a memory file shown on a page.
const maxFileBytes = 4 << 20

// Options are what the server shows and how it reaches memory. The
// functions come from the composition root so that the page and the CLI
// open memory the same way.
type Options struct {
	Addr string // the served address, host:port; requests for another Host are refused
	Root string // the project root; its .claude/memory_long and .claude/memory_short are the memory roots
	// OpenBox opens the project's memory behind the two verbs.
	OpenBox func() (*blackbox.Box, func(), error)
	// Search searches the project's memory, or with scope projects the
	// desk's registered projects too (nil: the search page says so).
	Search func(ctx context.Context, query string, scope search.Scope, limit int) (*search.Response, error)
	// Rollup collects the org dashboard (nil: the dashboard says so).
	Rollup func() *rollup.Report
	// SkillsDirs are the folders holding skills, searched in order.
	SkillsDirs []string
	// Runs reads the project's run records, which weigh the skills'
	// candidates with Rules (nil: the skill pages show no candidates).
	Runs  func() ([]runrec.Run, error)
	Rules evolve.Rules
	// Verdict records a person's verdict (good or bad) on a run, as
	// `memhook verdict` does (nil: no verdict buttons).
	Verdict func(run, verdict string) error
	Now     func() time.Time
	Log     io.Writer // one line per refused request; nil: discarded
}

// Server is the web application.
type Server struct {
	opts  Options
	token string // the CSRF token of this process
	hosts map[string]bool
	pages map[string]*template.Template
	mu    sync.Mutex // memory is used by one request at a time
	offer offers
}

// New checks the options and parses the templates.
func New(opts Options) (*Server, error) {
	if opts.Root == "" || opts.OpenBox == nil {
		return nil, errors.New("serve: a project root and a way to open its memory are required")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	hosts, err := allowedHosts(opts.Addr)
	if err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("serve: make the CSRF token: %w", err)
	}
	s := &Server{opts: opts, token: hex.EncodeToString(b[:]), hosts: hosts, pages: map[string]*template.Template{}}
	for _, name := range []string{"playground", "dashboard", "memory", "file", "graph", "search", "skills", "skill", "message"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("serve: parse template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	return s, nil
}

// IsLoopback says whether addr's host is a loopback address or localhost:
// anything else exposes memory to the network.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// allowedHosts are the Host headers the server answers: the served
// address, and for loopback its other loopback spellings.
func allowedHosts(addr string) (map[string]bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("serve: address %q: want host:port: %w", addr, err)
	}
	out := map[string]bool{strings.ToLower(net.JoinHostPort(host, port)): true}
	if IsLoopback(addr) {
		for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
			out[net.JoinHostPort(h, port)] = true
		}
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		// Listening on every interface: the machine's own addresses are
		// the served ones.
		addrs, _ := net.InterfaceAddrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				out[strings.ToLower(net.JoinHostPort(n.IP.String(), port))] = true
			}
		}
		if name, err := os.Hostname(); err == nil {
			out[strings.ToLower(net.JoinHostPort(name, port))] = true
		}
	}
	return out, nil
}

// Serve answers on ln until ctx ends, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return hs.Shutdown(sctx)
	}
}

// Handler is the application with its guards.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// Three segments, so that no /{lang}/... page pattern overlaps it.
	static, _ := fs.Sub(assets, "static")
	mux.Handle("GET /static/v1/{file}", http.StripPrefix("/static/v1/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/en/settings?section=memory-test", http.StatusFound)
	})
	mux.HandleFunc("GET /{lang}/settings", s.lang(s.settings))
	mux.HandleFunc("POST /{lang}/settings", s.lang(s.settingsPost))
	mux.HandleFunc("POST /{lang}/deny", s.lang(s.denyPost))
	mux.HandleFunc("POST /{lang}/relearn", s.lang(s.relearnPost))
	mux.HandleFunc("GET /{lang}/dashboard", s.lang(s.dashboard))
	mux.HandleFunc("GET /{lang}/memory", s.lang(s.memory))
	mux.HandleFunc("GET /{lang}/memory/file", s.lang(s.file))
	mux.HandleFunc("GET /{lang}/memory/graph", s.lang(s.graph))
	mux.HandleFunc("GET /{lang}/memory/search", s.lang(s.search))
	mux.HandleFunc("GET /{lang}/skills", s.lang(s.skills))
	mux.HandleFunc("GET /{lang}/skills/{name}", s.lang(s.skill))
	mux.HandleFunc("POST /{lang}/skills/{name}/revert", s.lang(s.revertPost))
	mux.HandleFunc("POST /{lang}/skills/{name}/verdict", s.lang(s.verdictPost))
	return s.guard(mux)
}

// lang accepts the seed's /{lang}/ prefix; the pages are in English.
func (s *Server) lang(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l := r.PathValue("lang")
		if len(l) != 2 || l[0] < 'a' || l[0] > 'z' || l[1] < 'a' || l[1] > 'z' {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}
}

// page is what every template gets.
type page struct {
	Title   string
	Lang    string
	Nav     string
	Token   string
	Message string
	Error   string
	Data    any
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, name, nav, title string, status int, p page) {
	p.Title, p.Nav, p.Token, p.Lang = title, nav, s.token, r.PathValue("lang")
	if p.Lang == "" {
		p.Lang = "en"
	}
	var b strings.Builder
	if err := s.pages[name].Execute(&b, p); err != nil {
		fmt.Fprintf(s.opts.Log, "memhook serve: render %s: %v\n", name, err)
		http.Error(w, "render the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, b.String())
}

// fail shows an error page with the status.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	s.render(w, r, "message", "", http.StatusText(status), status, page{Error: err.Error()})
}
