package orgvault

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// curated lays out a small vault that obeys every rule.
func curated(t *testing.T) *Vault {
	t.Helper()
	v := newVault(t)
	r := v.Root
	write(t, r, HubFile, page("moc", "active", HubName, "- [[mocs/Процессы]]\n- [[index]]", "mocs/Процессы"))
	write(t, r, "mocs/Процессы.md", page("moc", "active", "Процессы", "- [[regulations/Ретро]]\n- [[cases/Кейс A]]", HubName))
	write(t, r, "regulations/Ретро.md", page("regulation", "active", "Ретро", "Каждые две недели, 45 минут.", "mocs/Процессы"))
	write(t, r, "cases/Кейс A.md", page("case", "active", "Кейс A", "Урок: репетиция переключения экономит день.", "regulations/Ретро", "sources/Doc"))
	write(t, r, "sources/Doc.md", page("source", "active", "Doc", "Конспект.", "raw/doc.txt", "mocs/Процессы"))
	write(t, r, "raw/doc.txt", "Исходный документ.\n")
	for _, p := range []struct{ rel, typ string }{{"mocs/Процессы.md", "moc"}, {"regulations/Ретро.md", "regulation"}, {"cases/Кейс A.md", "case"}, {"sources/Doc.md", "source"}} {
		ty, _ := TypeByName(p.typ)
		if err := v.addToIndex(p.rel, ty, "проверено"); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func TestCuratedVaultLintsClean(t *testing.T) {
	v := curated(t)
	issues, err := v.Lint(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 0 {
		t.Fatalf("clean vault has findings:\n%s", strings.Join(sortedIssues(issues), "\n"))
	}
}

func lineOf(t *testing.T, root, rel, substr string) int {
	t.Helper()
	for i, l := range strings.Split(read(t, root, rel), "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	t.Fatalf("%s has no %q", rel, substr)
	return 0
}

func TestLintFindsEveryPlantedDefect(t *testing.T) {
	v := curated(t)
	r := v.Root
	addIdx := func(rel, typ string) {
		ty, _ := TypeByName(typ)
		if err := v.addToIndex(rel, ty, "x"); err != nil {
			t.Fatal(err)
		}
	}
	// Pages that break one rule each, otherwise linked and listed.
	planted := map[string]string{
		"approaches/Без шапки.md":   "# Без шапки\n\n## Связи\n\n- [[mocs/Процессы]]\n",
		"tools/Битый.md":            strings.Replace(page("tool", "active", "Битый", "x", "mocs/Процессы"), "created: 2026-11-01", "created: 30.11.2026", 1),
		"work-types/Чужой.md":       page("recipe", "active", "Чужой", "x", "mocs/Процессы"),
		"approaches/Статус.md":      page("approach", "final", "Статус", "x", "mocs/Процессы"),
		"approaches/Без связей.md":  page("approach", "active", "Без связей", "x"),
		"approaches/Сирота.md":      page("approach", "active", "Сирота", "x", "mocs/Процессы"),
		"approaches/Вне индекса.md": page("approach", "active", "Вне индекса", "x", "mocs/Процессы"),
		"mocs/Вторая карта.md":      page("moc", "active", "Вторая карта", "x", "mocs/Процессы"),
		"regulations/Старый.md":     page("regulation", "deprecated", "Старый", "x", "mocs/Процессы"),
	}
	for rel, text := range planted {
		write(t, r, rel, text)
		typ := strings.TrimSuffix(strings.Split(rel, "/")[0], "s")
		if typ == "work-type" || rel == "work-types/Чужой.md" {
			typ = "work-type"
		}
		if rel != "approaches/Вне индекса.md" {
			addIdx(rel, typ)
		}
	}
	links := "\n- [[approaches/Без шапки]] [[tools/Битый]] [[work-types/Чужой]] [[approaches/Статус]] [[approaches/Без связей]] [[approaches/Вне индекса]] [[mocs/Вторая карта]]\n"
	moc := read(t, r, "mocs/Процессы.md")
	write(t, r, "mocs/Процессы.md", strings.Replace(moc, "\n\n## Связи", links+"\n## Связи", 1))
	caseText := read(t, r, "cases/Кейс A.md")
	caseText = strings.Replace(caseText, "Урок:", "См. [[Нет такой страницы]] и [[.trash/cases/Old]].\nУстаревший: [[regulations/Старый]]\nЗаменено: [[regulations/Старый]] больше не действует.\nКонтакт ivan.petrov@yandex.ru\nУрок:", 1)
	write(t, r, "cases/Кейс A.md", caseText)
	write(t, r, "regulations/Ретро.md", strings.Replace(read(t, r, "regulations/Ретро.md"), "45 минут.", "45 минут.\npassword=Tr0ub4dor&3", 1))
	write(t, r, IndexFile, read(t, r, IndexFile)+"- [[cases/Пропавший]]\n")
	write(t, r, "raw/lonely.txt", "никто не описал\n")
	write(t, r, "attachments/big.bin", strings.Repeat("\x00", 2000))
	write(t, r, "raw/_large/ok.bin", strings.Repeat("\x00", 2000))
	write(t, r, "sources/Big.md", strings.Replace(page("source", "active", "Big", "x", "raw/_large/ok.bin", "mocs/Процессы"), "raw/doc.txt", "raw/_large/ok.bin", 1))
	addIdx("sources/Big.md", "source")
	write(t, r, "mocs/Процессы.md", strings.Replace(read(t, r, "mocs/Процессы.md"), "## Связи", "[[sources/Big]]\n\n## Связи", 1))

	issues, err := (&Vault{Root: r}).Lint(1000)
	if err != nil {
		t.Fatal(err)
	}
	c := "cases/Кейс A.md"
	want := []string{
		c + ":" + strconv.Itoa(lineOf(t, r, c, "Нет такой")) + ":broken-link",
		c + ":" + strconv.Itoa(lineOf(t, r, c, "Нет такой")) + ":trash-link",
		c + ":" + strconv.Itoa(lineOf(t, r, c, "Устаревший")) + ":deprecated-link",
		c + ":" + strconv.Itoa(lineOf(t, r, c, "ivan.petrov")) + ":pii",
		"regulations/Ретро.md:" + strconv.Itoa(lineOf(t, r, "regulations/Ретро.md", "password")) + ":secret",
		"approaches/Без шапки.md:1:missing-frontmatter",
		"tools/Битый.md:1:invalid-frontmatter",
		"work-types/Чужой.md:1:unknown-type",
		"approaches/Статус.md:1:bad-status",
		"approaches/Без связей.md:" + strconv.Itoa(lineOf(t, r, "approaches/Без связей.md", "## Связи")) + ":missing-links-section",
		"approaches/Сирота.md:1:orphan",
		"approaches/Вне индекса.md:1:index-drift",
		"index.md:" + strconv.Itoa(lineOf(t, r, IndexFile, "Пропавший")) + ":index-drift",
		"mocs/Вторая карта.md:1:hub-drift",
		"raw/lonely.txt:0:raw-unsourced",
		"attachments/big.bin:0:large-file",
	}
	sort.Strings(want)
	if got := sortedIssues(issues); !reflect.DeepEqual(got, want) {
		t.Fatalf("lint findings\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	for _, is := range issues {
		if is.Severity != Rules[is.Rule] || is.Message == "" {
			t.Errorf("issue %+v lacks severity or message", is)
		}
		if strings.Contains(is.Message, "Tr0ub4dor") || strings.Contains(is.Message, "ivan.petrov@") {
			t.Errorf("issue message leaks the value: %s", is.Message)
		}
	}
	data, _ := json.Marshal(issues[0])
	for _, k := range []string{`"file"`, `"line"`, `"rule"`, `"message"`, `"severity"`} {
		if !strings.Contains(string(data), k) {
			t.Fatalf("JSON %s lacks %s", data, k)
		}
	}
}

func TestTemplatesAreNotLinted(t *testing.T) {
	v := newVault(t)
	if _, err := os.Stat(filepath.Join(v.Root, TemplatesDir, "moc.md")); err != nil {
		t.Fatal(err)
	}
	issues, _ := v.Lint(0)
	for _, is := range issues {
		if strings.HasPrefix(is.File, TemplatesDir) {
			t.Fatalf("template linted: %+v", is)
		}
	}
}
