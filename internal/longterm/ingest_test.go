package longterm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/store/rawfile"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func TestIngestTextCopiesStubsLogsAndIndexes(t *testing.T) {
	s := newProject(t)
	src := filepath.Join(t.TempDir(), "Заметки по дизайну.md")
	testfile.Write(t, src, "# design\n\nsome [[link]] text\n")
	res, err := s.Ingest(src, 1<<20, 64<<20, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Raw != "raw/Заметки по дизайну.md" || res.Page != "wiki/sources/Заметки по дизайну.md" || res.Large || res.Already {
		t.Fatalf("%+v", res)
	}
	if testfile.Read(t, s.Path(res.Raw)) != testfile.Read(t, src) {
		t.Fatal("raw copy differs from the source")
	}
	golden(t, "source-stub.md", []byte(testfile.Read(t, s.Path(res.Page))))
	if !strings.Contains(testfile.Read(t, s.Path(IndexFile)), "[[wiki/sources/Заметки по дизайну]]") {
		t.Fatal("index.md does not list the source page")
	}
	if l := logLines(t, s); !strings.Contains(l[len(l)-1], "· ingest · Заметки по дизайну.md → raw/Заметки по дизайну.md") {
		t.Fatalf("log: %q", l)
	}
	// The raw Markdown is a source, not a page: its link is not linted.
	found, _ := s.Lint(LintOptions{Project: true})
	if len(found) != 0 {
		t.Fatalf("lint after ingest: %+v", found)
	}
	// Again: identical, nothing new; a different file of the same name
	// gets a new name and raw/ is never overwritten.
	if res, err = s.Ingest(src, 1<<20, 64<<20, now); err != nil || !res.Already || !res.PageKept {
		t.Fatalf("second ingest: %+v %v", res, err)
	}
	testfile.Write(t, src, "# changed\n")
	if res, err = s.Ingest(src, 1<<20, 64<<20, now); err != nil || res.Raw != "raw/Заметки по дизайну-2.md" {
		t.Fatalf("changed ingest: %+v %v", res, err)
	}
	if !strings.Contains(testfile.Read(t, s.Path("raw/Заметки по дизайну.md")), "some [[link]]") {
		t.Fatal("the first raw copy was overwritten")
	}
}

func TestIngestLargeAndDocuments(t *testing.T) {
	s := newProject(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	testfile.Write(t, big, strings.Repeat("line of text\n", 100))
	res, err := s.Ingest(big, 500, 64<<20, now)
	if err != nil || !res.Large || res.Raw != "raw/_large/big.txt" {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(testfile.Read(t, s.Path(res.Page)), "[[raw/_large/big.txt]]") {
		t.Fatal("stub does not link the large copy")
	}
	pdf := filepath.Join(dir, "report.pdf")
	testfile.Write(t, pdf, "%PDF-1.7\n\x00\x01\x02binary")
	if res, err = s.Ingest(pdf, 1<<20, 64<<20, now); err != nil || !res.Document {
		t.Fatalf("pdf: %+v %v", res, err)
	}
	if found, _ := s.Lint(LintOptions{Project: true}); lint.HasErrors(found) {
		t.Fatalf("lint: %+v", found)
	}
}

func TestIngestRefusals(t *testing.T) {
	s := newProject(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	testfile.Write(t, good, "fine\n")
	cases := map[string]string{}
	add := func(name, content string) string {
		p := filepath.Join(dir, name)
		testfile.Write(t, p, content)
		return p
	}
	cases[add("nul.txt", "a\x00b")] = "NUL byte"
	cases[add("latin1.txt", "caf\xe9\n")] = "not UTF-8"
	cases[add("fake.pdf", "not a pdf")] = "does not look like a .pdf"
	cases[add("empty.md", "")] = "is empty"
	cases[dir] = "is a directory"
	cases[filepath.Join(dir, "missing.md")] = "cannot read it"
	cases[s.Path(SchemaFile)] = "inside the long-term memory"
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(good, link); err == nil {
		cases[link] = "symbolic link"
	}
	for p, want := range cases {
		_, err := s.Ingest(p, 1<<20, 64<<20, now)
		if err == nil || !strings.HasPrefix(err.Error(), "ingest ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an ingest refusal with %q", filepath.Base(p), err, want)
		}
	}
	entries, _ := os.ReadDir(s.Path(RawDir))
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("refused ingest left %s in raw/", e.Name())
		}
	}
}

func TestIngestNeedsScaffold(t *testing.T) {
	s := New(t.TempDir())
	_, err := s.Ingest("x", 0, 64<<20, now)
	if !errors.Is(err, ErrInactive) {
		t.Fatalf("got %v", err)
	}
}

func TestIngestStreamsLargeTextAcrossChunks(t *testing.T) {
	s := newProject(t)
	dir := t.TempDir()
	// Multi-byte characters at odd offsets straddle every read buffer.
	good := filepath.Join(dir, "long.md")
	text := "a" + strings.Repeat("я€", 40000) + "\n"
	testfile.Write(t, good, text)
	res, err := s.Ingest(good, 1<<20, 64<<20, now)
	if err != nil || res.Bytes != int64(len(text)) {
		t.Fatalf("%+v %v", res, err)
	}
	if testfile.Read(t, s.Path(res.Raw)) != text {
		t.Fatal("copy differs")
	}
	bad := filepath.Join(dir, "bad.md")
	testfile.Write(t, bad, text+"\xe2\x82") // cut-off character at the very end
	if _, err := s.Ingest(bad, 1<<20, 64<<20, now); err == nil || !strings.Contains(err.Error(), "cut-off character") {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(s.Path(".cerebro/ingest")); len(entries) != 0 {
		t.Fatalf("staging files left: %v", entries)
	}
}

// The project's ingest runs the org's secret scan: a planted key refuses
// the source (nothing copied), --redact stores it with a marker instead.
func TestIngestRefusesSecretsAndRedacts(t *testing.T) {
	s := newProject(t)
	key := "sk-proj-" + "Qm7xK2pLw9Zt4Rv8Nc3Bh6Jd1Fs5Gy0TaXe7Ui2Ok4Pl9Mn3"
	src := filepath.Join(t.TempDir(), "notes.md")
	testfile.Write(t, src, "# setup\n\nOPENAI_API_KEY="+key+"\nthen run it\n")
	_, err := s.Ingest(src, 1<<20, 64<<20, now)
	var ref *rawfile.RefusedError
	if !errors.As(err, &ref) || len(ref.Findings) == 0 || strings.Contains(err.Error(), key) {
		t.Fatalf("want a refusal that does not print the key, got %v", err)
	}
	if _, err := os.Stat(s.Path("raw/notes.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused source was copied: %v", err)
	}
	res, err := s.IngestWith(src, IngestOptions{LargeBytes: 1 << 20, MaxBytes: 64 << 20, Redact: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	raw := testfile.Read(t, s.Path(res.Raw))
	if res.Redacted == 0 || strings.Contains(raw, key) || !strings.Contains(raw, "[REDACTED:") || !strings.Contains(raw, "then run it") {
		t.Fatalf("redacted=%d raw copy:\n%s", res.Redacted, raw)
	}
	if res.Bytes != int64(len(raw)) {
		t.Fatalf("bytes %d, stored %d", res.Bytes, len(raw))
	}
	// A document's printable text is scanned too, and cannot be redacted.
	pdf := filepath.Join(t.TempDir(), "leak.pdf")
	testfile.Write(t, pdf, "%PDF-1.4\n\x00\x01 token "+key+" \x00")
	if _, err := s.Ingest(pdf, 1<<20, 64<<20, now); !errors.As(err, &ref) {
		t.Fatalf("pdf with a key: %v", err)
	}
}
