package skill

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// benchCommit measures the commit of one skill edit in a repository that
// also tracks other files: go-git's status walks the whole work tree.
func benchCommit(b *testing.B, others int) {
	dir := b.TempDir()
	r, err := gitrepo.Init(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < others; i++ {
		p := filepath.Join(dir, "src", fmt.Sprintf("d%d", i%20), fmt.Sprintf("f%d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("package d\n// %d\n", i)), 0o644)
	}
	f := filepath.Join(dir, "skills", "demo", "SKILL.md")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte("v0\n"), 0o644)
	if _, err := r.CommitPaths([]string{filepath.Join(dir, "skills"), filepath.Join(dir, "src")}, "init", time.Now()); err != nil {
		b.Fatal(err)
	}
	ref, _ := Locate(f)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		os.WriteFile(f, []byte(fmt.Sprintf("v%d\n", i+1)), 0o644)
		if res, err := Commit(ref, "Edit", time.Now()); err != nil || res.Commit == "" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

func BenchmarkCommitSkillEditAlone(b *testing.B)     { benchCommit(b, 0) }
func BenchmarkCommitSkillEdit2000Files(b *testing.B) { benchCommit(b, 2000) }
