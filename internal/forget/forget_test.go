package forget

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/journal/daily"
)

var now = time.Date(2026, 11, 30, 18, 5, 0, 0, time.Local)

type env struct {
	t          *testing.T
	proj       string
	short, lng string
	roots      []Root
}

func newEnv(t *testing.T) *env {
	dir := t.TempDir()
	e := &env{t: t, proj: filepath.Join(dir, "proj")}
	e.short = filepath.Join(e.proj, ".claude", "memory_short")
	e.lng = filepath.Join(e.proj, ".claude", "memory_long")
	os.MkdirAll(filepath.Join(e.short, "daily"), 0o755)
	os.MkdirAll(filepath.Join(e.lng, "wiki"), 0o755)
	lock := func(_ string, fn func() error) error { return fn() }
	e.roots = []Root{{Dir: e.short, Lock: lock}, {Dir: e.lng, Lock: lock, Keep: []string{"CORE.md"}}}
	return e
}

func (e *env) dailyFile() string {
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.Local)
	text := daily.Header(day, "proj")
	for i, s := range []daily.Section{
		{SessionID: "aaaa1111-0000", Seq: 1, Body: "### Asked\n- first of session a"},
		{SessionID: "bbbb2222-0000", Seq: 1, Body: "### Asked\n- regretted PINEAPPLE-0451"},
		{SessionID: "aaaa1111-0000", Seq: 2, Body: "### Asked\n- second of session a"},
	} {
		s.Start, s.End, s.Trigger = day.Add(time.Duration(9+i)*time.Hour), day.Add(time.Duration(10+i)*time.Hour), "auto"
		text += daily.Render(s)
	}
	p := filepath.Join(e.short, "daily", "2026-11-30.md")
	os.WriteFile(p, []byte(text), 0o644)
	return p
}

func (e *env) forget(target string) (*Result, error) {
	return Forget(Request{Roots: e.roots, Target: target, Base: e.proj, Now: now})
}

func read(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestForgetADailySectionBySession(t *testing.T) {
	e := newEnv(t)
	p := e.dailyFile()
	before := read(t, p)
	res, err := e.forget(".claude/memory_short/daily/2026-11-30.md#bbbb2222")
	if err != nil {
		t.Fatal(err)
	}
	after := read(t, p)
	if strings.Contains(after, "PINEAPPLE") || !strings.Contains(after, "first of session a") || !strings.Contains(after, "second of session a") {
		t.Fatalf("after the forget:\n%s", after)
	}
	trash := read(t, filepath.Join(e.short, filepath.FromSlash(res.Trash)))
	if !strings.Contains(trash, "PINEAPPLE") || !strings.HasPrefix(res.Trash, ".trash/daily/2026-11-30 ") {
		t.Fatalf("trash %s:\n%s", res.Trash, trash)
	}
	// What stays plus what went is what was there.
	d := daily.Parse([]byte(before))
	if after != d.Preamble+d.Sections[0].Raw+d.Sections[2].Raw {
		t.Fatalf("the other sections changed:\n%s", after)
	}
	if res.File != "daily/2026-11-30.md" || !strings.Contains(res.Section, "session bbbb2222") {
		t.Fatalf("result %+v", res)
	}
}

func TestForgetNamesOneSection(t *testing.T) {
	e := newEnv(t)
	p := e.dailyFile()
	_, err := e.forget("daily/2026-11-30.md#aaaa1111")
	if hint.Of(err) == "" || !strings.Contains(err.Error(), "2 sections") || !strings.Contains(err.Error(), "aaaa1111:2") {
		t.Fatalf("an ambiguous session: %v", err)
	}
	if _, err := e.forget("daily/2026-11-30.md#nosuch"); err == nil || !strings.Contains(err.Error(), "its sections:") {
		t.Fatalf("an unknown section: %v", err)
	}
	res, err := e.forget("daily/2026-11-30.md#aaaa1111:2")
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); strings.Contains(got, "second of session a") || !strings.Contains(got, "first of session a") {
		t.Fatalf("after forgetting aaaa1111:2:\n%s", got)
	}
	d := daily.Parse([]byte(read(t, p)))
	heading := d.Sections[0].Heading
	if _, err := e.forget(p + "#" + heading); err != nil {
		t.Fatalf("by heading %q: %v", heading, err)
	}
	if res.Trash == "" || len(daily.Parse([]byte(read(t, p))).Sections) != 1 {
		t.Fatal("forgetting by heading left the section")
	}
}

func TestForgetAWholePageAndAWikiSection(t *testing.T) {
	e := newEnv(t)
	page := filepath.Join(e.lng, "wiki", "Доступы.md")
	os.WriteFile(page, []byte("# Доступы\n\n## Сервер\n\nssh deploy@host\n\n## Пароль базы\n\nMANGO-7702\n\n## Потом\n\nничего\n"), 0o644)
	res, err := e.forget("wiki/Доступы.md#Пароль базы")
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, page); strings.Contains(got, "MANGO") || !strings.Contains(got, "## Сервер") || !strings.Contains(got, "## Потом") {
		t.Fatalf("page after:\n%s", got)
	}
	if strings.Contains(res.Trash, "Пароль") {
		t.Errorf("the trash name repeats the heading: %s", res.Trash)
	}
	res, err = e.forget(page)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(page); !os.IsNotExist(err) {
		t.Fatal("the page is still there")
	}
	if got := read(t, filepath.Join(e.lng, filepath.FromSlash(res.Trash))); !strings.Contains(got, "## Сервер") {
		t.Fatalf("trash copy:\n%s", got)
	}
	os.WriteFile(filepath.Join(e.lng, "CORE.md"), []byte("# CORE\n\n## Facts\n\n- x\n"), 0o644)
	if _, err := e.forget("CORE.md"); err == nil || !strings.Contains(err.Error(), "structure") {
		t.Fatalf("CORE.md went whole: %v", err)
	}
	if _, err := e.forget("CORE.md#Facts"); err != nil {
		t.Fatalf("a CORE section: %v", err)
	}
}

func TestForgetRefusesWhatIsNotMemory(t *testing.T) {
	e := newEnv(t)
	e.dailyFile()
	outside := filepath.Join(filepath.Dir(e.proj), "notes.md")
	os.WriteFile(outside, []byte("## x\n"), 0o644)
	os.WriteFile(filepath.Join(e.proj, "README.md"), []byte("## x\n"), 0o644)
	os.Symlink(outside, filepath.Join(e.lng, "wiki", "link.md"))
	os.Symlink(filepath.Dir(e.proj), filepath.Join(e.lng, "wiki", "out"))
	os.MkdirAll(filepath.Join(e.short, ".trash"), 0o755)
	os.WriteFile(filepath.Join(e.short, ".trash", "old.md"), []byte("## x\n"), 0o644)
	for target, want := range map[string]string{
		outside:                              "outside",
		"README.md":                          "outside",
		"wiki/link.md":                       "symbolic link",
		"wiki/out/notes.md":                  "outside",
		"../notes.md":                        "outside",
		".claude/memory_short/.trash/old.md": "hidden folder",
		"daily/2026-12-01.md":                "no memory file",
		"":                                   "name what",
	} {
		before := read(t, outside)
		_, err := e.forget(target)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("forget %q: %v, want %q", target, err, want)
		}
		if read(t, outside) != before {
			t.Fatalf("forget %q changed the file outside", target)
		}
	}
}
