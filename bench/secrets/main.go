// Command secrets measures internal/text/secrets: every finding over the real
// vaults that is not one of their few real e-mail addresses is printed as a
// false positive; planted values of every kind give recall per kind.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

func main() {
	vaults := flag.String("vaults", filepath.Join("..", "shared", "fixtures", "vaults", "obsidianmd__obsidian-help"), "folder of real vaults")
	n := flag.Int("n", 100, "planted values per kind")
	flag.Parse()
	ok := falsePositives(*vaults)
	ok = recall(*n) && ok
	if !ok {
		os.Exit(1)
	}
}

func falsePositives(root string) bool {
	var files, bytes, emails, fps int
	var texts []string
	start := time.Now()
	for _, lang := range []string{"en", "ru"} {
		dir := filepath.Join(root, lang)
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			bytes += len(data)
			texts = append(texts, string(data))
			for _, f := range secrets.Scan(string(data)) {
				if f.Kind == "email" {
					emails++
					continue
				}
				fps++
				rel, _ := filepath.Rel(root, p)
				line := strings.Split(string(data), "\n")[f.Line-1]
				fmt.Printf("  false positive: %s:%d %s %s  | %.80s\n", rel, f.Line, f.Kind, f.Preview, secrets.Redact(line, secrets.Scan(line)))
			}
			return nil
		})
		if err != nil {
			fmt.Printf("vaults: %v (skipped)\n", err)
			return true
		}
	}
	el := time.Since(start)
	// Baseline: one case-folding pass over the same texts, the least any
	// scan must do.
	bstart := time.Now()
	for _, t := range texts {
		_ = strings.ToLower(t)
	}
	base := time.Since(bstart)
	fmt.Printf("real vaults: %d files, %.1f MB, scan %v (%.1f MB/s, read included); baseline lower-casing %v; scan/baseline %.0fx\n",
		files, float64(bytes)/1e6, el.Round(time.Millisecond), float64(bytes)/1e6/el.Seconds(), base.Round(time.Microsecond), float64(el)/float64(base))
	fmt.Printf("  e-mail findings (true PII, credits and support addresses): %d\n", emails)
	fmt.Printf("  false positives: %d (target 0)\n", fps)
	return fps == 0
}

func recall(n int) bool {
	r := rand.New(rand.NewSource(7))
	kinds := generators()
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	var total, found int
	fmt.Printf("planted: %d per kind\n", n)
	for _, kind := range names {
		hit, shown := 0, 0
		for i := 0; i < n; i++ {
			prefix, value, suffix := kinds[kind](r)
			text := prefix + value + suffix
			start, end := len(prefix), len(prefix)+len(value)
			ok := false
			for _, f := range secrets.Scan(text) {
				if f.Kind == kind && f.Start < end && start < f.End {
					ok = true
				}
			}
			if ok {
				hit++
			} else if shown < 3 {
				shown++
				fmt.Printf("  missed %s: %q\n", kind, text)
			}
		}
		total += n
		found += hit
		fmt.Printf("  %-20s recall %5.1f%% (%d/%d)\n", kind, 100*float64(hit)/float64(n), hit, n)
	}
	overall := 100 * float64(found) / float64(total)
	fmt.Printf("overall recall %.1f%% (%d/%d, target ≥ 95%%)\n", overall, found, total)
	return overall >= 95
}
