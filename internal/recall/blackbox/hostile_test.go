package blackbox

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A repository is hostile input: links planted in its memory folders
// lead out of the project, and the black box neither writes through them
// nor reads what they point at.
func TestHostileLinksInMemoryLeadNowhere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	b := newBox(t)
	out := t.TempDir()
	secret := filepath.Join(out, "secret.md")
	os.WriteFile(secret, []byte("# kestrel\n\nthe kestrel vault password is hunter2\n"), 0o644)
	os.WriteFile(filepath.Join(out, "names.jsonl"), nil, 0o644)
	os.MkdirAll(filepath.Join(b.LongDir, "wiki"), 0o755)
	os.MkdirAll(filepath.Join(b.LongDir, TablesDir), 0o755)
	for link, target := range map[string]string{
		filepath.Join(b.LongDir, "wiki", "kestrel.md"): secret,
		b.namesPath(): filepath.Join(out, "names.jsonl"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	dir := namer(t, b, "vault_notes", 0)
	a := remember(t, b, `{"text":"the kestrel vault moved","table":"Хранилища","key":"kestrel","value":"moved"}`)
	if data, _ := os.ReadFile(filepath.Join(out, "names.jsonl")); len(data) != 0 {
		t.Fatalf("the model's name was written through a link: %s", data)
	}
	if calls(dir) != 1 || strings.Join(a.TablesCreated, ",") != "khranilishcha" || !strings.Contains(a.Params["table"].Note, "the model's name could not be kept") {
		t.Fatalf("a name that cannot be kept falls back, and says so: %+v %+v", a.TablesCreated, a.Params["table"])
	}
	// A real page with the same words is found: the search reaches wiki/.
	os.WriteFile(filepath.Join(b.LongDir, "wiki", "vault.md"), []byte("# vault\n\nthe kestrel vault password is in the office safe\n"), 0o644)
	r := recall(t, b, `{"text":"kestrel vault password","limit":10}`)
	real := false
	for _, it := range r.Items {
		if strings.Contains(it.Text, "hunter2") {
			t.Fatalf("a passage was read through a planted link: %+v", it)
		}
		real = real || strings.Contains(it.Text, "office safe")
	}
	if !real {
		t.Fatalf("the real page is found: %+v", r.Items)
	}

	// The records folder a link out: remember fails, naming the step, and
	// writes nothing there.
	recs := filepath.Join(b.LongDir, "records")
	os.RemoveAll(recs)
	if err := os.Symlink(out, recs); err != nil {
		t.Fatal(err)
	}
	req, fates, err := ParseRemember(raw(t, `{"text":"the kestrel vault moved again"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Remember(context.Background(), req, fates, t0); err == nil || !strings.Contains(err.Error(), "write record") {
		t.Fatalf("a record through a planted link: %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 2 {
		t.Fatalf("something was written outside the project: %v", entries)
	}
}
