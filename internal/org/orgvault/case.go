package orgvault

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/planfact"
	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// lessonHeading marks a section of project memory worth carrying over.
var lessonHeading = lazyregexp.New(`(?i)(урок|вывод|lesson|learned|итог|ретро|retro)`)
var decisionHeading = lazyregexp.New(`(?i)(решени|решили|decision|decided|adr)`)

// item is one line of project memory with its origin.
type item struct {
	File string // relative to the project's memory_long
	Line int
	Text string
}

func (v *Vault) ingestCase(root, name string, opts IngestOptions) (*IngestResult, error) {
	layout := project.Layout{Root: root}
	long := layout.LongDir()
	if _, err := os.Stat(long); err != nil {
		return nil, fmt.Errorf("read long-term memory of %s: %w", root, err)
	}
	if name == "" {
		name = filepath.Base(root)
	}
	var context []item
	if data, err := safefs.ReadNote(layout.PlanFact(), v.NoteBytes); err == nil {
		pf, _ := planfact.Parse(data)
		if pf != nil {
			if pf.Project != "" && name == filepath.Base(root) {
				name = pf.Project
			}
			for _, kv := range [][2]string{{"Этап", pf.Stage}, {"Статус", pf.Status}, {"План", pf.PlanStatus}, {"Итог", pf.Summary}, {"Дальше", pf.Next}} {
				if kv[1] != "" {
					context = append(context, item{File: planfact.FileName, Line: 1, Text: kv[0] + ": " + kv[1]})
				}
			}
		}
	}
	lessons, decisions, err := collectLessons(long, v.NoteBytes)
	if err != nil {
		return nil, err
	}
	res := &IngestResult{}
	var found []Located
	for _, list := range [][]item{context, lessons, decisions} {
		for i := range list {
			fs := secrets.Scan(list[i].Text)
			for _, f := range fs {
				f.Line += list[i].Line - 1
				found = append(found, Located{File: filepath.ToSlash(filepath.Join(".claude", "memory_long", list[i].File)), Finding: f})
			}
			if len(fs) > 0 && opts.Redact {
				list[i].Text = secrets.Redact(list[i].Text, fs)
			}
		}
	}
	if len(found) > 0 && !opts.Redact {
		return nil, &RefusedError{Findings: found}
	}
	res.Redacted = len(found)
	t, _ := TypeByName("case")
	title := "Кейс — " + name
	rel := t.Folder + "/" + safeName(title) + ".md"
	res.Page = rel
	if err := writeNew(v.abs(rel), casePage(title, root, context, lessons, decisions, opts)); err != nil {
		return nil, err
	}
	if err := v.addToIndex(rel, t, "черновик из проекта "+name); err != nil {
		return nil, err
	}
	detail := fmt.Sprintf("case from %s → [[%s]]", root, pageLink(rel))
	if res.Redacted > 0 {
		detail += fmt.Sprintf(" (redacted %d)", res.Redacted)
	}
	if res.Commit, err = v.record(opts.Now, "ingest", detail, rel, IndexFile); err != nil {
		return nil, err
	}
	return res, nil
}

// collectLessons reads the lines under lesson and decision headings of
// every wiki page (wiki/ and wiki/_private/), and whole pages whose type
// is lesson or decision.
func collectLessons(long string, noteBytes int64) (lessons, decisions []item, err error) {
	dir := filepath.Join(long, "wiki")
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return fs.SkipAll // no wiki yet
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := safefs.ReadNote(p, noteBytes)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(long, p)
		rel = filepath.ToSlash(rel)
		pg := wiki.ParsePage(rel, data)
		typ := strings.ToLower(pg.Type)
		if typ == "lesson" || typ == "урок" || typ == "decision" || typ == "решение" {
			into := &decisions
			if typ == "lesson" || typ == "урок" {
				into = &lessons
			}
			for i, text := range contentLines(pg, 3) {
				if i == 0 {
					text.Text = pg.Title + ": " + text.Text
				}
				text.File = rel
				*into = append(*into, text)
			}
			return nil
		}
		var into *[]item
		for i, line := range strings.Split(pg.Body, "\n") {
			if strings.HasPrefix(line, "#") {
				switch {
				case lessonHeading.MatchString(line):
					into = &lessons
				case decisionHeading.MatchString(line):
					into = &decisions
				default:
					into = nil
				}
				continue
			}
			text := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*+ "))
			if into != nil && text != "" {
				*into = append(*into, item{File: rel, Line: pg.BodyLine + i, Text: text})
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read project wiki %s: %w", dir, err)
	}
	return lessons, decisions, nil
}

// contentLines returns up to n lines of a page's prose: no headings, no
// HTML comments, no blank lines.
func contentLines(pg *wiki.Page, n int) []item {
	var out []item
	for i, l := range strings.Split(pg.Body, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*+ "))
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "<!--") {
			continue
		}
		out = append(out, item{Line: pg.BodyLine + i, Text: l})
		if len(out) == n {
			break
		}
	}
	return out
}

func casePage(title, root string, context, lessons, decisions []item, opts IngestOptions) string {
	day := opts.Now.Format(time.DateOnly)
	m := meta{Type: "case", Status: "draft", Title: title, Created: day, Updated: day, Tags: []string{"case"}, Project: root}
	var b strings.Builder
	b.WriteString(m.render())
	fmt.Fprintf(&b, "\n# %s\n\n> Черновик из долгосрочной памяти проекта (%s). Оставьте обобщаемые уроки и решения, уберите частное, допишите связи и смените status на active.\n", title, day)
	section := func(h string, items []item, empty string) {
		fmt.Fprintf(&b, "\n## %s\n\n", h)
		if len(items) == 0 {
			b.WriteString("- " + empty + "\n")
		}
		for _, it := range items {
			fmt.Fprintf(&b, "- %s <!-- %s:%d -->\n", strings.ReplaceAll(it.Text, "[[", "[ ["), it.File, it.Line)
		}
	}
	section("Контекст", context, "План-факт не найден")
	section("Уроки", lessons, "уроков в памяти проекта не найдено — допишите")
	section("Решения", decisions, "—")
	fmt.Fprintf(&b, "\n## Проект\n\n- Путь: `%s`\n- [Открыть память проекта](%s)\n", root, fileURL(filepath.Join(root, ".claude", "memory_long")))
	fmt.Fprintf(&b, "\n## %s\n\n- [[%s]]\n", LinksHeading, HubName)
	return b.String()
}

func fileURL(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + strings.ReplaceAll(p, " ", "%20")
}
