package serve_test

import (
	"context"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/serve"
)

// shown is every string a page prints for a person to read: its text
// (memory's own words, marked translate="no", and code left out) and the
// attributes a person reads or the page's script prints.
func shown(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return strs(t, ctx, `(() => { const out = [];
		const skip = e => e.closest('[translate="no"], code, script, style, head');
		const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const s = n.textContent.replace(/\s+/g, " ").trim();
			if (s && !skip(n.parentElement)) out.push(s);
		}
		for (const e of document.querySelectorAll("[placeholder], [title], [aria-label], [data-set], [data-none], [data-record], [data-yes], [data-label]")) {
			if (skip(e)) continue;
			for (const a of ["placeholder", "title", "aria-label", "data-set", "data-none", "data-record", "data-yes", "data-label"]) {
				const v = e.getAttribute(a); if (v) out.push(v.trim());
			}
		}
		return out; })()`)
}

// englishIn names the catalog's English phrases among the strings a page
// prints: a phrase the whole string is, or a phrase of several words (a
// format's fixed words among them) inside one.
type englishIn struct {
	whole map[string]bool
	parts []phrasePart
}

// phrasePart is a phrase of several words and how it is found in a text.
type phrasePart struct {
	piece string
	re    *regexp.Regexp
}

func newEnglishIn(catalog map[string]string) *englishIn {
	e := &englishIn{whole: map[string]bool{}}
	verbs := regexp.MustCompile(`%[-+# 0]*[0-9.]*[a-zA-Z%]`)
	seen := map[string]bool{}
	for en, ru := range catalog {
		if en == ru {
			continue // said the same in both
		}
		e.whole[en] = true
		for _, piece := range verbs.Split(en, -1) {
			piece = strings.Trim(piece, " :;,.()«»\"")
			if strings.Count(piece, " ") < 1 || len(piece) < 8 || seen[piece] {
				continue
			}
			seen[piece] = true
			e.parts = append(e.parts, phrasePart{piece, regexp.MustCompile(`(^|[^\pL])` + regexp.QuoteMeta(piece) + `($|[^\pL])`)})
		}
	}
	return e
}

func (e *englishIn) find(ss []string) []string {
	var out []string
	for _, s := range ss {
		if e.whole[s] {
			out = append(out, s)
			continue
		}
		for _, p := range e.parts {
			if p.re.MatchString(s) {
				out = append(out, s+"  ⟵ "+p.piece)
				break
			}
		}
	}
	return out
}

// TestBrowserRussianEverywhere walks every page under /ru/ — the
// playground asked and failing a form, the dashboard after a night pass,
// the memory browser's pages, search, the skills, an error page — and
// fails on any string of the English catalog a page prints outside
// memory's own words. The catalog is the translation's English side and
// every phrase the templates and code print (serve.EnglishUI), not a list
// written for this test.
func TestBrowserRussianEverywhere(t *testing.T) {
	m := newMemory(t)
	memhook(t, m.env, "night", "--project", m.root)
	write(t, filepath.Join(m.root, ".claude", "skills", "short-notes", "SKILL.md"), "---\nname: short-notes\ndescription: Keep every note to one line.\n---\n\nOne line a note.\n")
	m.start(t)
	ctx := browser(t)
	english := newEnglishIn(serve.EnglishUI(t))
	if len(english.whole) < 300 {
		t.Fatalf("the English catalog holds %d phrases: its extraction is broken", len(english.whole))
	}
	// The check must see what it looks for: an English page fails it.
	run(t, ctx, chromedp.Navigate(m.url+"/en/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	if found := english.find(shown(t, ctx)); len(found) < 20 {
		t.Fatalf("the English dashboard shows only %d catalog phrases: %q", len(found), found)
	}
	check := func(what string) {
		t.Helper()
		var lang string
		run(t, ctx, chromedp.Evaluate(`document.documentElement.lang`, &lang))
		if lang != "ru" {
			t.Errorf("%s: html lang %q", what, lang)
		}
		if found := english.find(shown(t, ctx)); len(found) > 0 {
			sort.Strings(found)
			t.Errorf("%s still prints English:\n  %s", what, strings.Join(found, "\n  "))
		}
	}
	file := func(rel string) string { return "/ru/memory/file?path=" + url.QueryEscape(rel) }
	pages := []struct{ path, wait string }{
		{"/ru/settings?section=memory-test", "#text"},
		{"/ru/settings?section=memory-test&project=" + project.ID(m.done), "#empty-memory"},
		{"/ru/dashboard", "#nights"},
		{"/ru/memory", "#days"},
		{file(".claude/memory_long/wiki/Dima.md"), "#page"},
		{file(".claude/memory_long/wiki/Dima.md") + "&view=source", "#lines"},
		{file(".claude/memory_long/План-факт.md"), "#meta"},
		{file(".claude/memory_long/wiki/Kremlin regiment.md") + "&from=7&to=8", "#lines"},
		{"/ru/memory/graph", "#graph"},
		{"/ru/memory/search?q=" + url.QueryEscape("presidential regiment"), "#results"},
		{"/ru/memory/search?scope=projects&q=" + url.QueryEscape("old work"), "#results"},
		{"/ru/skills", "#skills-plugin"},
		{"/ru/skills/use-tables", "#diff"},
		{"/ru/skills/use-tables?confirm=revert", "#confirm"},
		{"/ru/skills/use-memory", "#plugin-skill"},
		{file(".claude/memory_long/wiki/nowhere.md"), "#error"},
		{"/ru/memory/search?scope=galaxy", "#error"},
	}
	for _, p := range pages {
		run(t, ctx, chromedp.Navigate(m.url+p.path), chromedp.WaitVisible(p.wait, chromedp.ByQuery))
		check(p.path)
	}
	// The dashboard's counts agree with their numbers; the plan-fact's
	// status and the words a new plan-fact starts with are cerebro's, in
	// Russian; the person's own next step stays as written.
	run(t, ctx, chromedp.Navigate(m.url+"/ru/dashboard"), chromedp.WaitVisible("#active", chromedp.ByID))
	if got := text(t, ctx, "#counts"); !strings.Contains(got, "3 проекта зарегистрированы · 2 активных · 0 на паузе · 1 недавно завершён · 0 диагностик.") {
		t.Errorf("the dashboard's counts in Russian: %q", got)
	}
	for sel, want := range map[string]string{
		`#active tr[data-project="atlas"] td.plan`: "по плану", `#active tr[data-project="atlas"] td.next`: "ship the playground",
		`#active tr[data-project="borealis"] td.plan`: "заблокирован", `#active tr[data-project="borealis"] td.next`: "опишите первую веху",
		`#active tr[data-project="atlas"] td.blockers`: "нет",
	} {
		if got := text(t, ctx, sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if got := text(t, ctx, `#nights tr[data-project="atlas"] td.ran`); !strings.Contains(got, "свёртки") || strings.Contains(got, "rollups") {
		t.Errorf("the night's steps in Russian: %q", got)
	}
	// A plugin skill's description in Russian; the project's own in its
	// own words, said to be.
	run(t, ctx, chromedp.Navigate(m.url+"/ru/skills"), chromedp.WaitVisible("#skills-plugin", chromedp.ByID))
	if got := text(t, ctx, "#skills-plugin"); !strings.Contains(got, "Сохранить факт для следующих сессий") {
		t.Errorf("the plugin's skills in Russian: %q", got)
	}
	if got := text(t, ctx, "#skills-project"); !strings.Contains(got, "Keep every note to one line. (собственное описание навыка)") {
		t.Errorf("the project's skill's own description: %q", got)
	}

	// The playground's answers: a table answer with every parameter's
	// fate and the chain, a parameter-dependent one, a form error.
	ask := func(text string, actions ...chromedp.Action) {
		run(t, ctx, chromedp.Navigate(m.url+"/ru/settings?section=memory-test"), chromedp.WaitVisible("#text", chromedp.ByID),
			chromedp.Click("#advanced summary", chromedp.ByQuery), chromedp.WaitVisible(`input[name="p.limit"]`, chromedp.ByQuery))
		run(t, ctx, actions...)
		run(t, ctx, chromedp.SendKeys("#text", text, chromedp.ByID), chromedp.Click("#run", chromedp.ByID))
	}
	ask("what is Dima's phone", chromedp.SendKeys(`input[name="p.limit"]`, "3", chromedp.ByQuery), chromedp.Click(`input[name="p.chain"]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="p.thread"]`, "walk-1", chromedp.ByQuery))
	run(t, ctx, chromedp.WaitVisible("#answer", chromedp.ByID))
	check("the playground's table answer")
	if got := text(t, ctx, "#answer-kind"); got != "утвердительный" {
		t.Errorf("the answer's kind %q", got)
	}
	ask("taxi pickup fee")
	run(t, ctx, chromedp.WaitVisible("#missing", chromedp.ByID))
	check("the playground's parameter-dependent answer")
	ask("taxi pickup fee", chromedp.SendKeys(`#scope-1 input[name="scope.calendar"]`, "next spring", chromedp.ByQuery))
	run(t, ctx, chromedp.WaitVisible("#form-error", chromedp.ByID))
	check("the playground's form error")
	if got := text(t, ctx, "#form-error"); !strings.HasPrefix(got, "запись охвата 1: календарь") {
		t.Errorf("the form error in Russian: %q", got)
	}
}
