// Command orgquery measures how well `memhook org query` ranks: it lays
// an org vault out per language of the Obsidian help fixture (the pages
// copied in, the hub linking to the help's home page, so the link walk
// has a graph to walk), asks each page's frontmatter description as a
// question (the description taken out of the copy, so the question is a
// paraphrase, not a quote) and prints how often the page comes first and
// among the first five. Questions are split by page path into a dev half
// (tune on it) and a check half (held out); every figure comes from this
// one run of the binary given.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	memhook := flag.String("memhook", "", "the memhook binary to measure")
	vaults := flag.String("vaults", "", "the fixture folder with en/ and ru/")
	verbose := flag.Bool("v", false, "print each question missed at top 5")
	flag.Parse()
	if err := run(*memhook, *vaults, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "bench/orgquery:", err)
		os.Exit(1)
	}
}

// question is a page's description asked of the vault holding the page.
type question struct {
	text, page string
	dev        bool
}

// homes are the help's home pages the hub links to, per language.
var homes = map[string]string{"en": "Home", "ru": "Главная"}

func run(memhook, vaults string, verbose bool) error {
	tmp, err := os.MkdirTemp("", "cerebro-bench-orgquery-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	type tally struct{ n, top1, top5 int }
	total := map[bool]*tally{true: {}, false: {}}
	for _, lang := range []string{"en", "ru"} {
		env := append(os.Environ(), "HOME="+tmp, "CEREBRO_STATE_DIR="+filepath.Join(tmp, lang, "state"),
			"CEREBRO_HOME="+filepath.Join(tmp, lang, "desk"), "CEREBRO_CONFIG="+filepath.Join(tmp, "none.toml"))
		desk := filepath.Join(tmp, lang, "desk")
		if out, err := memhookRun(memhook, env, tmp, "org", "init"); err != nil {
			return fmt.Errorf("org init: %v\n%s", err, out)
		}
		qs, err := layOut(filepath.Join(vaults, lang), desk, homes[lang])
		if err != nil {
			return err
		}
		by := map[bool]*tally{true: {}, false: {}}
		for _, q := range qs {
			out, err := memhookRun(memhook, env, tmp, "org", "query", "--json", "--limit", "5", q.text)
			if err != nil {
				return fmt.Errorf("org query %q: %v\n%s", q.text, err, out)
			}
			var ans struct{ Hits []struct{ Path string } }
			if err := json.Unmarshal(out, &ans); err != nil {
				return fmt.Errorf("org query %q: read the answer: %v", q.text, err)
			}
			rank := 0
			for i, h := range ans.Hits {
				if h.Path == q.page {
					rank = i + 1
					break
				}
			}
			for _, t := range []*tally{by[q.dev], total[q.dev]} {
				t.n++
				if rank == 1 {
					t.top1++
				}
				if rank >= 1 && rank <= 5 {
					t.top5++
				}
			}
			if verbose && rank == 0 {
				got := []string{}
				for _, h := range ans.Hits {
					got = append(got, h.Path)
				}
				fmt.Printf("  miss %s: %q → %v\n", q.page, q.text, got)
			}
		}
		for _, dev := range []bool{true, false} {
			t := by[dev]
			fmt.Printf("%s %-5s %3d questions: top-1 %5.1f%%  top-5 %5.1f%%\n", lang, half(dev), t.n, pct(t.top1, t.n), pct(t.top5, t.n))
		}
	}
	for _, dev := range []bool{true, false} {
		t := total[dev]
		fmt.Printf("all %-5s %3d questions: top-1 %5.1f%%  top-5 %5.1f%%\n", half(dev), t.n, pct(t.top1, t.n), pct(t.top5, t.n))
	}
	return nil
}

func half(dev bool) string {
	if dev {
		return "dev"
	}
	return "check"
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

func memhookRun(memhook string, env []string, dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(memhook, args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stderr = os.Stderr
	return cmd.Output()
}

var description = regexp.MustCompile(`^description:\s*(.*)$`)

// boilerplate is the help's stock opening of a description, which says
// nothing about the page.
var boilerplate = regexp.MustCompile(`^(?i)(learn (how to |about )?|this page (details|describes|explains|lists|covers) (how )?|узнайте(,)? (как |о |об |про )?|на этой странице (описаны|описано|описывается|объясняется|объясняются|рассказывается)(,)? (как )?)`)

// layOut copies the fixture's pages into the vault at desk without their
// descriptions, links the hub to home, and returns the questions.
func layOut(src, desk, home string) ([]question, error) {
	var qs []question
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var kept []string
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		inFront := false
		for i := 0; sc.Scan(); i++ {
			l := sc.Text()
			if l == "---" && (i == 0 || inFront) {
				inFront = i == 0
			}
			if m := description.FindStringSubmatch(l); inFront && m != nil {
				if q := ask(m[1]); q != "" {
					qs = append(qs, question{text: q, page: filepath.ToSlash(rel)})
				}
				continue
			}
			kept = append(kept, l)
		}
		dst := filepath.Join(desk, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(strings.Join(kept, "\n")+"\n"), 0o644)
	})
	if err != nil {
		return nil, err
	}
	hub := filepath.Join(desk, "Карта оргзнания.md")
	f, err := os.OpenFile(hub, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "\n- [[%s]]\n", home)
	if err := f.Close(); err != nil {
		return nil, err
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].page < qs[j].page })
	for i := range qs {
		qs[i].dev = i%2 == 0
	}
	return qs, nil
}

// ask makes a description a question: unquoted, its first sentence, the
// stock opening dropped.
func ask(desc string) string {
	d := strings.Trim(strings.TrimSpace(desc), `'"`)
	if i := strings.Index(d, ". "); i > 0 {
		d = d[:i]
	}
	d = strings.TrimSuffix(d, ".")
	if d == "null" {
		return ""
	}
	return strings.TrimSpace(boilerplate.ReplaceAllString(d, ""))
}
