package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/longterm"
	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// vaultFiles reads every file of an org vault but its repository and the
// desk's private folder, by path.
func vaultFiles(t *testing.T, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(home, p)
		if d.IsDir() && (rel == ".git" || rel == ".claude") {
			return fs.SkipDir
		}
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

// TestOrgSyncTwoPeopleConverge: two people share one org vault through a
// bare file:// remote set in their own settings: the second's first sync
// is their clone, pages both ingest meet through a merge, and after both
// sync their vaults are the same files at the same commit. A change that
// does not merge leaves both sides alone, and doctor and the dashboard say
// "diverged, run `memhook org sync`".
func TestOrgSyncTwoPeopleConverge(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "team", "org-knowledge.git")
	url := "file://" + remote
	a, homeA := orgEnv(t)
	b, homeB := orgEnv(t)
	a["CEREBRO_ORG_REMOTE"], b["CEREBRO_ORG_REMOTE"] = url, url
	ingest := func(env map[string]string, name, text string) {
		t.Helper()
		src := filepath.Join(t.TempDir(), name)
		os.WriteFile(src, []byte(text), 0o644)
		if out, errOut, code := run(t, env, "", "org", "ingest", src); code != 0 {
			t.Fatalf("ingest %s: %s%s", name, out, errOut)
		}
	}
	sync := func(env map[string]string, want string) string {
		t.Helper()
		out, errOut, code := run(t, env, "", "org", "sync")
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("org sync: exit %d, want %q\n%s%s", code, want, out, errOut)
		}
		return out
	}
	ingest(a, "releases.md", "# Релизы\nПо пятницам.\n")
	sync(a, "org sync "+homeA+": pushed with "+url)
	if _, err := os.Stat(filepath.Join(remote, "HEAD")); err != nil {
		t.Fatal("the file:// remote was not made on the first sync")
	}
	// B's desk has no vault: the sync takes the team's.
	sync(b, "fast-forward with "+url)
	if _, ok := vaultFiles(t, homeB)["sources/releases.md"]; !ok {
		t.Fatalf("B's clone lacks the page: %v", vaultFiles(t, homeB))
	}
	if _, errOut, code := run(t, b, "", "org", "lint"); code != 0 {
		t.Fatalf("lint of the clone: %s", errOut)
	}
	// Both curate at once: a new source each, each adding its lines to
	// index.md and log.md.
	ingest(a, "oncall.md", "# Дежурства\nКак мы дежурим.\n")
	ingest(b, "reviews.md", "# Ревью\nКак мы делаем ревью.\n")
	sync(a, "pushed")
	sync(b, "merged with "+url)
	sync(a, "fast-forward with "+url)
	fa, fb := vaultFiles(t, homeA), vaultFiles(t, homeB)
	if len(diffTrees(fa, fb)) > 0 {
		t.Fatalf("the vaults differ after both synced: %v", diffTrees(fa, fb))
	}
	for _, p := range []string{"sources/releases.md", "sources/oncall.md", "sources/reviews.md"} {
		if _, ok := fa[p]; !ok {
			t.Fatalf("%s missing after the merge", p)
		}
	}
	if !strings.Contains(fa["index.md"], "[[sources/oncall]]") || !strings.Contains(fa["index.md"], "[[sources/reviews]]") {
		t.Fatalf("merged index:\n%s", fa["index.md"])
	}
	ha, _ := gitrepo.OpenAt(homeA)
	hb, _ := gitrepo.OpenAt(homeB)
	la, _ := ha.Log("", 1)
	lb, _ := hb.Log("", 1)
	if la[0].Hash != lb[0].Hash {
		t.Fatal("the two clones are not at one commit")
	}
	for _, env := range []map[string]string{a, b} {
		if _, errOut, code := run(t, env, "", "org", "lint"); code != 0 {
			t.Fatalf("lint after the merge: %s", errOut)
		}
	}

	// A moves a page to .trash (its index line goes), B adds one (a line
	// in the same place): index.md changed on both sides, not only by
	// additions.
	if _, errOut, code := run(t, a, "", "org", "rm", "sources/oncall.md"); code != 0 {
		t.Fatal(errOut)
	}
	ingest(b, "budget.md", "# Бюджет\nКак мы считаем бюджет.\n")
	sync(a, "pushed")
	before := vaultFiles(t, homeB)
	lbBefore, _ := hb.Log("", 1)
	_, errOut, code := run(t, b, "", "org", "sync")
	if code == 0 || !strings.Contains(errOut, "diverged from "+url) || !strings.Contains(errOut, "index.md") || !strings.Contains(errOut, "then run `memhook org sync`") {
		t.Fatalf("diverged sync: exit %d\n%s", code, errOut)
	}
	if ch := diffTrees(before, vaultFiles(t, homeB)); len(ch) > 0 {
		t.Fatalf("a diverged sync changed B's vault: %v", ch)
	}
	if lb, _ := hb.Log("", 1); lb[0].Hash != lbBefore[0].Hash {
		t.Fatal("a diverged sync moved B's branch")
	}
	if out, _, code := run(t, a, "", "org", "sync"); code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("a diverged sync changed the remote: %s", out)
	}
	doc, _, _ := run(t, b, "", "doctor")
	if !strings.Contains(doc, "org vault: diverged, run `memhook org sync`") {
		t.Fatalf("doctor:\n%s", doc)
	}
	run(t, b, "", "rollup")
	dash := readFile(t, filepath.Join(homeB, ".claude", "memory_short", "rollup.md"))
	if !strings.Contains(dash, "the org vault diverged from "+url+", run `memhook org sync`") {
		t.Fatalf("dashboard:\n%s", dash)
	}
}

// TestRemoteIsUserOnly: a project's own .claude/cerebro.toml cannot choose
// where its memory is pushed.
func TestRemoteIsUserOnly(t *testing.T) {
	e := newNightEnv(t, false)
	evil := filepath.Join(t.TempDir(), "evil-{project}.git")
	os.WriteFile(filepath.Join(e.proj, ".claude", "cerebro.toml"), []byte("[long]\nremote = \"file://"+evil+"\"\n[org]\nremote = \"file://"+evil+"\"\n"), 0o644)
	_, errOut, code := e.run(t, "", "long", "sync", "--project", e.proj)
	if code == 0 || !strings.Contains(errOut, "long.remote is not set") {
		t.Fatalf("long sync took the project's remote: exit %d\n%s", code, errOut)
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(evil), "evil-*")); len(matches) > 0 {
		t.Fatalf("memory was pushed where the project said: %v", matches)
	}
	doc, _, _ := e.run(t, "", "doctor", "--project", e.proj)
	if !strings.Contains(doc, "ignored: project config may not set long.remote") || !strings.Contains(doc, "ignored: project config may not set org.remote") {
		t.Fatalf("doctor does not name the ignored key:\n%s", doc)
	}
}

// TestScheduledRunPushesAfterTheNight: the daily jobs push each project's
// memory after the night committed to it; a second clone of that remote
// takes the night's work, and the remote then refuses nothing.
func TestScheduledRunPushesAfterTheNight(t *testing.T) {
	e := newNightEnv(t, false)
	remotes := t.TempDir()
	e.env["CEREBRO_LONG_REMOTE"] = "file://" + filepath.Join(remotes, "{project}-memory.git")
	e.writeDay(t, time.Date(2026, 10, 1, 0, 0, 0, 0, time.Local), 1)
	out, errOut, code := e.run(t, "", "schedule", "run")
	if code != 0 {
		t.Fatalf("schedule run: exit %d\n%s%s", code, out, errOut)
	}
	bare := filepath.Join(remotes, "apollo-memory.git")
	if _, err := gitrepo.OpenAtForReading(bare); err != nil { // bare: no work tree of its own
		t.Fatalf("no remote for the project: %v", err)
	}
	local, _ := gitrepo.OpenSeparate(e.long(""), longterm.GitDir(e.long("")))
	ll, _ := local.Log("", 0)
	if len(ll) == 0 || !strings.Contains(ll[0].Message, "memhook night") {
		t.Fatalf("the night committed nothing: %v", ll)
	}
	other := t.TempDir()
	c, _ := gitrepo.Init(other)
	res, err := c.Sync(t.Context(), "file://"+bare, longterm.SyncKind, time.Now())
	if err != nil || res.State != gitrepo.SyncFastForward {
		t.Fatalf("clone of the pushed memory: %+v %v", res, err)
	}
	if cl, _ := c.Log("", 1); cl[0].Hash != ll[0].Hash {
		t.Fatal("the remote does not hold the night's last commit")
	}
	doc, _, _ := e.run(t, "", "doctor", "--project", e.proj)
	if !strings.Contains(doc, "long-term memory remote file://"+bare+": pushed") {
		t.Fatalf("doctor:\n%s", doc)
	}
}
