package orgvault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestIngestRefusesSecretsWithPlaces(t *testing.T) {
	v := newVault(t)
	src := filepath.Join(t.TempDir(), "notes.md")
	os.WriteFile(src, []byte("Ретро\nконтакт: ivan.petrov@yandex.ru\npassword=Tr0ub4dor&3\n"), 0o644)
	before := len(commits(t, v))
	_, err := v.IngestFile(src, IngestOptions{Now: now})
	var ref *RefusedError
	if !errors.As(err, &ref) {
		t.Fatalf("IngestFile = %v, want a refusal", err)
	}
	msg := err.Error()
	for _, want := range []string{"notes.md:2:10 email (pii)", "notes.md:3:10 password (secret)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "Tr0ub4dor") || strings.Contains(msg, "petrov@") {
		t.Fatalf("refusal leaks a value:\n%s", msg)
	}
	if _, err := os.Stat(filepath.Join(v.Root, "raw", "notes.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused file was stored")
	}
	if len(commits(t, v)) != before {
		t.Fatal("a refused ingest committed")
	}
}

func TestIngestRedactsLogsAndCommits(t *testing.T) {
	v := newVault(t)
	src := filepath.Join(t.TempDir(), "notes.md")
	os.WriteFile(src, []byte("Ретро\nконтакт: ivan.petrov@yandex.ru\npassword=Tr0ub4dor&3\n"), 0o644)
	res, err := v.IngestFile(src, IngestOptions{Redact: true, Now: now, LargeBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Redacted != 2 || res.Raw != "raw/notes.md" || res.Page != "sources/notes.md" || res.Commit == "" {
		t.Fatalf("result %+v", res)
	}
	raw := read(t, v.Root, res.Raw)
	if raw != "Ретро\nконтакт: [REDACTED:email]\npassword=[REDACTED:password]\n" {
		t.Fatalf("stored %q", raw)
	}
	pg := read(t, v.Root, res.Page)
	for _, want := range []string{"type: source", "status: draft", "raw: raw/notes.md", "## Связи", "[[raw/notes.md]]"} {
		if !strings.Contains(pg, want) {
			t.Errorf("source page lacks %q:\n%s", want, pg)
		}
	}
	if !strings.Contains(read(t, v.Root, IndexFile), "[[sources/notes]]") {
		t.Error("index.md does not list the draft")
	}
	if !strings.Contains(read(t, v.Root, LogFile), "ingest · raw/notes.md → [[sources/notes]] (redacted 2)") {
		t.Errorf("log.md:\n%s", read(t, v.Root, LogFile))
	}
	log, _ := v.Repo().Log(res.Page, 0)
	if len(log) != 1 || log[0].Hash != res.Commit || !strings.HasPrefix(log[0].Message, "org ingest:") {
		t.Fatalf("page history %+v", log)
	}
	// The same file again changes nothing.
	again, err := v.IngestFile(src, IngestOptions{Redact: true, Now: now})
	if err != nil || !again.Existed || again.Commit != "" {
		t.Fatalf("re-ingest = %+v, %v", again, err)
	}
	// The draft itself passes the rules except being an orphan.
	issues, _ := v.Lint(1 << 20)
	for _, is := range issues {
		if is.Rule != "orphan" {
			t.Errorf("fresh draft: %+v", is)
		}
	}
}

func TestIngestLargeAndBinary(t *testing.T) {
	v := newVault(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "scan.pdf")
	os.WriteFile(big, append([]byte("%PDF\x00"), make([]byte, 3000)...), 0o644)
	res, err := v.IngestFile(big, IngestOptions{Now: now, LargeBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Raw != "raw/_large/scan.pdf" {
		t.Fatalf("large file stored at %s", res.Raw)
	}
	// Another file of the same name keeps both.
	other := filepath.Join(t.TempDir(), "scan.pdf")
	os.WriteFile(other, append([]byte("%PDF\x00"), make([]byte, 3001)...), 0o644)
	if res2, err := v.IngestFile(other, IngestOptions{Now: now, LargeBytes: 1000}); err != nil || res2.Raw != "raw/_large/scan-2.pdf" || res2.Existed {
		t.Fatalf("second scan.pdf: %+v %v", res2, err)
	}
	if again, err := v.IngestFile(big, IngestOptions{Now: now, LargeBytes: 1000}); err != nil || !again.Existed || again.Raw != res.Raw {
		t.Fatalf("same scan.pdf again: %+v %v", again, err)
	}
	leaky := filepath.Join(dir, "dump.bin")
	os.WriteFile(leaky, []byte("\x00\x01 token: AKIAQZ7ABCDEFGHIJKLM \x00"), 0o644)
	if _, err := v.IngestFile(leaky, IngestOptions{Now: now}); !errors.As(err, new(*RefusedError)) {
		t.Fatalf("binary with a key: %v", err)
	}
	if _, err := v.IngestFile(leaky, IngestOptions{Now: now, Redact: true}); err == nil || !strings.Contains(err.Error(), "cannot be redacted") {
		t.Fatalf("binary redaction: %v", err)
	}
}

func TestIngestCase(t *testing.T) {
	v := newVault(t)
	proj := t.TempDir()
	long := filepath.Join(proj, ".claude", "memory_long")
	write(t, long, "План-факт.md", "---\ntype: plan-fact\nproject: Миграция CRM\nstage: релиз\nplan_status: on-track\nstatus: completed\nnext: ретро\nblockers: []\nsummary: Перенесли CRM без простоя\nupdated: 2026-11-20\n---\n")
	write(t, long, "wiki/migration.md", "---\ntype: topic\n---\n# Миграция\n\n## Уроки\n- Репетиция переключения сэкономила день.\n\n## Решения\n- Blue-green вместо in-place.\n\n## Прочее\n- не урок\n")
	write(t, long, "wiki/_private/2026-W47.md", "---\ntype: digest\n---\n# Неделя 47\n\n### Decided\n- Use Postgres for the queue.\n### Open\n- not carried\n")
	write(t, long, "wiki/_private/access.md", "---\ntype: lesson\ntitle: Доступы\n---\nДоступ давал Иван, тел. 8 916 555 12 34.\n")

	_, err := v.IngestCase(proj, "", IngestOptions{Now: now})
	var ref *RefusedError
	if !errors.As(err, &ref) || len(ref.Findings) != 1 || ref.Findings[0].File != ".claude/memory_long/wiki/_private/access.md" || ref.Findings[0].Line != 5 || ref.Findings[0].Kind != "phone" {
		t.Fatalf("IngestCase = %v, want one phone refusal at access.md:5", err)
	}
	res, err := v.IngestCase(proj, "", IngestOptions{Now: now, Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Page != "cases/Кейс — Миграция CRM.md" || res.Redacted != 1 || res.Commit == "" {
		t.Fatalf("result %+v", res)
	}
	pg := read(t, v.Root, res.Page)
	for _, want := range []string{"type: case", "status: draft", "Репетиция переключения", "Blue-green", "Use Postgres for the queue. <!-- wiki/_private/2026-W47.md:7 -->", "Итог: Перенесли CRM", "[REDACTED:phone]", "project: " + proj, "## Связи", "file://"} {
		if !strings.Contains(pg, want) {
			t.Errorf("case page lacks %q:\n%s", want, pg)
		}
	}
	if strings.Contains(pg, "не урок") || strings.Contains(pg, "not carried") || strings.Contains(pg, "555 12 34") {
		t.Errorf("case page carries what it should not:\n%s", pg)
	}
	if _, err := v.IngestCase(proj, "", IngestOptions{Now: now, Redact: true}); err == nil {
		t.Fatal("a second case ingest overwrote the curated page")
	}
}

// A small and a large file of the same name each get their own source
// page: the page is named after the stored file, so a name used in raw/
// is taken in raw/_large/ too.
func TestIngestSameNameSmallAndLarge(t *testing.T) {
	v := newVault(t)
	small := filepath.Join(t.TempDir(), "notes.txt")
	testfile.Write(t, small, "a few notes\n")
	large := filepath.Join(t.TempDir(), "notes.txt")
	testfile.Write(t, large, strings.Repeat("many notes\n", 200))
	first, err := v.IngestFile(small, IngestOptions{Now: now, LargeBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	second, err := v.IngestFile(large, IngestOptions{Now: now, LargeBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if first.Raw != "raw/notes.txt" || second.Raw != "raw/_large/notes-2.txt" {
		t.Errorf("stored at %s and %s, want raw/notes.txt and raw/_large/notes-2.txt", first.Raw, second.Raw)
	}
	if first.Page == second.Page {
		t.Errorf("both files share the source page %s", first.Page)
	}
}

// The org vault refuses what the project's ingest refuses: a link (here to
// a secret file outside), a device, a file over the limit.
func TestIngestSharesTheProjectRefusals(t *testing.T) {
	v := newVault(t)
	dir := t.TempDir()
	pw := filepath.Join(dir, "passwd")
	os.WriteFile(pw, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644)
	link := filepath.Join(dir, "pw.md")
	big := filepath.Join(dir, "big.md")
	f, _ := os.Create(big)
	f.Truncate(3 << 30)
	f.Close()
	cases := map[string]string{big: "over the ingest limit", "/dev/zero": "not a regular file"}
	if os.Symlink(pw, link) == nil {
		cases[link] = "symbolic link"
	}
	for p, want := range cases {
		if _, err := v.IngestFile(p, IngestOptions{Now: now, LargeBytes: 1 << 20, MaxBytes: 64 << 20}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", p, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(v.Root, "raw")); err == nil {
		ents, _ := os.ReadDir(filepath.Join(v.Root, "raw"))
		for _, e := range ents {
			if !e.IsDir() && e.Name() != ".gitkeep" {
				t.Errorf("a refused source left raw/%s", e.Name())
			}
		}
	}
}

// TestIngestDraftFollowsTheFilesLanguage: the draft of an English file is
// written in English, of a Russian one (whatever its name) in Russian, of
// a file with no words by its name, and with no letter at all in the
// vault's own Russian; each passes the linter's links rule (an English
// page's section is "## Links").
func TestIngestDraftFollowsTheFilesLanguage(t *testing.T) {
	v := newVault(t)
	dir := t.TempDir()
	files := map[string]string{
		"runbook.md":  "# Failover runbook\n\nSwitch the replica first, then move the traffic.\npassword=Tr0ub4dor&3\n",
		"ретро.md":    "# Ретро квартала\n\nЧто получилось: переезд на новую очередь.\n",
		"retro-q3.md": "# Ретро Q3\n\nСначала обсудили релиз, потом дежурства и метрики.\n",
		"blank.md":    "\n\n",
		"2026-11.csv": "1,2\n3,4\n",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	english := map[string]bool{"runbook.md": true, "blank.md": true}
	for name := range files {
		res, err := v.IngestFile(filepath.Join(dir, name), IngestOptions{Redact: true, Now: now, LargeBytes: 1 << 20})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pg := read(t, v.Root, res.Page)
		en := []string{"> Draft. Retell [[" + res.Raw + "]] in your own words", "## Summary", "## Links", "- Source file: [[" + res.Raw + "]]"}
		ru := []string{"> Черновик. Перескажите [[" + res.Raw + "]] своими словами", "## Кратко", "## Связи", "- Исходный файл: [[" + res.Raw + "]]"}
		want, not := ru, en
		if english[name] {
			want, not = en, ru
		}
		for _, w := range want {
			if !strings.Contains(pg, w) {
				t.Errorf("%s: the draft lacks %q:\n%s", name, w, pg)
			}
		}
		for _, w := range not {
			if strings.Contains(pg, w) {
				t.Errorf("%s: the draft holds %q of the other language:\n%s", name, w, pg)
			}
		}
	}
	if idx := read(t, v.Root, IndexFile); !strings.Contains(idx, "draft, source raw/runbook.md") || !strings.Contains(idx, "черновик, источник raw/retro-q3.md") {
		t.Errorf("index.md's notes do not follow the files' languages:\n%s", idx)
	}
	findings, err := v.Lint(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Rule == "missing-links-section" {
			t.Errorf("a draft fails the links rule: %+v", f)
		}
	}
}
