package serve

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// guard refuses foreign hosts and cross-site state changes, bounds
// request bodies and sets the headers that keep a page inert.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.hosts[strings.ToLower(r.Host)] {
			// A page on another site that resolves its name to this
			// address (DNS rebinding) sends its own name as Host.
			fmt.Fprintf(s.opts.Log, "memhook serve: refused host %q\n", r.Host)
			http.Error(w, "refused: this server answers only for "+s.opts.Addr, http.StatusMisdirectedRequest)
			return
		}
		// The whole request is read here, under a deadline from its start:
		// a client that trickles its body is dropped at BodyTimeout. Once
		// read, the deadline is lifted, so a long recall is not cut off.
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(s.opts.Limits.BodyTimeout))
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := s.checkPost(r); err != nil {
				fmt.Fprintf(s.opts.Log, "memhook serve: refused %s %s: %v\n", r.Method, r.URL.Path, err)
				http.Error(w, "refused: "+err.Error(), http.StatusForbidden)
				return
			}
		} else if r.ContentLength != 0 {
			// No page takes a body with GET; one sent anyway would be
			// drained after the handler, outside every deadline.
			http.Error(w, "refused: a GET carries no body", http.StatusBadRequest)
			return
		}
		_ = rc.SetReadDeadline(time.Time{})
		markAnswering(r)
		// Static files and short answers are written under the same bound
		// as a page; render sets it again once a page is ready.
		_ = rc.SetWriteDeadline(time.Now().Add(s.opts.Limits.WriteTimeout + 60*time.Second))
		next.ServeHTTP(w, r)
	})
}

// checkPost accepts a state change only from this server's own pages: the
// Origin, when the browser sends one, is the served host, and the form
// carries the process's token.
func (s *Server) checkPost(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		if err != nil || !s.hosts[strings.ToLower(u.Host)] {
			return fmt.Errorf("cross-site request from %s", o)
		}
	}
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("request larger than %d bytes", MaxRequestBytes)
		}
		return fmt.Errorf("read the form: %w", err)
	}
	got := r.PostForm.Get("csrf")
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
		return errors.New("missing or wrong CSRF token: reload the page and submit again")
	}
	return nil
}

// errOutside is a path the browser may not read.
var errOutside = errors.New("outside the memory roots")

// memoryRoots are the folders files may be read from, relative to the
// project root (slash-separated).
var memoryRoots = []string{".claude/memory_long", ".claude/memory_short"}

// resolve turns a slash path relative to the project root into a file
// under one of the memory roots, refusing "..", absolute paths, any
// segment starting with a dot (.git, .cerebro, .trash: the repository and
// the machinery, not memory) and any symlink on the way.
func resolve(root, rel string) (string, error) {
	if rel == "" || strings.Contains(rel, "\\") || strings.ContainsRune(rel, 0) || filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") {
		return "", errOutside
	}
	for i, part := range strings.Split(rel, "/") {
		if part == ".." || part == "." || part == "" || i > 0 && strings.HasPrefix(part, ".") {
			return "", errOutside
		}
	}
	inside := false
	for _, root := range memoryRoots {
		if strings.HasPrefix(rel, root+"/") {
			inside = true
		}
	}
	if !inside {
		return "", errOutside
	}
	// Walk every component with Lstat: a symlink anywhere may point out.
	p := root
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return "", err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return "", errOutside
		}
	}
	return p, nil
}

// readMemory reads a memory file, bounded.
func readMemory(root, rel string) ([]byte, error) {
	p, err := resolve(root, rel)
	if err != nil {
		return nil, err
	}
	// Through the safe file layer: a FIFO planted as a note is refused
	// without blocking the server, a link is not followed.
	return safefs.ReadFile(p, maxFileBytes)
}

// memoryError says in the page's language why a memory file cannot be
// shown: outside the roots and missing alike are not a file of the
// memory (the page does not tell which paths exist), too large says so.
func memoryError(l *language, rel string, err error) error {
	switch {
	case errors.Is(err, errOutside), errors.Is(err, fs.ErrNotExist):
		return errors.New(l.F("%s: not a file of this project's memory", rel))
	case errors.Is(err, safefs.ErrTooLarge):
		return errors.New(l.F("%s is larger than %d bytes", rel, maxFileBytes))
	}
	return fmt.Errorf("%s: %w", rel, err)
}
