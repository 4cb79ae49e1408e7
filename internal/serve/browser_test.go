package serve_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/cli"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/testfile"
	"github.com/chromedp/chromedp"
)

// memory is a project with real memory built in a temp dir through
// memhook's own commands, and a second, stale project on the desk.
type memory struct {
	root, stale string
	env         map[string]string
	url         string
	srv         *serve.Server
}

func memhook(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, cli.System{In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] }, Environ: func() []string { return nil }, Now: time.Now})
	if code != 0 {
		t.Fatalf("memhook %v: exit %d\n%s%s", args, code, out.String(), errb.String())
	}
	return out.String()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newMemory(t *testing.T) *memory {
	t.Helper()
	tmp := t.TempDir()
	m := &memory{root: filepath.Join(tmp, "atlas"), stale: filepath.Join(tmp, "borealis")}
	m.env = map[string]string{"HOME": tmp, "CEREBRO_HOME": filepath.Join(tmp, "desk"), "CEREBRO_STATE_DIR": filepath.Join(tmp, "state")}
	done := filepath.Join(tmp, "cygnus")
	for _, p := range []string{m.root, m.stale, done} {
		if err := os.MkdirAll(filepath.Join(p, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		memhook(t, m.env, "long", "on", "--project", p)
	}
	for _, set := range [][]string{
		{m.root, "stage", "build"}, {m.root, "next", "ship the playground"},
		{m.stale, "plan_status", "blocked"}, {m.stale, "blockers", "waiting for the vendor's API keys"},
		{done, "status", "completed"}, {done, "summary", "the Telegram bot's memory, in production"},
	} {
		memhook(t, m.env, "planfact", "set", set[1], set[2], "--project", set[0])
	}
	memhook(t, m.env, "remember", "Dima's phone is 111", "--table", "friends", "--key", "Dima", "--kind", "phone", "--value", "111", "--project", m.root)
	memhook(t, m.env, "remember", "The taxi charges no pickup fee", "--geo", "Madrid", "--project", m.root)
	memhook(t, m.env, "remember", "The taxi charges a pickup fee of two euros", "--geo", "Barcelona", "--project", m.root)
	for _, rel := range [][3]string{{"Denis", "served in", "Kremlin regiment"}, {"Denis", "friend of", "Dima"}, {"Dima", "lives in", "Madrid"}, {"Kremlin regiment", "guards", "Moscow Kremlin"}} {
		memhook(t, m.env, "graph", "link", rel[0], rel[2], "--rel", rel[1], "--project", m.root)
	}
	write(t, filepath.Join(m.root, ".claude", "memory_long", "wiki", "Dima.md"), "---\ntype: entity\ntitle: Dima\n---\n\n# Dima\n\nProduct manager; a friend of [[Denis]]; moved to Madrid.\n")
	long := filepath.Join(m.root, ".claude", "memory_long")
	write(t, filepath.Join(long, "wiki", "Denis.md"), "---\ntype: entity\ntitle: Denis\n---\n\n# Denis\n\nA friend; served in the [[Kremlin regiment]] from 1992 to 1994.\n")
	write(t, filepath.Join(long, "wiki", "Kremlin regiment.md"), "---\ntype: entity\ntitle: Kremlin regiment\n---\n\n# Kremlin regiment\n\nThe presidential regiment.\nA note with markup: <script>document.title='pwned'</script><img src=x onerror=alert(1)>\n")
	now := time.Now()
	for i := 0; i < 50; i++ {
		if i%7 == 3 || i%5 == 1 || i > 20 && i%3 != 0 {
			continue // a realistic week: not every day has a distillate
		}
		day := now.AddDate(0, 0, -i)
		write(t, filepath.Join(m.root, ".claude", "memory_short", "daily", day.Format("2006-01-02")+".md"),
			"# "+day.Format("2006-01-02")+"\n\n- worked on the playground\n- asked about [[Denis]]\n")
	}
	old := now.AddDate(0, 0, -45)
	stale := []string{filepath.Join(m.stale, ".claude", "memory_long", "log.md"), filepath.Join(m.stale, ".claude", "memory_long", "План-факт.md")}
	for i := 45; i < 56; i += 2 {
		day := filepath.Join(m.stale, ".claude", "memory_short", "daily", now.AddDate(0, 0, -i).Format("2006-01-02")+".md")
		write(t, day, "# old work\n")
		stale = append(stale, day)
	}
	for _, p := range stale {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	skills := filepath.Join(m.root, ".claude", "skills")
	sk := filepath.Join(skills, "use-tables", "SKILL.md")
	write(t, sk, "---\nname: use-tables\n---\n\nWrite values in place.\n")
	ref, _ := skill.Locate(sk)
	if _, err := skill.Commit(ref, "Write", now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	write(t, sk, "---\nname: use-tables\n---\n\nWrite values in place; promote a kind to a list when it repeats.\n")
	if _, err := skill.Commit(ref, "Edit", now); err != nil {
		t.Fatal(err)
	}
	return m
}

// start serves m on a free loopback port through `memhook serve`'s wiring.
func (m *memory) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- cli.ServeWith(ctx, cli.System{Out: &bytes.Buffer{}, Err: &errb, Getenv: func(k string) string { return m.env[k] },
			Environ: func() []string { return nil }, Now: time.Now}, cli.ServeOptions{Project: m.root, Listener: ln})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && err != http.ErrServerClosed {
			t.Errorf("serve: %v", err)
		}
	})
	m.url = "http://" + ln.Addr().String()
	for i := 0; i < 50; i++ {
		if resp, err := http.Get(m.url + "/"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("server did not start: %s", errb.String())
}

// browser starts headless Chromium. Without it the tests skip only on a
// developer's machine: in CI (CI set) a missing browser fails.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		testfile.SkipMissing(t, testfile.Chromium, "the browser tests drive it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// shot takes a full-page PNG screenshot. `make screenshots` sets
// CEREBRO_SCREENSHOTS=docs/screenshots, the folder the README links; other
// runs keep them in the test's temp dir, so a test run leaves the tree
// clean.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("screenshot %s is not a PNG", name)
	}
	dir := os.Getenv("CEREBRO_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
		t.Fatalf("read %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserPlayground(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	page := m.url + "/en/settings?section=memory-test"

	// / redirects to the playground.
	run(t, ctx, chromedp.Navigate(m.url+"/"), chromedp.WaitVisible("#text", chromedp.ByID))
	var loc string
	run(t, ctx, chromedp.Location(&loc))
	if !strings.HasSuffix(loc, "/en/settings?section=memory-test") {
		t.Errorf("/ went to %s", loc)
	}
	// Advanced parameters start collapsed and say nothing is set; set two,
	// collapse, and the closed block lists them.
	var open bool
	run(t, ctx, chromedp.JavascriptAttribute("#advanced", "open", &open))
	if open {
		t.Error("advanced parameters are open by default")
	}
	if got := text(t, ctx, "#advanced-set"); got != "— none set" {
		t.Errorf("collapsed listing %q, want none set", got)
	}
	for _, d := range []string{"photo", "voice", "document"} {
		var disabled bool
		run(t, ctx, chromedp.JavascriptAttribute("#door-"+d+" button", "disabled", &disabled))
		if !disabled || !strings.Contains(text(t, ctx, "#door-"+d), "Closed: ") {
			t.Errorf("door %s is not a disabled door saying why", d)
		}
	}
	run(t, ctx,
		chromedp.Click("#advanced summary", chromedp.ByQuery),
		chromedp.WaitVisible(`input[name="p.limit"]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="p.limit"]`, "3", chromedp.ByQuery),
		chromedp.Click(`input[name="p.chain"]`, chromedp.ByQuery),
		chromedp.Click("#advanced summary", chromedp.ByQuery),
	)
	run(t, ctx, chromedp.JavascriptAttribute("#advanced", "open", &open))
	if open {
		t.Error("advanced parameters did not collapse")
	}
	if got := text(t, ctx, "#advanced-set"); got != "— set: Return the chain: yes · Items per level: 3" {
		t.Errorf("collapsed listing %q", got)
	}
	shot(t, ctx, "playground-form")

	// A recall from the page: kind, depth used and every parameter's fate.
	run(t, ctx,
		chromedp.SendKeys("#text", "what is Dima's phone", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID),
		chromedp.WaitVisible("#answer", chromedp.ByID),
	)
	if k := text(t, ctx, "#answer-kind"); k != "affirmative" {
		t.Errorf("kind %q, want affirmative", k)
	}
	if d := text(t, ctx, "#depth-used"); d != "1" {
		t.Errorf("depth used %q, want 1", d)
	}
	for param, fate := range map[string]string{"depth": "accepted", "limit": "accepted", "chain": "accepted"} {
		if got := text(t, ctx, `#fates tr[data-param="`+param+`"] td.fate`); got != fate {
			t.Errorf("fate of %s: %q, want %s", param, got, fate)
		}
	}
	if !strings.Contains(text(t, ctx, "#chain"), "level 1 (tables)") || !strings.Contains(text(t, ctx, "#raw"), `"depth_used": 1`) {
		t.Error("the chain or the raw answer is missing")
	}
	if got := text(t, ctx, "#advanced-set"); got != "— set: Return the chain: yes · Items per level: 3" {
		t.Errorf("listing after the run %q", got)
	}
	shot(t, ctx, "playground")

	// A text recall cites "path#Lstart-Lend"; the cite opens the memory
	// browser at those lines.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "which regiment is the presidential regiment", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID),
		chromedp.WaitVisible(".item a.cite", chromedp.ByQuery))
	cite := text(t, ctx, ".item a.cite")
	run(t, ctx, chromedp.Click(".item a.cite", chromedp.ByQuery), chromedp.WaitVisible(".ln.mark", chromedp.ByQuery))
	var shown string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll(".ln.mark")).map(e => e.textContent).join("\n")`, &shown))
	if !strings.Contains(shown, "presidential regiment") {
		t.Errorf("cite %s opened at %q", cite, shown)
	}

	// Parameter-dependent: the taxi records hold for two places.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "taxi pickup fee", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if k := text(t, ctx, "#answer-kind"); k != "parameter_dependent" {
		t.Errorf("taxi kind %q", k)
	}
	if got := text(t, ctx, "#missing"); !strings.Contains(got, "Barcelona, Madrid") {
		t.Errorf("missing %q lacks the values", got)
	}

	// Two scope records, the second at fault: the form names record 2.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "taxi pickup fee", chromedp.ByID),
		chromedp.SendKeys(`#scope-1 input[name="scope.geo"]`, "Madrid", chromedp.ByQuery),
		chromedp.Click("#add-record", chromedp.ByID),
		chromedp.WaitVisible("#scope-2", chromedp.ByID),
		chromedp.SendKeys(`#scope-2 input[name="scope.calendar"]`, "next spring", chromedp.ByQuery),
		chromedp.Click("#run", chromedp.ByID),
		chromedp.WaitVisible("#form-error", chromedp.ByID),
	)
	if got := text(t, ctx, "#form-error"); !strings.HasPrefix(got, "scope record 2: ") {
		t.Errorf("form error %q does not name record 2", got)
	}
	if !strings.Contains(text(t, ctx, "#scope-2"), "not YYYY") {
		t.Error("record 2's card does not show its error")
	}
	shot(t, ctx, "playground-scope-error")
	// Fixing record 2 runs with both records.
	run(t, ctx, chromedp.Evaluate(`document.querySelector('#scope-2 input[name="scope.calendar"]').value = ""`, nil),
		chromedp.SendKeys(`#scope-2 input[name="scope.geo"]`, "Barcelona", chromedp.ByQuery),
		chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if got := text(t, ctx, `#fates tr[data-param="scope"] td.fate`); got != "accepted" {
		t.Errorf("scope fate %q", got)
	}
	if k := text(t, ctx, "#answer-kind"); k != "probabilistic" {
		t.Errorf("scoped taxi kind %q, want probabilistic", k)
	}

	// Deny an item with a reason; asked again, the item is withheld.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "what is Dima's phone", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID),
		chromedp.SendKeys(".item form.deny input[name=reason]", "that is his old number", chromedp.ByQuery),
		chromedp.Click(".item form.deny button", chromedp.ByQuery),
		chromedp.WaitVisible("#message", chromedp.ByID),
	)
	if got := text(t, ctx, "#message"); !strings.HasPrefix(got, "Denied inf-") {
		t.Errorf("deny message %q", got)
	}
	denials, err := os.ReadFile(filepath.Join(m.root, ".claude", "memory_long", "denials", "denials.md"))
	if err != nil || !strings.Contains(string(denials), "that is his old number") {
		t.Errorf("the denial was not stored with its reason: %v\n%s", err, denials)
	}
	run(t, ctx, chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if got := text(t, ctx, `#report tr[data-level="1"]`); !strings.Contains(got, "empty") {
		t.Errorf("level 1 after the denial: %q, want empty with the item withheld", got)
	}
}

func TestBrowserDashboardAndMemory(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)

	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	stale := text(t, ctx, `#active tr[data-project="borealis"] td.act`)
	if !strings.HasPrefix(stale, "⚠ stale") {
		t.Errorf("the stale project's activity %q lacks the ⚠", stale)
	}
	if fresh := text(t, ctx, `#active tr[data-project="atlas"] td.act`); !strings.HasPrefix(fresh, "fresh") {
		t.Errorf("the fresh project's activity %q", fresh)
	}
	var bars int
	run(t, ctx, chromedp.Evaluate(`document.querySelectorAll("#activity-chart rect:not(.bg)").length`, &bars))
	if bars != 24 {
		t.Errorf("the activity chart has %d bars, want 3 projects × 8 weeks", bars)
	}
	if got := text(t, ctx, "#completed"); !strings.Contains(got, "cygnus") || !strings.Contains(got, "Q4 case candidate") {
		t.Errorf("completed %q lacks the Q4 candidate", got)
	}
	if got := text(t, ctx, `#active tr[data-project="borealis"]`); !strings.Contains(got, "waiting for the vendor's API keys") {
		t.Errorf("the blocker is not shown: %q", got)
	}
	shot(t, ctx, "dashboard")

	// Memory: a wiki page, then its backlink.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory"), chromedp.WaitVisible("#pages", chromedp.ByID))
	shot(t, ctx, "memory")
	run(t, ctx, chromedp.Click(`//ul[@id="pages"]//a[text()="Kremlin regiment"]`), chromedp.WaitVisible("#backlinks", chromedp.ByID))
	var title string
	run(t, ctx, chromedp.Title(&title))
	if title == "pwned" || !strings.Contains(text(t, ctx, "#lines"), "<script>document.title='pwned'</script>") {
		t.Errorf("a note's <script> was not shown inert as text (title %q)", title)
	}
	shot(t, ctx, "wiki-page")
	run(t, ctx, chromedp.Click(`//aside[@id="backlinks"]//a[text()="Denis"]`), chromedp.WaitVisible("#lines", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "h1"), "wiki/Denis.md") {
		t.Errorf("the backlink opened %q", text(t, ctx, "h1"))
	}
	// The forward link goes back.
	run(t, ctx, chromedp.Click(`a.wl`, chromedp.ByQuery), chromedp.WaitVisible("#backlinks", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "h1"), "Kremlin regiment.md") {
		t.Errorf("the wikilink opened %q", text(t, ctx, "h1"))
	}

	// Graph: drawn server-side, pages and relations' entities.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/graph"), chromedp.WaitVisible("#graph", chromedp.ByID))
	var nodes int
	run(t, ctx, chromedp.Evaluate(`document.querySelectorAll("#graph g.node").length`, &nodes))
	if nodes < 3 {
		t.Errorf("graph has %d nodes", nodes)
	}
	shot(t, ctx, "graph")

	// Search: a cited result opens the file at its lines.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/search?q="+url.QueryEscape("presidential regiment")), chromedp.WaitVisible("#results", chromedp.ByID))
	shot(t, ctx, "search")
	run(t, ctx, chromedp.Click("#results a", chromedp.ByQuery), chromedp.WaitVisible(".ln.mark", chromedp.ByQuery))
	var marked string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll(".ln.mark")).map(e => e.textContent).join("\n")`, &marked))
	if got := marked; !strings.Contains(got, "presidential regiment") {
		t.Errorf("the cited lines are %q", got)
	}

	// Skills: the list, then log, diff, revert with a confirmation.
	run(t, ctx, chromedp.Navigate(m.url+"/en/skills"), chromedp.WaitVisible("#skills", chromedp.ByID))
	if got := text(t, ctx, "#skills"); !strings.Contains(got, "use-tables") {
		t.Errorf("skills list %q", got)
	}
	shot(t, ctx, "skills")
	run(t, ctx, chromedp.Navigate(m.url+"/en/skills/use-tables"), chromedp.WaitVisible("#diff", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "#diff"), "+Write values in place; promote") {
		t.Errorf("diff %q", text(t, ctx, "#diff"))
	}
	run(t, ctx, chromedp.Click("#revert", chromedp.ByID), chromedp.WaitVisible("#confirm", chromedp.ByID))
	shot(t, ctx, "skill")
	run(t, ctx, chromedp.Click("#revert-yes", chromedp.ByID), chromedp.WaitVisible("#message", chromedp.ByID))
	data, _ := os.ReadFile(filepath.Join(m.root, ".claude", "skills", "use-tables", "SKILL.md"))
	if strings.Contains(string(data), "promote") {
		t.Errorf("revert did not restore the previous version:\n%s", data)
	}
}
