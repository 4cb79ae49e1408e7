package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// repoDocs are the README and docs/*.md, paths from the repository root.
func repoDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(docs) < 10 {
		t.Fatalf("found %d docs: %v", len(docs), err)
	}
	return append([]string{filepath.Join("..", "..", "README.md")}, docs...)
}

var (
	mdLink  = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	mdFence = regexp.MustCompile("(?m)^\\s*```")
)

// proseOf is a Markdown text without its fenced code blocks, whose
// brackets are code, not links.
func proseOf(text string) string {
	parts := mdFence.Split(text, -1)
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 0 {
			b.WriteString(p)
		}
	}
	return b.String()
}

// anchors are the heading anchors GitHub makes for a Markdown file:
// lowercased, punctuation dropped, spaces to hyphens, repeats numbered.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(proseOf(text), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+string(rune('0'+n))] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// TestDocLinksResolve: every relative link in the README and docs/*.md
// names a file (or folder) that exists, and every #anchor a heading of
// the file it points into.
func TestDocLinksResolve(t *testing.T) {
	checked, anchored := 0, 0
	for _, doc := range repoDocs(t) {
		text := testfile.Read(t, doc)
		for _, m := range mdLink.FindAllStringSubmatch(proseOf(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %q: %v", filepath.Base(doc), target, err)
					continue
				}
			}
			checked++
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			anchored++
			if !anchors(testfile.Read(t, file))[anchor] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", filepath.Base(doc), target, filepath.Base(file), anchor)
			}
		}
	}
	if checked < 40 || anchored < 2 {
		t.Fatalf("checked %d links, %d anchors; the link reader is broken", checked, anchored)
	}
}

// TestDocsNameNoMissingDoc: a doc named in prose (docs/x.md, outside a
// link) exists too.
func TestDocsNameNoMissingDoc(t *testing.T) {
	named := regexp.MustCompile(`\bdocs/([a-z0-9-]+\.md)\b`)
	for _, doc := range repoDocs(t) {
		// A fenced block may quote another project's files (a distillate's
		// example); only prose names this repository's docs.
		prose := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(testfile.Read(t, doc), "")
		for _, m := range named.FindAllStringSubmatch(prose, -1) {
			if _, err := os.Stat(filepath.Join("..", "..", "docs", m[1])); err != nil {
				t.Errorf("%s names docs/%s, which does not exist", filepath.Base(doc), m[1])
			}
		}
	}
}

// TestReadmeDevelopmentListsEveryPackageGroup: the README's Development
// block names every folder under internal/ — a group as internal/<group>/,
// a package of the floor on the floor's line — and names nothing that is
// not there.
func TestReadmeDevelopmentListsEveryPackageGroup(t *testing.T) {
	readme := testfile.Read(t, filepath.Join("..", "..", "README.md"))
	_, dev, ok := strings.Cut(readme, "## Development")
	if !ok {
		t.Fatal("the README has no Development section")
	}
	start := strings.Index(dev, "```")
	end := strings.Index(dev[start+3:], "```")
	if start < 0 || end < 0 {
		t.Fatal("the Development section has no code block")
	}
	block := dev[start+3 : start+3+end]
	var floor []string
	for _, line := range strings.Split(block, "\n") {
		if _, names, ok := strings.Cut(line, "the floor:"); ok {
			for _, n := range strings.Split(names, ",") {
				floor = append(floor, strings.TrimSpace(n))
			}
		}
	}
	if len(floor) == 0 {
		t.Fatal("the Development block has no line for the floor's packages")
	}
	internal, err := os.ReadDir(filepath.Join("..", "..", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]bool{}
	for _, d := range internal {
		if !d.IsDir() {
			continue
		}
		exists[d.Name()] = true
		if !strings.Contains(block, "internal/"+d.Name()+"/") && !slices.Contains(floor, d.Name()) {
			t.Errorf("the README's Development block does not name internal/%s", d.Name())
		}
	}
	for _, m := range regexp.MustCompile(`internal/([a-z]+)/`).FindAllStringSubmatch(block, -1) {
		if !exists[m[1]] {
			t.Errorf("the README's Development block names internal/%s, which does not exist", m[1])
		}
	}
	for _, n := range floor {
		if !exists[n] {
			t.Errorf("the README's Development block names the floor package %q, which is not under internal/", n)
		}
	}
}

// TestE2EDocNamesEveryTest: docs/e2e.md's table has a row for every test
// of the e2e suite and none for a test that is gone, and its count of the
// suite's tests is the count.
func TestE2EDocNamesEveryTest(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "e2e", "*_test.go"))
	def := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(t \*testing\.T\)`)
	tests := map[string]bool{}
	for _, f := range files {
		for _, m := range def.FindAllStringSubmatch(testfile.Read(t, f), -1) {
			tests[m[1]] = true
		}
	}
	if len(tests) < 20 {
		t.Fatalf("found %d e2e tests; the reader is broken", len(tests))
	}
	doc := testfile.Read(t, filepath.Join("..", "..", "docs", "e2e.md"))
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(Test[A-Za-z0-9_]+)` \\|").FindAllStringSubmatch(doc, -1) {
		rows[m[1]] = true
	}
	for name := range tests {
		if !rows[name] {
			t.Errorf("docs/e2e.md has no row for %s", name)
		}
	}
	for name := range rows {
		if !tests[name] {
			t.Errorf("docs/e2e.md has a row for %s, which the suite does not have", name)
		}
	}
	count := regexp.MustCompile(`A full run is (\d+) tests`).FindStringSubmatch(doc)
	if count == nil || count[1] != strconv.Itoa(len(tests)) {
		t.Errorf("docs/e2e.md says a full run is %v tests; the suite has %d", count, len(tests))
	}
}

// TestHotBinaryDocsNameItsEvents: the comments that say which hooks
// memhook-hot runs (its main, the Makefile, scripts/memhook's routing)
// name every event its handler table takes, in Claude Code's words.
func TestHotBinaryDocsNameItsEvents(t *testing.T) {
	src := testfile.Read(t, filepath.Join("..", "shortterm", "hotpath", "hotpath.go"))
	table := regexp.MustCompile(`(?m)^\s+"([a-z-]+)":\s+h\.[a-zA-Z]+,$`).FindAllStringSubmatch(src, -1)
	if len(table) < 3 {
		t.Fatalf("read %d events from hotpath's handler table; the reader is broken", len(table))
	}
	for _, doc := range []string{filepath.Join("..", "..", "cmd", "memhook-hot", "main.go"), filepath.Join("..", "..", "Makefile")} {
		text := strings.Join(strings.Fields(testfile.Read(t, doc)), " ")
		for _, m := range table {
			event := ""
			for _, part := range strings.Split(m[1], "-") {
				event += strings.ToUpper(part[:1]) + part[1:]
			}
			if !strings.Contains(text, event) {
				t.Errorf("%s does not say memhook-hot runs %s", doc, event)
			}
		}
	}
	shim := testfile.Read(t, filepath.Join("..", "..", "scripts", "memhook"))
	for _, m := range table {
		if !strings.Contains(shim, `"hook `+m[1]+`"`) {
			t.Errorf("scripts/memhook does not send hook %s to memhook-hot", m[1])
		}
	}
}
