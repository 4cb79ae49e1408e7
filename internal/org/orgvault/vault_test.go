package orgvault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/lint"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func newVault(t *testing.T) *Vault {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cerebro")
	if _, err := Init(root, now); err != nil {
		t.Fatal(err)
	}
	v, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	testfile.Write(t, filepath.Join(root, filepath.FromSlash(rel)), text)
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	return testfile.Read(t, filepath.Join(root, filepath.FromSlash(rel)))
}

func commits(t *testing.T, v *Vault) []gitrepo.Commit {
	t.Helper()
	log, err := v.Repo().Log("", 0)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func TestInitLaysOutOnceAndKeepsEdits(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cerebro")
	res, err := Init(root, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{SchemaFile, IndexFile, HubFile, LogFile, ".gitignore", "raw/.gitkeep", "raw/_large/.gitkeep", ".trash/.gitkeep", "_templates/case.md", "_templates/source.md"} {
		if !contains(res.Created, want) {
			t.Errorf("Init did not create %s (created %v)", want, res.Created)
		}
	}
	if !strings.Contains(read(t, root, ".gitignore"), ".claude/") {
		t.Error(".gitignore does not keep .claude/ out")
	}
	schema := read(t, root, SchemaFile)
	for _, t2 := range Types {
		if !strings.Contains(schema, "`"+t2.Name+"`") || !strings.Contains(schema, t2.Gloss) {
			t.Errorf("SCHEMA.md lacks type %s (%s)", t2.Name, t2.Gloss)
		}
	}
	write(t, root, SchemaFile, "# my own rules\n")
	os.Remove(filepath.Join(root, IndexFile))
	again, err := Init(root, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Created) != 1 || again.Created[0] != IndexFile {
		t.Fatalf("second Init created %v, want only index.md", again.Created)
	}
	if read(t, root, SchemaFile) != "# my own rules\n" {
		t.Fatal("Init overwrote an edited SCHEMA.md")
	}
	v, _ := Open(root)
	if log := commits(t, v); len(log) != 2 || !strings.HasPrefix(log[0].Message, "org init") {
		t.Fatalf("commits = %+v, want two init commits", log)
	}
	if third, _ := Init(root, now); len(third.Created) != 0 || third.Commit != "" {
		t.Fatalf("third Init changed something: %+v", third)
	}
}

func TestOpenWithoutInitHints(t *testing.T) {
	_, err := Open(t.TempDir())
	var ni *NotInitializedError
	if !errors.As(err, &ni) || !strings.Contains(ni.Hint(), "org init") {
		t.Fatalf("Open = %v, want NotInitializedError with a hint", err)
	}
}

func TestFreshVaultLintsClean(t *testing.T) {
	v := newVault(t)
	issues, err := v.Lint(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 0 {
		t.Fatalf("fresh vault: %v", issues)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// page renders a page of the schema.
func page(typ, status, title, body string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntype: %s\nstatus: %s\ntitle: %s\ncreated: 2026-11-01\nupdated: 2026-11-02\ntags: [%s]\n", typ, status, title, typ)
	if typ == "source" {
		b.WriteString("raw: raw/doc.txt\n")
	}
	fmt.Fprintf(&b, "---\n\n# %s\n\n%s\n\n## Связи\n\n", title, body)
	for _, l := range links {
		fmt.Fprintf(&b, "- [[%s]]\n", l)
	}
	return b.String()
}

func sortedIssues(is []lint.Finding) []string {
	var out []string
	for _, i := range is {
		out = append(out, fmt.Sprintf("%s:%d:%s", i.File, i.Line, i.Rule))
	}
	sort.Strings(out)
	return out
}
