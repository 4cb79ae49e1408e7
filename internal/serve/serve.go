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
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
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

// Project is one project the server can show: the one it was started for,
// or one of the desk's registered projects. Nothing else is reachable, so
// no request can name an arbitrary folder.
type Project struct {
	ID   string // project.ID(Root): the value of ?project=
	Name string
	Root string // the project root; its .claude/memory_long and .claude/memory_short are the memory roots
}

// SearchQuery is one search from the search page; Scope is one of
// search's scopes.
type SearchQuery struct {
	Root  string
	Text  string
	Limit int
	Scope string
}

// Options are what the server shows and how it reaches memory. The
// functions come from the composition root so that the page and the CLI
// open memory the same way; each takes the root of the project a request
// is about.
type Options struct {
	Addr  string  // the served address, host:port; requests for another Host are refused
	Start Project // the project the server was started for, shown when a request names none
	// Projects lists the desk's registered projects, read on each request
	// (nil: only Start is reachable).
	Projects func() []Project
	// OpenBox opens a project's memory behind the two verbs.
	OpenBox func(root string) (*blackbox.Box, func(), error)
	// Search searches memory (nil: the search page says so).
	Search func(ctx context.Context, q SearchQuery) (*search.Response, error)
	// Desk is the org desk's folder: its search results are labelled as
	// the desk's (its files are not served).
	Desk string
	// Rollup collects the org dashboard (nil: the dashboard says so).
	Rollup func() *rollup.Report
	// SkillsDirs are the folders holding a project's skills, searched in
	// order: the project's own first, then the plugin's.
	SkillsDirs func(root string) []SkillsDir
	// Runs reads a project's run records, which weigh the skills'
	// candidates with Rules (nil: the skill pages show no candidates).
	Runs  func(root string) ([]runrec.Run, error)
	Rules func(root string) evolve.Rules
	// Verdict records a person's verdict (good or bad) on a run, as
	// `memhook verdict` does (nil: no verdict buttons).
	Verdict func(root, run, verdict string) error
	Now     func() time.Time
	Log     io.Writer // one line per refused request; nil: discarded
	Limits  Limits
}

// Limits bound what one client can hold: a client that sends its request
// slowly, or never, is dropped at the deadline, and no more than MaxConns
// connections are open at once. Zero values take the defaults.
type Limits struct {
	HeaderTimeout time.Duration // the request line and headers (default 10 s)
	BodyTimeout   time.Duration // the whole request, body included (default 30 s)
	IdleTimeout   time.Duration // a kept-alive connection between requests (default 60 s)
	WriteTimeout  time.Duration // writing a rendered page (default 30 s)
	MaxConns      int           // connections open at once (default 64)
}

func (l Limits) withDefaults() Limits {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.HeaderTimeout, 10*time.Second)
	def(&l.BodyTimeout, 30*time.Second)
	def(&l.IdleTimeout, 60*time.Second)
	def(&l.WriteTimeout, 30*time.Second)
	if l.MaxConns <= 0 {
		l.MaxConns = 64
	}
	return l
}

// Server is the web application.
type Server struct {
	opts  Options
	token string // the CSRF token of this process
	hosts map[string]bool
	pages map[string]map[string]*template.Template // language → page → template
	mu    sync.Mutex                               // memory is used by one request at a time
	offer offers
}

// pageNames are the templates, each parsed with the layout.
var pageNames = []string{"playground", "dashboard", "memory", "file", "graph", "search", "skills", "skill", "message"}

// New checks the options and parses the templates.
func New(opts Options) (*Server, error) {
	if opts.Start.Root == "" || opts.OpenBox == nil {
		return nil, errors.New("serve: a project root and a way to open its memory are required")
	}
	if opts.Start.Name == "" {
		opts.Start.Name = filepath.Base(opts.Start.Root)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.SkillsDirs == nil {
		opts.SkillsDirs = func(root string) []SkillsDir {
			return []SkillsDir{{Dir: filepath.Join(root, ".claude", "skills"), Source: "project"}}
		}
	}
	if opts.Rules == nil {
		opts.Rules = func(string) evolve.Rules { return evolve.DefaultRules() }
	}
	opts.Limits = opts.Limits.withDefaults()
	hosts, err := allowedHosts(opts.Addr)
	if err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("serve: make the CSRF token: %w", err)
	}
	s := &Server{opts: opts, token: hex.EncodeToString(b[:]), hosts: hosts, pages: map[string]map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).Funcs(langFuncs(languages["en"])).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("serve: parse template %s: %w", name, err)
		}
		for code, l := range languages {
			c, err := t.Clone()
			if err != nil {
				return nil, fmt.Errorf("serve: clone template %s: %w", name, err)
			}
			if s.pages[code] == nil {
				s.pages[code] = map[string]*template.Template{}
			}
			s.pages[code][name] = c.Funcs(langFuncs(l))
		}
	}
	return s, nil
}

// Root is the root of the project the server was started for.
func (s *Server) Root() string { return s.opts.Start.Root }

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

// Serve answers on ln until ctx ends, then shuts down gracefully. At most
// Limits.MaxConns connections are open at once: a new one closes the
// connection that has waited longest without being answered (slow
// headers, a trickled body, idle), and waits in the listener's backlog
// only while every open one is being answered (connCap).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	l := s.opts.Limits
	// No server-wide ReadTimeout: a recall may think for minutes, and the
	// read deadline would cancel its context. The guard puts the body
	// under BodyTimeout instead and lifts the deadline once it is read.
	capped := newConnCap(ln, l.MaxConns)
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: l.HeaderTimeout, IdleTimeout: l.IdleTimeout, MaxHeaderBytes: 64 << 10,
		ConnState: capped.connState, ConnContext: withConn,
		ErrorLog: log.New(s.opts.Log, "memhook serve: ", 0)}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(capped) }()
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
	mux.HandleFunc("GET /api/v1/projects", s.projectsAPI)
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

// lang accepts the seed's /{lang}/ prefix and finds the project the
// request names: pages are in Russian under /ru/ and in English under any
// other two-letter code.
func (s *Server) lang(h func(http.ResponseWriter, *http.Request, *req)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l := r.PathValue("lang")
		if len(l) != 2 || l[0] < 'a' || l[0] > 'z' || l[1] < 'a' || l[1] > 'z' {
			http.NotFound(w, r)
			return
		}
		q := &req{lang: languageOf(l)}
		p, err := s.project(r.URL.Query().Get("project"))
		q.p = p
		if err != nil {
			s.fail(w, r, q, http.StatusNotFound, err)
			return
		}
		h(w, r, q)
	}
}

// req is what every handler knows about its request: the page language
// and the project it is about.
type req struct {
	lang *language
	p    Project
}

// page is what every template gets.
type page struct {
	Title    string
	Lang     string
	Nav      string
	Token    string
	Message  string
	Error    string
	Data     any
	Project  Project
	Start    bool      // the project is the one the server was started for
	Projects []Project // every project reachable, for the switcher
	Switch   []langLink
	query    string // "project=ID", or "" for the start project
	startID  string
}

// langLink is the same page in another language.
type langLink struct {
	Code, Href string
	On         bool
}

// U is a link to one of this server's pages in the page's language and
// project: U "/memory/file" "path" p adds ?path=p&project=ID.
func (p page) U(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	if p.query != "" {
		v.Set("project", p.Project.ID)
	}
	u := "/" + p.Lang + path
	if e := v.Encode(); e != "" {
		if strings.Contains(path, "?") {
			u += "&" + e
		} else {
			u += "?" + e
		}
	}
	return u
}

// linkPage is a page with no content, for building this request's links.
func (s *Server) linkPage(q *req) page {
	p := page{Lang: q.lang.code, Project: q.p, startID: s.opts.Start.ID}
	if q.p.ID != s.opts.Start.ID {
		p.query = "project=" + q.p.ID
	}
	return p
}

// Section is the path of the page's section: where switching to another
// project leads (a file of this project means nothing in another).
func (p page) Section() string {
	switch p.Nav {
	case "playground":
		return "/settings?section=memory-test"
	case "dashboard", "skills":
		return "/" + p.Nav
	case "graph", "search":
		return "/memory/" + p.Nav
	}
	return "/memory"
}

// ProjectURL is the page's section for another project.
func (p page) ProjectURL(o Project, section string) string {
	q := page{Lang: p.Lang, Project: o}
	if o.ID != p.startID {
		q.query = "project=" + o.ID
	}
	return q.U(section)
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, q *req, name, nav, title string, status int, p page) {
	p.Title, p.Nav, p.Token, p.Lang = title, nav, s.token, q.lang.code
	p.Project, p.Start, p.startID = q.p, q.p.ID == s.opts.Start.ID, s.opts.Start.ID
	if !p.Start {
		p.query = "project=" + q.p.ID
	}
	p.Projects = s.projects()
	for _, l := range languageCodes {
		u := *r.URL
		u.Path = "/" + l + strings.TrimPrefix(u.Path, "/"+r.PathValue("lang"))
		if r.Method != http.MethodGet {
			u.RawQuery = p.query
			if name == "playground" {
				u.RawQuery = strings.TrimPrefix("section=memory-test&"+p.query, "&")
				u.Path = "/" + l + "/settings"
			}
		}
		p.Switch = append(p.Switch, langLink{Code: l, Href: u.RequestURI(), On: l == p.Lang})
	}
	var b strings.Builder
	if err := s.pages[q.lang.code][name].Execute(&b, p); err != nil {
		fmt.Fprintf(s.opts.Log, "memhook serve: render %s: %v\n", name, err)
		http.Error(w, "render the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	// The page is rendered: a client that does not read it is dropped.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.opts.Limits.WriteTimeout))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, b.String())
}

// fail shows an error page with the status, the error in the page's
// language as far as the translation knows its parts.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, q *req, status int, err error) {
	s.render(w, r, q, "message", "", q.lang.T(http.StatusText(status)), status, page{Error: q.lang.Note(err.Error())})
}
