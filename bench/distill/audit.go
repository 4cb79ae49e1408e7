package main

// The grounding audit: every commit hash, file changed, test verdict and
// push range an inject states must be found in what the session's tools
// returned (its transcript and its subagents'), read here straight from
// the JSON lines — not through the distiller's code. A claim not found is
// an untruth the distillate made up.

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"
)

type evidence struct {
	outputs []string        // every tool result's text
	written map[string]bool // base names of files a Write/Edit call changed without error
}

func readEvidence(files []string) evidence {
	ev := evidence{written: map[string]bool{}}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		writes := map[string]string{} // tool_use id → file
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			gjson.GetBytes(line, "message.content").ForEach(func(_, b gjson.Result) bool {
				switch b.Get("type").Str {
				case "tool_use":
					switch b.Get("name").Str {
					case "Write", "Edit", "MultiEdit", "NotebookEdit":
						p := b.Get("input.file_path").Str
						if p == "" {
							p = b.Get("input.notebook_path").Str
						}
						writes[b.Get("id").Str] = filepath.Base(p)
					}
				case "tool_result":
					text := b.Get("content").String()
					if c := b.Get("content"); c.IsArray() {
						var parts []string
						c.ForEach(func(_, p gjson.Result) bool { parts = append(parts, p.Get("text").Str); return true })
						text = strings.Join(parts, "\n")
					}
					ev.outputs = append(ev.outputs, text)
					if f, ok := writes[b.Get("tool_use_id").Str]; ok && !b.Get("is_error").Bool() {
						ev.written[f] = true
					}
				}
				return true
			})
		}
		fh.Close()
	}
	return ev
}

func (ev evidence) printed(s string) bool {
	for _, o := range ev.outputs {
		if strings.Contains(o, s) {
			return true
		}
	}
	return false
}

var (
	claimCommit  = regexp.MustCompile(`committed ([0-9a-f]{7})\b`)
	claimChanged = regexp.MustCompile("(?m)^- changed: (.*)$")
	claimCode    = regexp.MustCompile("`([^`]+)`")
	claimTests   = regexp.MustCompile(`(?m)tests: .*? \d+ passed, \d+ failed \((.+?)\)(?:;|$)`)
	claimPush    = regexp.MustCompile(`pushed .*?\(([0-9a-f]{7,}\.\.\.?[0-9a-f]{7,})\)`)
)

// audit checks an inject's claims against the evidence; it returns how
// many it checked and the ones it could not find.
func audit(inject string, ev evidence) (int, []string) {
	n := 0
	var bad []string
	check := func(ok bool, claim string) {
		n++
		if !ok {
			bad = append(bad, claim)
		}
	}
	for _, m := range claimCommit.FindAllStringSubmatch(inject, -1) {
		check(ev.printed(m[1]), m[0])
	}
	for _, m := range claimChanged.FindAllStringSubmatch(inject, -1) {
		for _, c := range claimCode.FindAllStringSubmatch(m[1], -1) {
			check(ev.written[filepath.Base(c[1])], "changed "+c[1])
		}
	}
	for _, m := range claimTests.FindAllStringSubmatch(inject, -1) {
		check(ev.printed(m[1]), "tests: "+m[1])
	}
	for _, m := range claimPush.FindAllStringSubmatch(inject, -1) {
		check(ev.printed(m[1]), "pushed "+m[1])
	}
	return n, bad
}

// sessionFiles are a fixture session's transcript and its subagents'.
func sessionFiles(dir, file string) []string {
	stem := strings.TrimSuffix(file, ".jsonl")
	files := []string{filepath.Join(dir, file)}
	nested, _ := filepath.Glob(filepath.Join(dir, stem+"__subagents__*.jsonl"))
	files = append(files, nested...)
	if i := strings.LastIndex(stem, "__"); i > 0 {
		flat, _ := filepath.Glob(filepath.Join(dir, stem[:i]+"__agent-*.jsonl"))
		files = append(files, flat...)
	}
	return files
}
