package serve_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func newReq(t *testing.T, method, u, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req
}

var tokenRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]{64})"`)

// TestSecurity: a foreign Host, a cross-site POST, a POST without the
// token, path traversal in every URL that takes a path, an oversized
// request and a note holding <script> are refused or inert.
func TestSecurity(t *testing.T) {
	m := newMemory(t)
	// A symlink inside the memory root pointing out of it.
	secret := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(secret, []byte("---\ntitle: the secret title\n---\nthe secret [[Denis]]"), 0o644)
	if err := os.Symlink(secret, filepath.Join(m.root, ".claude", "memory_long", "wiki", "link.md")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(m.root, "outside.md"), []byte("not memory"), 0o644)
	m.start(t)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page := m.url + "/en/settings?section=memory-test"

	code, body := get(t, c, newReq(t, "GET", page, ""))
	tok := tokenRE.FindStringSubmatch(body)
	if code != 200 || tok == nil {
		t.Fatalf("playground: %d, token found %v", code, tok != nil)
	}

	t.Run("foreign host", func(t *testing.T) {
		for _, host := range []string{"evil.example:80", "evil.example", "127.0.0.1.nip.io"} {
			req := newReq(t, "GET", page, "")
			req.Host = host
			if code, _ := get(t, c, req); code != http.StatusMisdirectedRequest {
				t.Errorf("Host %s: status %d, want 421", host, code)
			}
		}
		u, _ := url.Parse(m.url)
		req := newReq(t, "GET", page, "")
		req.Host = "localhost:" + u.Port()
		if code, _ := get(t, c, req); code != 200 {
			t.Errorf("Host localhost: status %d, want 200", code)
		}
	})

	t.Run("state changes need the token", func(t *testing.T) {
		form := url.Values{"text": {"what is Dima's phone"}, "action": {"run"}, "id": {"inf-000000000000"}, "reason": {"x"}}
		for _, path := range []string{"/en/settings?section=memory-test", "/en/deny", "/en/relearn", "/en/skills/use-tables/revert"} {
			if code, _ := get(t, c, newReq(t, "POST", m.url+path, form.Encode())); code != http.StatusForbidden {
				t.Errorf("POST %s without a token: %d, want 403", path, code)
			}
			bad := url.Values{"csrf": {strings.Repeat("0", 64)}, "confirm": {"yes"}}
			if code, _ := get(t, c, newReq(t, "POST", m.url+path, bad.Encode())); code != http.StatusForbidden {
				t.Errorf("POST %s with a wrong token: %d, want 403", path, code)
			}
			cross := url.Values{"csrf": {tok[1]}, "confirm": {"yes"}}
			req := newReq(t, "POST", m.url+path, cross.Encode())
			req.Header.Set("Origin", "http://evil.example")
			if code, _ := get(t, c, req); code != http.StatusForbidden {
				t.Errorf("cross-site POST %s: %d, want 403", path, code)
			}
		}
		data, _ := os.ReadFile(filepath.Join(m.root, ".claude", "skills", "use-tables", "SKILL.md"))
		if !strings.Contains(string(data), "promote") {
			t.Error("a refused revert changed the skill")
		}
		// GET never changes state: the revert link only asks to confirm.
		code, body := get(t, c, newReq(t, "GET", m.url+"/en/skills/use-tables?confirm=revert", ""))
		if code != 200 || !strings.Contains(body, `id="confirm"`) {
			t.Errorf("revert confirmation: %d", code)
		}
		// With the token the run works.
		ok := url.Values{"csrf": {tok[1]}, "text": {"what is Dima's phone"}, "action": {"run"}, "depth": {"standard"}}
		if code, body := get(t, c, newReq(t, "POST", page, ok.Encode())); code != 200 || !strings.Contains(body, `id="answer-kind">affirmative<`) {
			t.Errorf("POST with the token: %d", code)
		}
	})

	t.Run("path traversal", func(t *testing.T) {
		for _, p := range []string{
			"../../../../etc/passwd", "/etc/passwd", ".claude/memory_long/../../outside.md", "outside.md",
			".claude/memory_long/wiki/link.md", ".claude/memory_long/%2e%2e/%2e%2e/outside.md", ".claude\\memory_long\\..\\..\\outside.md",
			".claude/memory_long", ".claude/skills/use-tables/SKILL.md",
			// The memory's own repository and machinery are not memory.
			".claude/memory_long/.git/config", ".claude/memory_long/.git/HEAD", ".claude/memory_long/./.git/config",
			".claude/memory_short/../memory_long/.git/config", ".claude/memory_long/wiki/../.git/config",
			".claude/memory_long/.cerebro/write.lock", ".claude/memory_long/.gitignore", ".claude/memory_long//.git/config",
			".claude/memory_long/.git%2fconfig", "./.claude/memory_long/.git/config", ".claude/memory_long/.GIT/config",
		} {
			code, body := get(t, c, newReq(t, "GET", m.url+"/en/memory/file?path="+url.QueryEscape(p), ""))
			if code != http.StatusNotFound || strings.Contains(body, "not memory") || strings.Contains(body, "the secret") || strings.Contains(body, "root:") ||
				strings.Contains(body, "[core]") || strings.Contains(body, "refs/heads") {
				t.Errorf("path %q: status %d", p, code)
			}
		}
		for _, u := range []string{"/static/v1/..%2f..%2fserve.go", "/static/v1/%2e%2e/serve.go", "/en/skills/..%2f..%2fetc", "/en/skills/use-tables?from=HEAD~1&to=HEAD",
			"/../../etc/passwd", "/en/memory/file/../../../etc/passwd"} {
			code, body := get(t, c, newReq(t, "GET", m.url+u, ""))
			if code == 200 && !strings.Contains(u, "?") || strings.Contains(body, "package serve") || strings.Contains(body, "root:") {
				t.Errorf("%s: status %d", u, code)
			}
			if strings.Contains(u, "?") && code != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400 for revisions outside the log", u, code)
			}
		}
		// The symlinked page is not listed either.
		if _, body := get(t, c, newReq(t, "GET", m.url+"/en/memory", "")); strings.Contains(body, "the secret") || strings.Contains(body, "link.md") {
			t.Error("the memory page lists a symlinked page")
		}
		_, body := get(t, c, newReq(t, "GET", m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_long/wiki/Denis.md"), ""))
		if strings.Contains(body, "link.md") || strings.Contains(body, "the secret") {
			t.Error("a symlinked page counts as a backlink")
		}
	})

	t.Run("only the served projects", func(t *testing.T) {
		// A request names a project by its id, never by a folder: an id
		// that is not the start project's or a registered one is refused.
		for _, id := range []string{"../../etc", "/etc", m.root, filepath.Base(m.root), "atlas-00000000", ".."} {
			for _, page := range []string{"/en/memory", "/en/memory/file?path=" + url.QueryEscape(".claude/memory_long/index.md"), "/en/settings?section=memory-test", "/en/skills"} {
				sep := "?"
				if strings.Contains(page, "?") {
					sep = "&"
				}
				code, body := get(t, c, newReq(t, "GET", m.url+page+sep+"project="+url.QueryEscape(id), ""))
				if code != http.StatusNotFound || !strings.Contains(body, "no project") {
					t.Errorf("project %q on %s: status %d", id, page, code)
				}
			}
		}
	})

	t.Run("a GET with a body", func(t *testing.T) {
		if code, _ := get(t, c, newReq(t, "GET", m.url+"/en/memory", "x=1")); code != http.StatusBadRequest {
			t.Errorf("GET with a body: %d, want 400", code)
		}
	})

	t.Run("oversized request", func(t *testing.T) {
		big := url.Values{"csrf": {tok[1]}, "text": {strings.Repeat("x", 5<<20)}}
		if code, _ := get(t, c, newReq(t, "POST", page, big.Encode())); code != http.StatusForbidden && code != http.StatusRequestEntityTooLarge {
			t.Errorf("oversized POST: %d", code)
		}
	})

	t.Run("script in a note is inert", func(t *testing.T) {
		rel := ".claude/memory_long/wiki/Kremlin regiment.md"
		// Rendered, raw HTML is left out; as source, it is text.
		code, body := get(t, c, newReq(t, "GET", m.url+"/en/memory/file?path="+url.QueryEscape(rel), ""))
		if code != 200 || strings.Contains(body, "<script>document") || strings.Contains(body, "<img src=x") || !strings.Contains(body, `id="page"`) {
			t.Errorf("the note's markup reached the rendered page: %d", code)
		}
		code, body = get(t, c, newReq(t, "GET", m.url+"/en/memory/file?view=source&path="+url.QueryEscape(rel), ""))
		if code != 200 || strings.Contains(body, "<script>document") || strings.Contains(body, "<img src=x") ||
			!strings.Contains(body, "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;") {
			t.Errorf("the note's markup reached the source view: %d", code)
		}
		resp, err := c.Do(newReq(t, "GET", m.url+"/en/memory/file?path="+url.QueryEscape(rel), ""))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("CSP %q", csp)
		}
	})
}

var itemRE = regexp.MustCompile(`id="item-(inf-[0-9a-f]{12})"`)

// TestRelearnFromPage: an item the page offered is relearned from the page:
// its question and answer become an object and the summary a wiki page.
func TestRelearnFromPage(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	c := &http.Client{}
	page := m.url + "/en/settings?section=memory-test"
	_, body := get(t, c, newReq(t, "GET", page, ""))
	tok := tokenRE.FindStringSubmatch(body)[1]
	run := url.Values{"csrf": {tok}, "text": {"what is Dima's phone"}, "action": {"run"}, "depth": {"standard"}}
	_, body = get(t, c, newReq(t, "POST", page, run.Encode()))
	item := itemRE.FindStringSubmatch(body)
	if item == nil {
		t.Fatalf("no item offered:\n%s", body)
	}
	rl := url.Values{"csrf": {tok}, "id": {item[1]}, "about": {"Dima"}, "summary": {"Dima's phone is 111, from the friends table"}}
	code, body := get(t, c, newReq(t, "POST", m.url+"/en/relearn", rl.Encode()))
	if code != 200 || !strings.Contains(body, "Relearned "+item[1]+" as sha256-") {
		t.Fatalf("relearn: %d\n%s", code, body)
	}
	pages, _ := filepath.Glob(filepath.Join(m.root, ".claude", "memory_long", "wiki", "relearned", "*.md"))
	if len(pages) != 1 {
		t.Fatalf("relearned pages %v", pages)
	}
	data, _ := os.ReadFile(pages[0])
	if !strings.Contains(string(data), "from the friends table") {
		t.Errorf("summary page:\n%s", data)
	}
	// An id this server never offered is refused, not relearned.
	rl.Set("id", "inf-000000000000")
	if code, _ := get(t, c, newReq(t, "POST", m.url+"/en/relearn", rl.Encode())); code != http.StatusUnprocessableEntity {
		t.Errorf("relearn of an unknown item: %d", code)
	}
}
