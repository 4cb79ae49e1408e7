// Package orgvault is the organisation's knowledge vault (Q4): the
// shareable wiki at $CEREBRO_HOME, curated by a person with the model's
// help and never a place for secrets or personal data.
//
// [Init] lays out the skeleton (SCHEMA.md, index.md, the hub, raw/, log.md,
// .trash/, templates) in a git repository; [Open] opens an initialised
// vault. A [Vault] ingests files and project cases as draft pages
// ([Vault.IngestFile], [Vault.IngestCase]) after a scan by
// internal/text/secrets, names the pages a search of its root found and
// adds the pages they link to ([Vault.AnswerFrom]), checks itself
// ([Vault.Lint]) and moves pages to .trash/ ([Vault.Trash]). Every change appends log.md and is committed.
package orgvault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
)

// The vault's structural files and folders.
const (
	SchemaFile   = "SCHEMA.md"
	IndexFile    = "index.md"
	HubFile      = "Карта оргзнания.md"
	HubName      = "Карта оргзнания"
	LogFile      = "log.md"
	RawDir       = rawfile.Dir
	RawLargeDir  = rawfile.LargeDir
	TrashDir     = ".trash"
	TemplatesDir = "_templates"
	LinksHeading = "Связи"
	// LinksHeadingEn is the same section in a page written in English (a
	// draft of an English file).
	LinksHeadingEn = "Links"
)

// PageType is one of the seven kinds of page.
type PageType struct {
	Name   string // frontmatter value
	Gloss  string // the Russian name
	Folder string // where new pages of the type go
	Plural string // the index.md section heading
	About  string // what a page of the type holds
}

// Types are the seven page types, in index order.
var Types = []PageType{
	{"case", "кейс", "cases", "Кейсы", "история проекта с уроками: контекст, что сделали, что вышло, чему научились"},
	{"regulation", "регламент", "regulations", "Регламенты", "как устроен рабочий процесс: кто, когда, в каком порядке, с каким результатом"},
	{"approach", "подход", "approaches", "Подходы", "методологический приём или плейбук «как мы это делаем»"},
	{"tool", "инструмент", "tools", "Инструменты", "каталожная страница-указатель на инструмент (не интеграция): зачем, где, кто владелец"},
	{"work-type", "тип-работ", "work-types", "Типы работ", "класс задач или проектов и их типовой результат"},
	{"moc", "карта", "mocs", "Карты", "карта-хаб (map of content), собирающая страницы темы"},
	{"source", "источник", "sources", "Источники", "конспект файла из raw/ (статьи, заметки, документы)"},
}

// Statuses a page may have.
var Statuses = []string{"draft", "active", "deprecated"}

// TypeByName finds a page type.
func TypeByName(name string) (PageType, bool) {
	for _, t := range Types {
		if t.Name == name {
			return t, true
		}
	}
	return PageType{}, false
}

// NotInitializedError means no vault is laid out at the root yet.
type NotInitializedError struct{ Root string }

func (e *NotInitializedError) Error() string {
	return fmt.Sprintf("no org vault at %s", e.Root)
}

// Hint tells the person how to create one.
func (e *NotInitializedError) Hint() string {
	return "run `memhook org init` to create it (CEREBRO_HOME chooses where)"
}

// Vault is an initialised org vault.
type Vault struct {
	Root string
	// NoteBytes bounds every note read: the desk's limits.note_bytes
	// (0: safefs.DefaultNoteBytes).
	NoteBytes int64
	repo      *gitrepo.Repo
}

// Open opens the vault at root, which [Init] must have laid out.
func Open(root string) (*Vault, error) {
	if _, err := os.Stat(filepath.Join(root, SchemaFile)); err != nil {
		return nil, &NotInitializedError{Root: root}
	}
	repo, err := gitrepo.Init(root)
	if err != nil {
		return nil, fmt.Errorf("open the vault's repository: %w", err)
	}
	return &Vault{Root: root, repo: repo}, nil
}

// Repo is the vault's git repository.
func (v *Vault) Repo() *gitrepo.Repo { return v.repo }

func (v *Vault) abs(rel string) string { return filepath.Join(v.Root, filepath.FromSlash(rel)) }

// record appends a line to log.md and commits it with the changed paths
// (relative to the root), returning the commit hash ("" when nothing
// changed).
func (v *Vault) record(now time.Time, action, detail string, paths ...string) (string, error) {
	line := fmt.Sprintf("- %s · %s · %s\n", now.Format("2006-01-02 15:04"), action, detail)
	if err := atomicfile.AppendUnlocked(v.abs(LogFile), []byte(line), 0o644); err != nil {
		return "", fmt.Errorf("append %s: %w", LogFile, err)
	}
	msg := fmt.Sprintf("org %s: %s", action, detail)
	h, err := v.repo.CommitPaths(append(paths, LogFile), msg, now)
	if errors.Is(err, gitrepo.ErrNothingToCommit) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", action, err)
	}
	return h, nil
}

// pageLink is how the vault links a page: its path without .md.
func pageLink(rel string) string { return strings.TrimSuffix(rel, ".md") }

// safeName makes a page or file name from free text: no path separators
// or characters Obsidian refuses in names.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|#^[]`, r) || r < 32 {
			return '-'
		}
		return r
	}, strings.TrimSpace(s))
	if s == "" || s == "." || s == ".." {
		s = "untitled"
	}
	return s
}

// locked runs a change under the vault's lock, so that two sessions
// ingesting at once do not interleave their index.md, log.md and commits.
// The lock file sits inside .git, out of the vault and of its history.
func locked[T any](v *Vault, fn func() (T, error)) (T, error) {
	var out T
	err := atomicfile.WithLock(filepath.Join(v.Root, ".git", "cerebro-org"), func() error {
		var err error
		out, err = fn()
		return err
	})
	return out, err
}

// IngestFile stores a file in raw/ (raw/_large/ when large) and drafts a
// source page for it.
func (v *Vault) IngestFile(src string, opts IngestOptions) (*IngestResult, error) {
	return locked(v, func() (*IngestResult, error) { return v.ingestFile(src, opts) })
}

// IngestCase drafts a case page from the long-term memory of the project
// at root (name: its display name, "" for the plan-fact's or the folder's):
// its plan-fact context, lessons and decisions, with a link back.
func (v *Vault) IngestCase(root, name string, opts IngestOptions) (*IngestResult, error) {
	return locked(v, func() (*IngestResult, error) { return v.ingestCase(root, name, opts) })
}

// Trash moves a page (named by path or by name, as a link would) to
// .trash/ under the same path, drops it from index.md, logs and commits.
// Nothing is ever deleted.
func (v *Vault) Trash(target string, now time.Time) (*TrashResult, error) {
	return locked(v, func() (*TrashResult, error) { return v.trash(target, now) })
}
