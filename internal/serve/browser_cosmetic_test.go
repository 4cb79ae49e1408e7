package serve_test

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/journal/daily"
	"github.com/cerebro-mem/cerebro/internal/search"

	"github.com/chromedp/chromedp"
)

// spills lists every element of the page whose content is wider than its
// box: a scroll bar inside the page, or text running past its border.
// Inline elements have no box of their own and are left to their block.
func spills(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return strs(t, ctx, `(() => { const bad = [];
		if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push("the page: " + document.documentElement.scrollWidth + " px wide");
		document.querySelectorAll("body *").forEach(e => {
			if (e.closest("svg") || e.matches("input, textarea, select") || getComputedStyle(e).display === "inline" || e.clientWidth === 0) return;
			if (e.scrollWidth > e.clientWidth + 1) bad.push((e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className ? "." + e.className : "")) + ": " + e.scrollWidth + " > " + e.clientWidth);
		});
		return bad; })()`)
}

// TestBrowserCosmetics: what the pages print reads as written.
//   - A 300-character unbroken string — in a wiki page's title, text,
//     list, table and frontmatter, a remembered value, the plan-fact's next
//     step and a search result — wraps inside its box on every page that
//     shows it: no element scrolls sideways, nothing runs past its border.
//   - Properties show a YAML date as the date written and a datetime to
//     the minute with its zone; an empty list says none.
//   - The plan-fact page's text matches its layout (its properties beside
//     it, not above), and an empty blockers list says none on the dashboard.
//   - Search results are the passage's text: no segment marker, no
//     Markdown syntax.
func TestBrowserCosmetics(t *testing.T) {
	m := newMemory(t)
	long := strings.Repeat("unbroken", 37) + "xxxx" // 300 characters, no break
	wiki := filepath.Join(m.root, ".claude", "memory_long", "wiki")
	write(t, filepath.Join(wiki, "Long.md"), "---\ntype: topic\ntitle: "+long+"\nsource: "+long+"\n---\n\n# Long\n\n"+long+"\n\n- "+long+"\n\n| key | value |\n| --- | --- |\n| token | "+long+" |\n\nSee [[Dima]].\n")
	write(t, filepath.Join(wiki, "Release.md"), "---\ntype: topic\ntitle: Release\ndue: 2026-12-04\nat: 2026-12-04T10:30:00+03:00\nchecked: 2026-12-04T08:15:20Z\nowners: []\n---\n\n# Release\n\nThe release train.\n")
	memhook(t, m.env, "remember", "the build token is "+long, "--table", "tokens", "--key", "build", "--kind", "token", "--value", long, "--project", m.root)
	memhook(t, m.env, "planfact", "set", "next", long, "--project", m.root)
	day := time.Now()
	write(t, filepath.Join(m.root, ".claude", "memory_short", "daily", day.Format(time.DateOnly)+".md"), daily.Header(day, "atlas")+
		daily.Render(daily.Section{Start: day.Add(-time.Hour), End: day, SessionID: "0f3c9a2e-session", Trigger: "session-end", From: 0, To: 4096, Seq: 1,
			Body: "### Asked\n\n- how does the **kafka** consumer handle lag\n\n### Learned\n\n- [[Denis]] says `max.poll.records` is 500 by default"}))
	// The org desk holds a page on the same words: memhook search finds it
	// by default, and so must the web app.
	write(t, filepath.Join(m.env["CEREBRO_HOME"], "approaches", "Kafka lag.md"), "---\ntype: approach\ntitle: Kafka lag\n---\n\n# Kafka lag\n\nWhen a kafka consumer shows lag, raise max.poll.records first.\n")
	var cli struct {
		Results []struct{ Citation string } `json:"results"`
	}
	if err := json.Unmarshal([]byte(memhook(t, m.env, "search", "--json", "--project", m.root, "kafka consumer lag")), &cli); err != nil {
		t.Fatal(err)
	}
	m.start(t)
	ctx := browser(t)

	longPage := "/en/memory/file?path=" + url.QueryEscape(".claude/memory_long/wiki/Long.md")
	pages := map[string]string{
		longPage: "#page", longPage + "&view=source": "#lines", longPage + "&from=8&to=9": "#lines",
		"/ru" + strings.TrimPrefix(longPage, "/en"):    "#page",
		"/en/memory/search?q=" + url.QueryEscape(long): "#results",
		"/en/dashboard": "#active",
		"/en/memory":    "#pages",
	}
	for path, sel := range pages {
		run(t, ctx, chromedp.Navigate(m.url+path), chromedp.WaitVisible(sel, chromedp.ByQuery))
		if !strings.Contains(text(t, ctx, "main"), long[:60]) {
			t.Errorf("%s does not show the long string", path)
		}
		if bad := spills(t, ctx); len(bad) > 0 {
			t.Errorf("%s: %d elements spill: %v", path, len(bad), bad)
		}
	}
	// Wrapping the long string breaks no word of ordinary length in a
	// table: each one-word cell of the dashboard is one line.
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	var broken []string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll("table td, table th")).filter(c => {
		const s = c.textContent.trim(); if (!s || /\s/.test(s) || s.length > 24) return false;
		const r = document.createRange(); r.selectNodeContents(c); return r.getClientRects().length > 1 && new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size > 1;
	}).map(c => c.textContent.trim())`, &broken))
	if len(broken) > 0 {
		t.Errorf("words broken inside their cells on the dashboard: %q", broken)
	}
	// The playground's answer: the remembered value in its table.
	run(t, ctx, chromedp.Navigate(m.url+"/en/settings?section=memory-test"), chromedp.WaitVisible("#text", chromedp.ByID),
		chromedp.SendKeys("#text", "what is the build token", chromedp.ByID), chromedp.Click("#run", chromedp.ByID), chromedp.WaitVisible("#answer", chromedp.ByID))
	if !strings.Contains(text(t, ctx, "#answer-body"), long[:60]) {
		t.Errorf("the answer does not hold the long value: %q", text(t, ctx, "#answer-body"))
	}
	if bad := spills(t, ctx); len(bad) > 0 {
		t.Errorf("the playground's answer: %d elements spill: %v", len(bad), bad)
	}

	// Dates as written.
	property := func(key string) string {
		var v string
		run(t, ctx, chromedp.Evaluate(`(() => { for (const r of document.querySelectorAll("#meta tr")) if (r.querySelector("th").textContent === `+strconvQuote(key)+`) return r.querySelector("td").textContent; return "(no such property)"; })()`, &v))
		return v
	}
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_long/wiki/Release.md")), chromedp.WaitVisible("#meta", chromedp.ByID))
	for key, want := range map[string]string{"due": "2026-12-04", "at": "2026-12-04 10:30 +03:00", "checked": "2026-12-04 08:15:20 UTC", "owners": "none"} {
		if got := property(key); got != want {
			t.Errorf("property %s shows %q, want %q", key, got, want)
		}
	}
	run(t, ctx, chromedp.Navigate(m.url+"/ru/memory/file?path="+url.QueryEscape(".claude/memory_long/wiki/Release.md")), chromedp.WaitVisible("#meta", chromedp.ByID))
	if got := property("owners"); got != "нет" {
		t.Errorf("an empty list under /ru/ shows %q", got)
	}
	// The plan-fact page: its date, its empty blockers, and text that
	// matches the layout.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/file?path="+url.QueryEscape(".claude/memory_long/План-факт.md")), chromedp.WaitVisible("#meta", chromedp.ByID))
	if got, want := property("updated"), time.Now().Format(time.DateOnly); got != want {
		t.Errorf("the plan-fact's updated shows %q, want %q", got, want)
	}
	if got := property("blockers"); got != "none" {
		t.Errorf("the plan-fact's empty blockers show %q", got)
	}
	if got := text(t, ctx, "#page"); strings.Contains(got, "above") || !strings.Contains(got, "properties") {
		t.Errorf("the plan-fact's text does not match its layout: %q", got)
	}
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	if got := text(t, ctx, `#active tr[data-project="atlas"] td.blockers`); got != "none" {
		t.Errorf("atlas's empty blockers on the dashboard: %q", got)
	}

	// Search: the CLI's default scope, the CLI's results, the desk's
	// labelled; each passage as text.
	run(t, ctx, chromedp.Navigate(m.url+"/en/memory/search?q="+url.QueryEscape("kafka consumer lag")), chromedp.WaitVisible("#results", chromedp.ByID))
	var scope string
	var cites, labels []string
	run(t, ctx, chromedp.Value("#scope", &scope, chromedp.ByID),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#results .cite")).map(e => e.textContent)`, &cites),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#results li")).map(e => (e.querySelector(".project") || {}).textContent || "")`, &labels))
	if scope != string(search.DefaultScope) {
		t.Errorf("the web search's default scope is %q, memhook search's %q", scope, search.DefaultScope)
	}
	var want []string
	for _, r := range cli.Results {
		want = append(want, r.Citation)
	}
	if len(want) < 2 || len(cites) < len(want) || strings.Join(cites[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("for the same words the web found\n%s\nand memhook search\n%s", strings.Join(cites, "\n"), strings.Join(want, "\n"))
	}
	desk := 0
	for i, c := range cites {
		if strings.Contains(c, "Kafka lag.md") {
			desk++
			if labels[i] != "the org desk" {
				t.Errorf("the desk's result %s is labelled %q", c, labels[i])
			}
		}
	}
	if desk != 1 {
		t.Errorf("the desk's page is among the web's results %d times: %q", desk, cites)
	}
	var snippets []string
	run(t, ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll("#results .snippet")).map(e => e.textContent)`, &snippets))
	ofDay := ""
	for _, s := range snippets {
		if strings.Contains(s, "how does the kafka consumer handle lag") {
			ofDay = s
		}
	}
	if !strings.Contains(ofDay, "• how does the kafka consumer handle lag\n") || !strings.Contains(ofDay, "Denis says max.poll.records is 500") {
		t.Errorf("the day's snippet is not its text: %q", snippets)
	}
	for _, s := range snippets {
		for _, noise := range []string{"<!--", "cerebro:segment", "**", "###", "[[", "`"} {
			if strings.Contains(s, noise) {
				t.Errorf("a snippet shows %q: %q", noise, s)
			}
		}
	}
}
