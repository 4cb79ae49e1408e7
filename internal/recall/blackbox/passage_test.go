package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// TestRecallItemIsAFocusedPassage: a level-2 item is the lines of its
// section around the question's words, cited path#Lstart-Lend — in a long
// section of short lines, and in a line 4,000 characters long with the
// match 2,700 characters in, asked in another Russian case.
func TestRecallItemIsAFocusedPassage(t *testing.T) {
	box := newBox(t)
	daily := filepath.Join(box.Root, ".claude", "memory_short", "daily")
	var b strings.Builder
	b.WriteString("# 2026-11-20\n\n## 10:00 · session 1\n\n")
	for i := 1; i <= 40; i++ {
		if i == 31 {
			b.WriteString("- Dima: the staging database password rotates every Friday at noon\n")
			continue
		}
		fmt.Fprintf(&b, "- Anna: item %d of a long talk about lunch, weather and the garden\n", i)
	}
	writeFile(t, filepath.Join(daily, "2026-11-20.md"), b.String()) // line 35 holds the answer
	fill := ""
	for utf8.RuneCountInString(fill) < 2700 {
		fill += "в саду стояла старая скамейка, которую никто не красил много лет подряд; "
	}
	line := fill + "Ключи развёртывания меняют каждые девяносто дней, их хранит Дима. " + fill
	writeFile(t, filepath.Join(daily, "2026-11-21.md"), "# 2026-11-21\n\n## 09:00 · заметки\n\n"+line+"\n")

	for _, tc := range []struct{ q, cite, want string }{
		{"when does the staging database password rotate", ".claude/memory_short/daily/2026-11-20.md#", "staging database password rotates every Friday"},
		{"кто хранит ключи развертывания", ".claude/memory_short/daily/2026-11-21.md#L5-L5", "Ключи развёртывания меняют каждые девяносто дней, их хранит Дима."},
	} {
		req, fates, err := ParseRecall(raw(t, fmt.Sprintf(`{"text": %q}`, tc.q)), box.Caps())
		if err != nil {
			t.Fatal(err)
		}
		ans, err := box.Recall(context.Background(), req, fates, time.Now())
		if err != nil || ans.DepthUsed != LevelText || len(ans.Items) == 0 {
			t.Fatalf("%s: depth %d, %d items, %v", tc.q, ans.DepthUsed, len(ans.Items), err)
		}
		it := ans.Items[0]
		if !strings.HasPrefix(it.Cite, tc.cite) || !strings.Contains(it.Text, tc.want) {
			t.Fatalf("%s: item %s does not show the answer:\n%s", tc.q, it.Cite, it.Text)
		}
		if n := utf8.RuneCountInString(it.Text); n > PassageChars {
			t.Fatalf("%s: item of %d characters", tc.q, n)
		}
		var from, to int
		if _, err := fmt.Sscanf(it.Cite[strings.LastIndex(it.Cite, "#")+1:], "L%d-L%d", &from, &to); err != nil {
			t.Fatalf("cite %q: %v", it.Cite, err)
		}
		if shown := strings.Count(it.Text, "\n") + 1; shown != to-from+1 {
			t.Fatalf("%s: cites %d lines, shows %d", it.Cite, to-from+1, shown)
		}
		if tc.cite == ".claude/memory_short/daily/2026-11-20.md#" {
			if from > 35 || to < 35 || from < 20 || strings.Contains(it.Text, "…") {
				t.Fatalf("whole lines around line 35 wanted, got %s:\n%s", it.Cite, it.Text)
			}
		} else {
			body := strings.TrimSuffix(strings.TrimPrefix(it.Text, "…"), "…")
			i := strings.Index(line, body)
			if !strings.HasPrefix(it.Text, "…") || !strings.HasSuffix(it.Text, "…") || i <= 0 {
				t.Fatalf("a window of the long line wanted:\n%s", it.Text)
			}
			before, _ := utf8.DecodeLastRuneInString(line[:i])
			after, _ := utf8.DecodeRuneInString(line[i+len(body):])
			first, _ := utf8.DecodeRuneInString(body)
			last, _ := utf8.DecodeLastRuneInString(body)
			if unicode.IsLetter(before) && unicode.IsLetter(first) || unicode.IsLetter(after) && unicode.IsLetter(last) {
				t.Fatalf("cut mid-word (%q before, %q after):\n%s", before, after, it.Text)
			}
		}
	}
}
