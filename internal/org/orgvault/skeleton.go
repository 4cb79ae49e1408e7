package orgvault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// ignoreText is the vault's .gitignore: the desk's private folder never
// leaves the machine. A sync never takes a remote's .gitignore
// ([gitrepo.Kind]); each desk keeps this one.
const ignoreText = "# The desk's private memory (registry, rollup, dialogue) never leaves this machine.\n" + privateLine + "\n*.lock\n.obsidian/workspace*.json\n.DS_Store\n"

// privateLine is the .gitignore line that keeps the desk's private folder
// out of a person's commits.
const privateLine = ".claude/"

// InitResult tells what [Init] did.
type InitResult struct {
	Root    string   `json:"root"`
	Created []string `json:"created"` // paths laid out now; existing ones are kept as they are
	Commit  string   `json:"commit,omitempty"`
}

// Init lays out the vault at root and makes it a git repository. It is
// idempotent: files that exist (edited or not) are never overwritten.
func Init(root string, now time.Time) (*InitResult, error) {
	repo, err := gitrepo.Init(root)
	if err != nil {
		return nil, fmt.Errorf("create the vault's repository: %w", err)
	}
	day := now.Format(time.DateOnly)
	files := map[string]string{
		SchemaFile:                schemaText(),
		IndexFile:                 indexText(),
		HubFile:                   hubText(day),
		LogFile:                   "# Журнал оргзнания\n\nОдна строка на изменение: время · действие · что. Пишет memhook; не правьте прошлые строки.\n\n",
		".gitignore":              ignoreText,
		RawDir + "/.gitkeep":      "",
		RawLargeDir + "/.gitkeep": "",
		TrashDir + "/.gitkeep":    "",
	}
	for _, t := range Types {
		files[TemplatesDir+"/"+t.Name+".md"] = templateText(t)
	}
	res := &InitResult{Root: root}
	for _, rel := range sortedKeys(files) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Lstat(p); err == nil {
			continue
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("check %s: %w", rel, err)
		}
		if err := safefs.MkdirAll(filepath.Dir(p)); err != nil {
			return nil, fmt.Errorf("create %s: %w", filepath.Dir(rel), err)
		}
		if err := atomicfile.Write(p, []byte(files[rel]), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", rel, err)
		}
		res.Created = append(res.Created, rel)
	}
	if len(res.Created) == 0 {
		return res, nil
	}
	v := &Vault{Root: root, repo: repo}
	h, err := v.record(now, "init", fmt.Sprintf("laid out %d files", len(res.Created)), res.Created...)
	if err != nil {
		return nil, err
	}
	res.Commit = h
	return res, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func schemaText() string {
	var b strings.Builder
	b.WriteString(`# SCHEMA — правила оргзнания

Этот файл — для модели и человека, которые курируют страницы хранилища.
Хранилище — шарибельная институциональная память организации: его можно
открыть как Obsidian-vault и отправить команде через git remote. Движок
сюда ничего не пишет сам: страницы появляются черновиками через
` + "`/cerebro:org_ingest`" + ` и доводятся человеком вместе с моделью.

## Структура

- ` + "`SCHEMA.md`" + ` — эти правила.
- ` + "`index.md`" + ` — каталог: каждая страница упомянута ровно один раз ссылкой
  ` + "`[[папка/Имя]]`" + ` в разделе своего типа, с короткой пометкой.
- ` + "`Карта оргзнания.md`" + ` — хаб (type: moc): ссылается на каждую карту (moc)
  и на главные страницы; с неё начинается навигация.
- ` + "`raw/`" + ` — исходные файлы как есть (неизменяемые); крупнее порога
  ` + "`org.raw_large_bytes`" + ` — в ` + "`raw/_large/`" + `. У каждого файла есть страница source.
- ` + "`log.md`" + ` — журнал изменений (пишет memhook, только дописывается).
- ` + "`.trash/`" + ` — удалённые страницы (` + "`memhook org rm`" + ` переносит, не стирает).
- ` + "`_templates/<тип>.md`" + ` — шаблоны страниц; линтер их не проверяет.

## Типы страниц

| type | по-русски | папка | что внутри |
| --- | --- | --- | --- |
`)
	for _, t := range Types {
		fmt.Fprintf(&b, "| `%s` | %s | `%s/` | %s |\n", t.Name, t.Gloss, t.Folder, t.About)
	}
	b.WriteString(`
## Frontmatter (обязателен на каждой странице)

` + "```yaml" + `
type: case            # один из семи типов выше
status: draft         # draft | active | deprecated
title: "Кейс — Проект X"
created: 2026-11-30   # ГГГГ-ММ-ДД
updated: 2026-11-30
tags: [case]
raw: raw/file.pdf     # только для source: путь к файлу в raw/
` + "```" + `

- draft — черновик, ещё не проверен человеком; active — проверено и
  действует; deprecated — устарело: в теле укажите «заменено» и ссылку
  на замену.
- При правке меняйте ` + "`updated`" + `.

## Раздел «## Связи» (обязателен)

Каждая страница заканчивается разделом ` + "`## Связи`" + ` (на странице по-английски —
` + "`## Links`" + `) с хотя бы одной
` + "`[[ссылкой]]`" + ` на другую страницу (карту, смежный кейс, регламент,
источник). Ссылки — путь от корня без .md: ` + "`[[cases/Кейс — Проект X]]`" + `.
Ссылка на устаревшую страницу из действующей допустима только со словами
«устарело», «заменено», «deprecated», «replaced by» в той же строке.

## Чего здесь быть не должно

- Секретов: ключей API, токенов, паролей, приватных ключей, строк
  подключения с паролем.
- Персональных данных: e-mail, телефонов, номеров карт, паспортов, ИНН,
  СНИЛС людей. Пишите роли («руководитель проекта»), а не контакты.
- Роллапа, реестра проектов, дистиллятов диалогов — они приватны.

` + "`memhook org ingest`" + ` отказывается принимать такое содержимое (или
заменяет находки маркерами ` + "`[REDACTED:вид]`" + ` с ` + "`--redact`" + `), а
` + "`memhook org lint`" + ` находит их с файлом и строкой.

## Как курировать черновик

1. Прочитайте черновик и его источник (файл в raw/ или проект по пути).
2. Оставьте обобщаемое: уроки, решения, приёмы; уберите частное и лишнее.
3. Допишите ` + "`## Связи`" + `: карта темы, похожие кейсы, регламенты, инструменты.
4. Смените ` + "`status`" + ` на active и обновите ` + "`updated`" + `; при необходимости
   добавьте страницу в карту (moc) и проверьте пометку в ` + "`index.md`" + `.
5. Запустите ` + "`/cerebro:org_lint`" + ` и исправьте найденное.
`)
	return b.String()
}

func indexText() string {
	var b strings.Builder
	b.WriteString("# Индекс оргзнания\n\nКаталог всех страниц по типам: одна строка на страницу. memhook дописывает сюда новые черновики и убирает удалённые; пометки после ссылки — ваши.\n")
	for _, t := range Types {
		fmt.Fprintf(&b, "\n## %s (%s)\n", t.Plural, t.Name)
		if t.Name == "moc" {
			fmt.Fprintf(&b, "\n- [[%s]] — хаб, начало навигации\n", HubName)
		}
	}
	return b.String()
}

func hubText(day string) string {
	return fmt.Sprintf(`---
type: moc
status: active
title: %s
created: %s
updated: %s
tags: [moc, hub]
---

# %s

Хаб организационного знания: отсюда начинается навигация. Ссылайтесь здесь
на каждую карту (moc) и на главные страницы разделов.

## Разделы

- Каталог всех страниц — [[index]]
- Правила хранилища — [[SCHEMA]]

## %s

- [[index]]
`, HubName, day, day, HubName, LinksHeading)
}

func templateText(t PageType) string {
	extra := ""
	if t.Name == "source" {
		extra = "raw: raw/{{file}}\n"
	}
	return fmt.Sprintf(`---
type: %s
status: draft
title: "{{title}}"
created: {{date}}
updated: {{date}}
tags: [%s]
%s---

# {{title}}

<!-- %s: %s -->

## %s

- [[%s]]
`, t.Name, t.Name, extra, t.Gloss, t.About, LinksHeading, HubName)
}
