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
	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/serve"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/testfile"
	"github.com/chromedp/chromedp"
)

// memory is a project with real memory built in a temp dir through
// memhook's own commands, and a second, stale project on the desk.
type memory struct {
	root, stale string
	done        string // completed, and with no memory of its own
	env         map[string]string
	url         string
}

func memhook(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, factory.System{In: strings.NewReader(""), Out: &out, Err: &errb,
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
	plugin, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// The plugin is this checkout: its skills/ are the plugin's skills.
	m.env = map[string]string{"HOME": tmp, "CEREBRO_HOME": filepath.Join(tmp, "desk"), "CEREBRO_STATE_DIR": filepath.Join(tmp, "state"), "CLAUDE_PLUGIN_ROOT": plugin}
	m.done = filepath.Join(tmp, "cygnus")
	done := m.done
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
	write(t, filepath.Join(long, "wiki", "Airport transfers.md"), "---\ntype: topic\ntitle: Airport transfers\n---\n\n# Airport transfers\n\n"+
		"The transfer fares we paid this spring, airport to the centre:\n\n- Madrid: 30 euros\n- Barcelona: 39 euros\n- Valencia: 25 euros\n\n"+
		"| city | fare | booked through |\n| --- | --- | --- |\n| Madrid | 30 euros | the hotel, a flat rate that covers luggage and the motorway toll |\n| Barcelona | 39 euros | the app, metered, with the airport supplement |\n\nSee also [[Dima]].\n")
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
func (m *memory) start(t *testing.T) { m.startWith(t, serve.Limits{}) }

// startWith serves m with the given limits on slow clients and
// connections.
func (m *memory) startWith(t *testing.T, limits serve.Limits) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- cli.ServeWith(ctx, factory.System{Out: &bytes.Buffer{}, Err: &errb, Getenv: func(k string) string { return m.env[k] },
			Environ: func() []string { return nil }, Now: time.Now}, cli.ServeOptions{Project: m.root, Listener: ln, Limits: limits})
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
		chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	// The viewport the screenshots were judged at.
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(1400, 1000)); err != nil {
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
	save(t, name, png)
}

// save keeps a screenshot. `make screenshots` sets CEREBRO_SCREENSHOTS
// to docs/screenshots; other runs keep them in the test's temp dir.
func save(t *testing.T, name string, png []byte) {
	t.Helper()
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

// inView reports whether the element's top edge is inside the viewport
// (and not just under its bottom edge): what a person sees without
// scrolling.
func inView(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	var top, height float64
	run(t, ctx, chromedp.Evaluate(`document.querySelector(`+strconvQuote(sel)+`).getBoundingClientRect().top`, &top),
		chromedp.Evaluate(`window.innerHeight`, &height))
	if top < -1 || top > height-150 {
		t.Logf("%s: top %.1f in a viewport %.0f high", sel, top, height)
		return false
	}
	return true
}

func strconvQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// count is the number of elements matching sel.
func count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	var n int
	run(t, ctx, chromedp.Evaluate(`document.querySelectorAll(`+strconvQuote(sel)+`).length`, &n))
	return n
}

// overflows lists what spills out of the box sel: a table (or the box
// it scrolls in) or a text wider than the box, which cuts a column.
func overflows(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	return strs(t, ctx, `(() => { const box = document.querySelector(`+strconvQuote(sel)+`).getBoundingClientRect(); const bad = [];
		document.querySelectorAll(`+strconvQuote(sel+" table, "+sel+" dd, "+sel+" p")+`).forEach(e => { const c = e.closest(".scroll") || e;
			if (c.getBoundingClientRect().right > box.right + 1) bad.push(e.id || e.tagName + "." + e.className); });
		return bad; })()`)
}

// strs is the list of strings js returns in the page.
func strs(t *testing.T, ctx context.Context, js string) []string {
	t.Helper()
	var out []string
	run(t, ctx, chromedp.Evaluate(js, &out))
	return out
}

// view takes a screenshot of the viewport: what a person sees.
func view(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	save(t, name, png)
}

func TestBrowserPlayground(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	page := m.url + "/en/settings?section=memory-test"

	// / redirects to the playground, which names its project.
	run(t, ctx, chromedp.Navigate(m.url+"/"), chromedp.WaitVisible("#text", chromedp.ByID))
	var loc string
	run(t, ctx, chromedp.Location(&loc))
	if !strings.HasSuffix(loc, "/en/settings?section=memory-test") {
		t.Errorf("/ went to %s", loc)
	}
	if got := text(t, ctx, "#project-name"); got != "atlas" {
		t.Errorf("the page names project %q, want atlas", got)
	}
	// Every organ is inside "Advanced parameters", collapsed, which says
	// nothing is set.
	var open bool
	run(t, ctx, chromedp.JavascriptAttribute("#advanced", "open", &open))
	if open {
		t.Error("advanced parameters are open by default")
	}
	for _, organ := range []string{`input[name="p.limit"]`, "#scope-1", "#add-record", "#door-photo", "#door-voice", "#door-document"} {
		if count(t, ctx, "#advanced "+organ) != 1 {
			t.Errorf("%s is not inside the collapsed block", organ)
		}
	}
	var shownOrgans int
	run(t, ctx, chromedp.Evaluate(`["#scope-1", "#door-photo", "#add-record"].filter(s => document.querySelector(s).checkVisibility()).length`, &shownOrgans))
	if shownOrgans != 0 {
		t.Errorf("%d organs show while the block is closed", shownOrgans)
	}
	if got := text(t, ctx, "#advanced-set"); got != "— none set" {
		t.Errorf("collapsed listing %q, want none set", got)
	}
	if got := text(t, ctx, "#advanced-doors"); !strings.Contains(got, "text only") || !strings.Contains(got, "photo, video, voice, document") {
		t.Errorf("the closed block does not say which inputs are closed: %q", got)
	}
	shot(t, ctx, "playground-form")
	run(t, ctx,
		chromedp.Click("#advanced summary", chromedp.ByQuery),
		chromedp.WaitVisible(`input[name="p.limit"]`, chromedp.ByQuery),
	)
	for _, d := range []string{"photo", "voice", "document"} {
		var disabled bool
		run(t, ctx, chromedp.JavascriptAttribute("#door-"+d+" button", "disabled", &disabled))
		if !disabled || !strings.Contains(text(t, ctx, "#door-"+d), "Closed: ") {
			t.Errorf("door %s is not a disabled door saying why", d)
		}
	}
	run(t, ctx,
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

	// A recall from the page: the answer is in view at once, its record
	// a table; kind, depth used and every parameter's fate.
	run(t, ctx,
		chromedp.SendKeys("#text", "what is Dima's phone", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID),
		chromedp.WaitVisible("#answer", chromedp.ByID),
	)
	if !inView(t, ctx, "#answer") {
		t.Error("after Ask memory the answer is not in the viewport")
	}
	if k := text(t, ctx, "#answer-kind"); k != "affirmative" {
		t.Errorf("kind %q, want affirmative", k)
	}
	if got := text(t, ctx, "#answer-body table.data"); !strings.Contains(got, "friends") || !strings.Contains(got, "111") {
		t.Errorf("the table answer is not a table: %q", got)
	}
	if d := text(t, ctx, "#depth-used"); d != "1" {
		t.Errorf("depth used %q, want 1", d)
	}
	for param, fate := range map[string]string{"depth": "accepted", "limit": "accepted", "chain": "accepted"} {
		if got := text(t, ctx, `#fates tr[data-param="`+param+`"] td.fate`); got != fate {
			t.Errorf("fate of %s: %q, want %s", param, got, fate)
		}
	}
	if !strings.Contains(text(t, ctx, "#chain"), "tables") || !strings.Contains(text(t, ctx, "#raw"), `"depth_used": 1`) {
		t.Error("the chain or the raw answer is missing")
	}
	if got := text(t, ctx, "#advanced-set"); got != "— set: Return the chain: yes · Items per level: 3" {
		t.Errorf("listing after the run %q", got)
	}
	if got := text(t, ctx, "#asked"); !strings.Contains(got, "what is Dima's phone") {
		t.Errorf("the answer does not repeat the question: %q", got)
	}
	if bad := overflows(t, ctx, "section.answer"); len(bad) > 0 {
		t.Errorf("the table answer spills out: %v", bad)
	}
	// At 1400 px the record's table fits whole: no column hidden behind
	// a scroll bar (its time is shown to the minute).
	var hidden float64
	run(t, ctx, chromedp.Evaluate(`(() => { const b = document.querySelector("#answer-body .scroll"); return b.scrollWidth - b.clientWidth; })()`, &hidden))
	if hidden > 1 {
		t.Errorf("%.0f px of the record's table are hidden behind its scroll bar", hidden)
	}
	view(t, ctx, "playground")

	// A text answer in Markdown: its list is a list, its table a table,
	// and no table spills out of the answer.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "airport transfer fares to the centre", chromedp.ByID),
		chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if !inView(t, ctx, "#answer") {
		t.Error("the Markdown answer is not in the viewport")
	}
	if n := count(t, ctx, "#answer-body .md ul > li"); n != 3 {
		t.Errorf("the answer's list has %d items, want 3: %q", n, text(t, ctx, "#answer-body"))
	}
	if n := count(t, ctx, "#answer-body .md table tr"); n != 3 {
		t.Errorf("the answer's table has %d rows, want 3", n)
	}
	if n := count(t, ctx, ".item .md table"); n == 0 {
		t.Error("the item's text is not rendered")
	}
	if bad := overflows(t, ctx, "section.answer"); len(bad) > 0 {
		t.Errorf("tables overflow the answer: %v", bad)
	}
	view(t, ctx, "playground-markdown")

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

	// Two scope records, the second at fault: the form names record 2,
	// the block stays open to show it, and the closed block lists both.
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "taxi pickup fee", chromedp.ByID),
		chromedp.Click("#advanced summary", chromedp.ByQuery),
		chromedp.WaitVisible("#scope-1", chromedp.ByID),
		chromedp.SendKeys(`#scope-1 input[name="scope.geo"]`, "Madrid", chromedp.ByQuery),
		chromedp.Click("#add-record", chromedp.ByID),
		chromedp.WaitVisible("#scope-2", chromedp.ByID),
	)
	if !inView(t, ctx, "#scope") {
		t.Error("after Add record the scope records are not in view")
	}
	if got := text(t, ctx, "#advanced-set"); got != "— set: scope record 1: Place Madrid" {
		t.Errorf("listing with one scope record %q", got)
	}
	run(t, ctx,
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
	if got := text(t, ctx, "#advanced-set"); got != "— set: scope record 1: Place Madrid · scope record 2: Calendar next spring" {
		t.Errorf("listing with two scope records %q", got)
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
	if got := text(t, ctx, "#advanced-set"); got != "— set: scope record 1: Place Madrid · scope record 2: Place Barcelona" {
		t.Errorf("listing after the scoped run %q", got)
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

	// An empty memory says how it fills: cygnus has none of its own.
	run(t, ctx, chromedp.Navigate(page+"&project="+project.ID(m.done)), chromedp.WaitVisible("#empty-memory", chromedp.ByID))
	if got := text(t, ctx, "#empty-memory"); !strings.Contains(got, "/cerebro:flush") || !strings.Contains(got, "remember") || !strings.Contains(got, "session") {
		t.Errorf("the empty memory's hint %q", got)
	}
	if count(t, ctx, "#empty-memory") != 1 || text(t, ctx, "#project-name") != "cygnus" {
		t.Error("the empty project's playground does not name it")
	}
	shot(t, ctx, "playground-empty")
	run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible("#text", chromedp.ByID))
	if count(t, ctx, "#empty-memory") != 0 {
		t.Error("a project with memory is called empty")
	}
}

// TestBrowserRussian: under /ru/ every page's chrome is Russian, the
// playground included; the dashboard's activity says what rollup.md says,
// in Russian.
func TestBrowserRussian(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(m.url+"/ru/settings?section=memory-test"), chromedp.WaitVisible("#text", chromedp.ByID))
	var lang string
	run(t, ctx, chromedp.Evaluate(`document.documentElement.lang`, &lang))
	if lang != "ru" {
		t.Errorf("html lang %q", lang)
	}
	for sel, want := range map[string]string{
		"h1": "Стенд памяти", "#run": "Спросить память", "header nav": "Стенд Сводка Память Граф Поиск Навыки",
		"#depth legend": "Глубина", "#advanced summary": "Расширенные параметры", "#advanced-set": "— ничего не выставлено",
	} {
		if got := strings.Join(strings.Fields(text(t, ctx, sel)), " "); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	var placeholder string
	run(t, ctx, chromedp.AttributeValue("#text", "placeholder", &placeholder, nil, chromedp.ByID))
	if placeholder != "Какой телефон у Димы?" {
		t.Errorf("placeholder %q", placeholder)
	}
	run(t, ctx,
		chromedp.Click("#advanced summary", chromedp.ByQuery),
		chromedp.WaitVisible(`input[name="p.limit"]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="p.limit"]`, "2", chromedp.ByQuery),
		chromedp.SendKeys(`#scope-1 input[name="scope.geo"]`, "Мадрид", chromedp.ByQuery),
		chromedp.Click("#advanced summary", chromedp.ByQuery),
	)
	if got := text(t, ctx, "#advanced-set"); got != "— выставлено: Элементов на уровень: 2 · запись охвата 1: Место Мадрид" {
		t.Errorf("the Russian listing %q", got)
	}
	shot(t, ctx, "playground-ru")
	run(t, ctx, chromedp.SendKeys("#text", "какой телефон у Dima", chromedp.ByID), chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if got := text(t, ctx, "#answer h2"); got != "Ответ" {
		t.Errorf("answer heading %q", got)
	}
	if got := text(t, ctx, "#report th"); got != "уровень" {
		t.Errorf("report heading %q", got)
	}
	// The language switch keeps the page.
	run(t, ctx, chromedp.Click(`header .langs a[hreflang="en"]`, chromedp.ByQuery), chromedp.WaitVisible("#text", chromedp.ByID))
	if got := text(t, ctx, "h1"); got != "Memory playground" {
		t.Errorf("after switching to English: %q", got)
	}

	run(t, ctx, chromedp.Navigate(m.url+"/ru/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	if got := text(t, ctx, "h1"); got != "Сводка организации" {
		t.Errorf("dashboard h1 %q", got)
	}
	if got := text(t, ctx, `#active tr[data-project="atlas"] td.act`); got != "свежий · сегодня" {
		t.Errorf("atlas activity in Russian %q", got)
	}
	if got := text(t, ctx, `#active tr[data-project="borealis"] td.act`); got != "⚠ устарел · 45 дней назад" {
		t.Errorf("borealis activity in Russian %q", got)
	}
	var chartText string
	run(t, ctx, chromedp.Evaluate(`document.querySelector("#activity-chart").textContent`, &chartText))
	if got := chartText; !strings.Contains(got, "эта неделя") || !strings.Contains(got, "7 недель назад") {
		t.Errorf("the chart's weeks in Russian: %q", got)
	}
	shot(t, ctx, "dashboard-ru")
	for path, h1 := range map[string]string{"/ru/memory": "Память проекта", "/ru/memory/graph": "Граф знаний", "/ru/memory/search": "Поиск по памяти", "/ru/skills": "Навыки"} {
		run(t, ctx, chromedp.Navigate(m.url+path), chromedp.WaitVisible("h1", chromedp.ByQuery))
		if got := text(t, ctx, "h1"); got != h1 {
			t.Errorf("%s: h1 %q, want %q", path, got, h1)
		}
		if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Проект atlas") {
			t.Errorf("%s does not name the project in Russian: %q", path, got)
		}
	}
}

func TestBrowserDashboardAndMemory(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)

	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	// The activity in rollup.md's words.
	if got := text(t, ctx, `#active tr[data-project="borealis"] td.act`); got != "⚠ stale · 45 days ago" {
		t.Errorf("the stale project's activity %q", got)
	}
	if got := text(t, ctx, `#active tr[data-project="atlas"] td.act`); got != "fresh · today" {
		t.Errorf("the fresh project's activity %q", got)
	}
	// Weeks are named, the last one "this week" ending today.
	var weeks []string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll("#activity-chart text.wk")).map(e => e.textContent)`, &weeks))
	now := time.Now()
	if len(weeks) != 8 || weeks[7] != "this week" || weeks[6] != "1 week ago" || weeks[0] != "7 weeks ago" {
		t.Errorf("week labels %q", weeks)
	}
	var lastDays string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll("#activity-chart text.wd")).pop().textContent`, &lastDays))
	if want := now.Format("Jan 2"); !strings.HasSuffix(lastDays, "– "+want) {
		t.Errorf("this week's days %q do not end today (%s)", lastDays, want)
	}
	if bars := count(t, ctx, "#activity-chart rect:not(.bg)"); bars != 24 {
		t.Errorf("the activity chart has %d bars, want 3 projects × 8 weeks", bars)
	}
	if got := text(t, ctx, "#completed"); !strings.Contains(got, "cygnus") || !strings.Contains(got, "Q4 case candidate") {
		t.Errorf("completed %q lacks the Q4 candidate", got)
	}
	if got := text(t, ctx, `#active tr[data-project="borealis"]`); !strings.Contains(got, "waiting for the vendor's API keys") {
		t.Errorf("the blocker is not shown: %q", got)
	}
	shot(t, ctx, "dashboard")

	// Memory: a wiki page rendered, its wikilink working, its backlink.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory"), chromedp.WaitVisible("#pages", chromedp.ByID))
	shot(t, ctx, "memory")
	run(t, ctx, chromedp.Click(`//ul[@id="pages"]//a[text()="Dima"]`), chromedp.WaitVisible("#page", chromedp.ByID))
	if got := text(t, ctx, "#page h1"); got != "Dima" {
		t.Errorf("the page's heading is not rendered: %q", got)
	}
	if got := text(t, ctx, "#meta"); !strings.Contains(got, "entity") {
		t.Errorf("the frontmatter is not shown as properties: %q", got)
	}
	run(t, ctx, chromedp.Click(`#page a.wl`, chromedp.ByQuery), chromedp.WaitVisible("#page", chromedp.ByID))
	if got := text(t, ctx, "h1"); !strings.Contains(got, "wiki/Denis.md") {
		t.Errorf("the wikilink [[Denis]] opened %q", got)
	}
	shot(t, ctx, "wiki-page")
	run(t, ctx, chromedp.Click(`//div[@id="backlinks"]//a[text()="Dima"]`), chromedp.WaitVisible("#page", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "h1"), "wiki/Dima.md") {
		t.Errorf("the backlink opened %q", text(t, ctx, "h1"))
	}
	// A note's markup is left out of the page and runs nowhere.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_long/wiki/Kremlin regiment.md")), chromedp.WaitVisible("#page", chromedp.ByID))
	var title string
	run(t, ctx, chromedp.Title(&title))
	if title == "pwned" || count(t, ctx, "#page script, #page img") != 0 {
		t.Errorf("a note's <script> reached the page (title %q)", title)
	}
	run(t, ctx, chromedp.Click("#view-source", chromedp.ByID), chromedp.WaitVisible("#lines", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "#lines"), "<script>document.title='pwned'</script>") {
		t.Error("the source view does not show the note's markup as text")
	}
	// The plan-fact page: its table a table, its fields properties.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_long/План-факт.md")), chromedp.WaitVisible("#page", chromedp.ByID))
	if n := count(t, ctx, "#page table tr"); n < 2 {
		t.Errorf("the plan-fact table has %d rows", n)
	}
	if got := text(t, ctx, "#meta"); !strings.Contains(got, "ship the playground") {
		t.Errorf("the plan-fact fields: %q", got)
	}
	if got := text(t, ctx, "#backlinks"); !strings.Contains(got, "index") {
		t.Errorf("the plan-fact page's backlinks %q", got)
	}
	shot(t, ctx, "planfact-page")
	// A daily page: its list a list, its [[Denis]] a link.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory"), chromedp.WaitVisible("#days", chromedp.ByID),
		chromedp.Click("#days a", chromedp.ByQuery), chromedp.WaitVisible("#page", chromedp.ByID))
	if n := count(t, ctx, "#page ul li"); n != 2 {
		t.Errorf("the daily page's list has %d items", n)
	}
	run(t, ctx, chromedp.Click("#page a.wl", chromedp.ByQuery), chromedp.WaitVisible("#page", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "h1"), "wiki/Denis.md") {
		t.Errorf("the daily page's wikilink opened %q", text(t, ctx, "h1"))
	}

	// Graph: drawn server-side with every link there is, pages and
	// relations' entities; the index's links to its pages included.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/graph"), chromedp.WaitVisible("#graph", chromedp.ByID))
	if nodes := count(t, ctx, "#graph g.node"); nodes < 8 {
		t.Errorf("graph has %d nodes", nodes)
	}
	if links, rels := count(t, ctx, "#graph line.lnk"), count(t, ctx, "#graph line.rel"); links < 6 || rels != 4 {
		t.Errorf("graph has %d wiki links and %d relations", links, rels)
	}
	shot(t, ctx, "graph")
	// A fresh project: its index links the pages long on wrote.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/graph?project="+project.ID(m.done)), chromedp.WaitVisible("#graph", chromedp.ByID))
	if links := count(t, ctx, "#graph line.lnk"); links < 4 {
		t.Errorf("a fresh project's graph has %d links, want the index's 4", links)
	}

	// Search: a cited result opens the file at its lines.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/search?q="+url.QueryEscape("presidential regiment")), chromedp.WaitVisible("#results", chromedp.ByID))
	shot(t, ctx, "search")
	run(t, ctx, chromedp.Click("#results a", chromedp.ByQuery), chromedp.WaitVisible(".ln.mark", chromedp.ByQuery))
	var marked string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll(".ln.mark")).map(e => e.textContent).join("\n")`, &marked))
	if got := marked; !strings.Contains(got, "presidential regiment") {
		t.Errorf("the cited lines are %q", got)
	}
}

// TestBrowserSkills: the Skills page lists the project's skills and the
// plugin's own; a skill's log, diff and a confirmed revert.
func TestBrowserSkills(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(m.url+"/en/skills"), chromedp.WaitVisible("#skills-plugin", chromedp.ByID))
	plugin := text(t, ctx, "#skills-plugin")
	entries, err := os.ReadDir(filepath.Join("..", "..", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(plugin, e.Name()) {
			t.Errorf("the plugin's skill %s is not listed: %q", e.Name(), plugin)
		}
	}
	if !strings.Contains(plugin, "the project's copy above is the one used") {
		t.Errorf("the plugin's use-tables does not say the project's copy is used: %q", plugin)
	}
	if got := text(t, ctx, "#skills-project"); !strings.Contains(got, "use-tables") {
		t.Errorf("the project's skills %q", got)
	}
	shot(t, ctx, "skills")
	// A plugin skill opens with its text, read-only: that it is the
	// plugin's, none of the checkout's history, nothing to revert.
	run(t, ctx, chromedp.Click(`//section[@id="skills-plugin"]//a[text()="use-memory"]`), chromedp.WaitVisible("#skill-text", chromedp.ByID))
	if got := text(t, ctx, "h1"); got != "Skill use-memory" {
		t.Errorf("the plugin skill's page %q", got)
	}
	if got := text(t, ctx, "#plugin-skill"); !strings.Contains(got, "read-only") {
		t.Errorf("the plugin skill's page does not say it is the plugin's, read-only: %q", got)
	}
	for _, sel := range []string{"#revert", "#confirm", "#log", "#diff", "#nolog"} {
		if n := count(t, ctx, sel); n != 0 {
			t.Errorf("the plugin skill's page shows %s", sel)
		}
	}
	shot(t, ctx, "skill-plugin")
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

// TestBrowserTwoProjects: a server started for atlas shows a registered
// project on request: the switcher lists both, the pages name the one
// shown, its memory and its playground are its own.
func TestBrowserTwoProjects(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory"), chromedp.WaitVisible("#days", chromedp.ByID))
	if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Project atlas") {
		t.Errorf("the memory page names %q", got)
	}
	atlasDays := text(t, ctx, "#days")
	run(t, ctx, chromedp.Click("#projects summary", chromedp.ByQuery), chromedp.WaitVisible("#projects .menu", chromedp.ByQuery))
	if got := text(t, ctx, "#projects .menu"); !strings.Contains(got, "atlas") || !strings.Contains(got, "borealis") || !strings.Contains(got, "cygnus") {
		t.Errorf("the switcher lists %q", got)
	}
	shot(t, ctx, "projects")
	run(t, ctx, chromedp.Click(`#projects a[data-project="`+project.ID(m.stale)+`"]`, chromedp.ByQuery), chromedp.WaitVisible("#days", chromedp.ByID))
	if got := text(t, ctx, "#project-name"); got != "borealis" {
		t.Errorf("after switching the page names %q", got)
	}
	if got := text(t, ctx, "#days"); got == atlasDays || !strings.Contains(got, time.Now().AddDate(0, 0, -45).Format("2006-01-02")) {
		t.Errorf("borealis's days are atlas's or missing: %q", got)
	}
	// Every link keeps the project: the playground asks borealis.
	run(t, ctx, chromedp.Click(`header nav a`, chromedp.ByQuery), chromedp.WaitVisible("#text", chromedp.ByID))
	if got := text(t, ctx, "#project-name"); got != "borealis" {
		t.Errorf("the playground from borealis's page names %q", got)
	}
	run(t, ctx, chromedp.SendKeys("#text", "what is Dima's phone", chromedp.ByID), chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if k := text(t, ctx, "#answer-kind"); k != "none" {
		t.Errorf("borealis answered %q from atlas's memory", k)
	}
	if got := text(t, ctx, "#project-name"); got != "borealis" {
		t.Errorf("the answer's page names %q", got)
	}
	// Back to atlas: its own answer.
	run(t, ctx, chromedp.Navigate(m.url+"/en/settings?section=memory-test"), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "what is Dima's phone", chromedp.ByID), chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if k := text(t, ctx, "#answer-kind"); k != "affirmative" {
		t.Errorf("atlas answered %q", k)
	}
}

// TestBrowserDashboardLinksMemory: each project on the dashboard links to
// its memory on this server — its memory page, its search scoped to it,
// its newest daily distillate, its wiki — and each link opens that
// project's page, not the start project's.
func TestBrowserDashboardLinksMemory(t *testing.T) {
	m := newMemory(t)
	m.start(t)
	ctx := browser(t)
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	for _, sel := range []string{`#active tr[data-project="atlas"] td.mem`, `#active tr[data-project="borealis"] td.mem`, `#completed li[data-project="cygnus"] .mem`} {
		if n := count(t, ctx, sel+" a"); n != 4 && !(strings.Contains(sel, "cygnus") && n == 3) {
			t.Errorf("%s has %d links to its memory: %q", sel, n, text(t, ctx, sel))
		}
	}
	if got := text(t, ctx, `#completed li[data-project="cygnus"] .mem`); !strings.Contains(got, "no daily distillate yet") {
		t.Errorf("a project without a day says so: %q", got)
	}
	shot(t, ctx, "dashboard-memory-links")

	// Another project's search, scoped to it: its own day is found, and
	// the page says whose memory it searches.
	run(t, ctx, chromedp.Click(`#active tr[data-project="borealis"] a.m-search`, chromedp.ByQuery), chromedp.WaitVisible("#search-form", chromedp.ByID))
	if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Project borealis") {
		t.Errorf("the search link opened %q", got)
	}
	var scope string
	run(t, ctx, chromedp.Value("#scope", &scope, chromedp.ByID))
	if scope != "project" {
		t.Errorf("the search link's scope %q, want project", scope)
	}
	run(t, ctx, chromedp.SendKeys("#q", "old work", chromedp.ByID), chromedp.Submit("#search-form", chromedp.ByID), chromedp.WaitVisible("#results", chromedp.ByID))
	if got := text(t, ctx, "#results"); !strings.Contains(got, "memory_short/daily/"+time.Now().AddDate(0, 0, -45).Format("2006-01-02")+".md") {
		t.Errorf("borealis's search does not find its newest day: %q", got)
	}
	if n := count(t, ctx, "#results .project"); n != 0 {
		t.Errorf("a search scoped to borealis labels %d results as another project's", n)
	}
	if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Project borealis") {
		t.Errorf("the search left borealis: %q", got)
	}

	// Its newest day and its wiki open in that project.
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID),
		chromedp.Click(`#active tr[data-project="borealis"] a.m-day`, chromedp.ByQuery), chromedp.WaitVisible("#page", chromedp.ByID))
	if got := text(t, ctx, "h1"); !strings.Contains(got, time.Now().AddDate(0, 0, -45).Format("2006-01-02")+".md") {
		t.Errorf("borealis's newest day opened %q", got)
	}
	if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Project borealis") {
		t.Errorf("the day link left borealis: %q", got)
	}
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID),
		chromedp.Click(`#completed li[data-project="cygnus"] a.m-wiki`, chromedp.ByQuery), chromedp.WaitVisible("#pages", chromedp.ByID))
	if got := text(t, ctx, "#where"); !strings.HasPrefix(got, "Project cygnus") {
		t.Errorf("cygnus's wiki link opened %q", got)
	}
	if n := count(t, ctx, "#pages li"); n == 0 {
		t.Error("cygnus's wiki lists no page (long on wrote its index)")
	}
	// The start project's own day link stays on the start project.
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID),
		chromedp.Click(`#active tr[data-project="atlas"] a.m-day`, chromedp.ByQuery), chromedp.WaitVisible("#page", chromedp.ByID))
	if got := text(t, ctx, "h1"); !strings.Contains(got, time.Now().Format("2006-01-02")+".md") {
		t.Errorf("atlas's newest day opened %q", got)
	}
}
