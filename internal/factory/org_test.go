package factory

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/org/orgvault"
	"github.com/cerebro-mem/cerebro/internal/org/rollup"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// The first dashboard of a new desk lays out the org vault (and says so)
// before it reads the registry; the second finds both in place.
func TestRollupLaysOutTheVaultThenBuilds(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_STATE_DIR": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	var errb bytes.Buffer
	f := New(System{Err: &errb, Getenv: func(k string) string { return env[k] }})
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	r, err := f.Rollup(today, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := orgvault.Open(f.Paths.Home); err != nil {
		t.Fatalf("no vault after the first rollup: %v", err)
	}
	if !strings.Contains(errb.String(), "created the org vault at "+f.Paths.Home) {
		t.Errorf("the vault's creation was not announced: %q", errb.String())
	}
	md, err := os.ReadFile(filepath.Join(f.Paths.DeskShortDir(), rollup.DashboardFile))
	if err != nil || !strings.Contains(string(md), r.Date) || r.Date != "2026-11-30" {
		t.Fatalf("dashboard of %s: %v\n%s", r.Date, err, md)
	}
	errb.Reset()
	if _, err := f.Rollup(today, false); err != nil || errb.Len() != 0 {
		t.Fatalf("second rollup: %v, said %q", err, errb.String())
	}
}

// OrgQuery searches the vault through the desk's search index: the page
// holding the question's words comes first with its passage cited, a page
// it links to follows along the link, the hub and index.md never answer.
func TestOrgQuerySearchesTheVault(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "cerebro"),
		"CEREBRO_STATE_DIR": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	f := New(System{Err: &bytes.Buffer{}, Getenv: func(k string) string { return env[k] }})
	v, err := f.OpenOrCreateOrg()
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{
		"regulations/Релизы.md": "---\ntype: regulation\nstatus: active\ntitle: Релизы\n---\n\n# Релизы\n\nРелиз выкатываем по вторникам после репетиции отката.\n\n## Связи\n\n- [[approaches/Откат]]\n",
		"approaches/Откат.md":   "---\ntype: approach\nstatus: draft\ntitle: Откат\n---\n\n# Откат\n\nСкрипт возвращает прошлую версию за минуту.\n",
		"approaches/Ретро.md":   "---\ntype: approach\nstatus: active\ntitle: Ретро\n---\n\n# Ретро\n\nКаждые две недели, сорок пять минут.\n",
		orgvault.IndexFile:      "# Индекс\n\n- [[regulations/Релизы]] — релиз по вторникам\n",
		orgvault.HubFile:        "# Карта\n\n- [[regulations/Релизы]] релиз вторник\n",
	}
	for rel, text := range pages {
		testfile.Write(t, filepath.Join(v.Root, filepath.FromSlash(rel)), text)
	}
	ans, err := f.OrgQuery(v, "когда выкатываем релиз", 5, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Hits) < 2 {
		t.Fatalf("hits %+v", ans.Hits)
	}
	first := ans.Hits[0]
	if first.Path != "regulations/Релизы.md" || first.Via != "search" || first.Title != "Релизы" || first.Type != "regulation" ||
		!strings.Contains(first.Excerpt, "по вторникам") {
		t.Fatalf("first hit %+v", first)
	}
	var from, to int
	if _, err := fmt.Sscanf(strings.TrimPrefix(first.Citation, first.Path), "#L%d-L%d", &from, &to); err != nil || from > 9 || to < 9 {
		t.Fatalf("citation %s does not cover line 9: %v", first.Citation, err)
	}
	var linked *orgvault.Hit
	for i, h := range ans.Hits {
		if h.Path == orgvault.IndexFile || h.Path == orgvault.HubFile {
			t.Fatalf("a structural file answered: %+v", h)
		}
		if h.Path == "approaches/Откат.md" {
			linked = &ans.Hits[i]
		}
	}
	if linked == nil || linked.Via != "link" || linked.Status != "draft" || ans.Linked != 1 {
		t.Fatalf("the linked page: %+v in %+v", linked, ans.Hits)
	}
}
