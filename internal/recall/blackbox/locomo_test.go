package blackbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
)

// locomoConv is one LoCoMo conversation as the tests need it.
type locomoConv struct {
	ID           string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string   `json:"question"`
		Evidence []string `json:"evidence"`
		Category int      `json:"category"`
	} `json:"qa"`
}

// writeLocomo writes each session of c as a daily file the way
// bench/search/locomo does: a section per session, one line per turn
// carrying its dia_id.
func writeLocomo(t *testing.T, dir string, c locomoConv) {
	t.Helper()
	for n := 1; ; n++ {
		key := "session_" + strconv.Itoa(n)
		raw, ok := c.Conversation[key]
		if !ok {
			return
		}
		var when string
		json.Unmarshal(c.Conversation[key+"_date_time"], &when)
		at, err := time.Parse("3:04 pm on 2 January, 2006", strings.TrimSpace(when))
		if err != nil {
			t.Fatalf("%s %s: %v", c.ID, key, err)
		}
		var turns []struct {
			Speaker, Text string
			DiaID         string `json:"dia_id"`
			Caption       string `json:"blip_caption"`
		}
		if err := json.Unmarshal(raw, &turns); err != nil {
			t.Fatal(err)
		}
		day := at.Format("2006-01-02")
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: daily\ndate: %s\n---\n\n# %s\n\n## %s · session %d · manual\n\n", day, day, at.Format("15:04"), n)
		for _, tr := range turns {
			text := strings.ReplaceAll(tr.Text, "\n", " ")
			if tr.Caption != "" {
				text += " [shared an image: " + tr.Caption + "]"
			}
			fmt.Fprintf(&b, "- [%s] %s: %s\n", tr.DiaID, tr.Speaker, text)
		}
		name := day + ".md"
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			name = fmt.Sprintf("%s session %d.md", day, n)
		}
		writeFile(t, filepath.Join(dir, name), b.String())
	}
}

// holdsEvidence tells whether text shows a turn of the evidence.
func holdsEvidence(text string, evidence []string) bool {
	for _, e := range evidence {
		for _, id := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
			if strings.Contains(text, "["+id+"]") {
				return true
			}
		}
	}
	return false
}

// TestRecallItemsHoldTheEvidence: over the LoCoMo dev conversations
// (questions of categories 1–4), the item recall answers with shows an
// evidence turn for most answered questions, where the whole section it
// came from, cut at 1,200 characters as items were before, rarely did.
// Each item's text is exactly the lines its cite names (a cut line marked
// by an ellipsis), at most PassageChars long.
func TestRecallItemsHoldTheEvidence(t *testing.T) {
	data, err := os.ReadFile(testfile.Shared(t, "bench", "locomo-dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	var convs []locomoConv
	if err := json.Unmarshal(data, &convs); err != nil {
		t.Fatal(err)
	}
	var asked, answered, top, cited, any, before int
	for _, c := range convs {
		root := t.TempDir()
		daily := filepath.Join(root, ".claude", "memory_short", "daily")
		writeLocomo(t, daily, c)
		box := &Box{Root: root, LongDir: filepath.Join(root, ".claude", "memory_long"), Text: indexedText(t, root, time.Now), OffersPath: filepath.Join(root, "offers.jsonl")}
		files := map[string][]string{}
		for _, qa := range c.QA {
			if qa.Category < 1 || qa.Category > 4 || len(qa.Evidence) == 0 {
				continue
			}
			asked++
			req, fates, err := ParseRecall(Raw{"text": json.RawMessage(strconv.Quote(qa.Question))}, box.Caps())
			if err != nil {
				t.Fatal(err)
			}
			ans, err := box.Recall(context.Background(), req, fates, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if ans.DepthUsed != LevelText || len(ans.Items) == 0 {
				continue
			}
			answered++
			if holdsEvidence(strings.Join(citedLines(t, root, files, ans.Items[0].Cite), "\n"), qa.Evidence) {
				cited++
			}
			for _, it := range ans.Items {
				checkItemLines(t, root, files, it)
			}
			for i, it := range ans.Items {
				if holdsEvidence(it.Text, qa.Evidence) {
					if i == 0 {
						top++
					}
					any++
					break
				}
			}
			// the first item as it was: its whole section, cut at 1,200 characters
			if holdsEvidence(sectionOf(t, root, ans.Items[0].Cite), qa.Evidence) {
				before++
			}
		}
	}
	share := func(n int) float64 { return float64(n) / float64(max(answered, 1)) }
	t.Logf("LoCoMo dev, %d questions, %d answered at level 2: the first item shows an evidence turn in %d (%.2f) and cites its line in %d (%.2f), any item shows one in %d (%.2f); the whole section cut at 1,200 characters did in %d (%.2f)",
		asked, answered, top, share(top), cited, share(cited), any, share(any), before, share(before))
	fmt.Printf("recall items showing the evidence (LoCoMo dev): first item %.2f (its cite holds the line: %.2f), any item %.2f; sections cut at 1,200 characters as before %.2f (%d answered of %d)\n",
		share(top), share(cited), share(any), share(before), answered, asked)
	if answered < asked/3 {
		t.Fatalf("only %d of %d questions answered at level 2", answered, asked)
	}
	if share(top) < 0.45 || top <= before {
		t.Fatalf("the first item shows the evidence in %d of %d answers (sections cut at 1,200 characters: %d)", top, answered, before)
	}
}

// checkItemLines asserts an item's text is the lines its cite names: each
// line whole, or cut where an ellipsis says so.
func checkItemLines(t *testing.T, root string, files map[string][]string, it Item) {
	t.Helper()
	path, a, b, ok := cite.Parse(it.Cite)
	if !ok {
		t.Fatalf("cite %q is not path#Lstart-Lend", it.Cite)
	}
	lines := citedLines(t, root, files, it.Cite)
	if n := len([]rune(it.Text)); n > PassageChars {
		t.Fatalf("item of %d characters", n)
	}
	shown := strings.Split(it.Text, "\n")
	if len(shown) != b-a+1 {
		t.Fatalf("%s cites %d lines, the text has %d:\n%s", it.Cite, b-a+1, len(shown), it.Text)
	}
	for i, s := range shown {
		line := lines[i]
		s = strings.TrimSuffix(strings.TrimPrefix(s, "…"), "…")
		if !strings.Contains(line, s) || (s != strings.TrimSpace(line) && s != line && !strings.Contains(shown[i], "…")) {
			t.Fatalf("line %d of %s is %q, the item shows %q", a+i, path, line, shown[i])
		}
	}
}

// sectionOf is the text of the section holding the first line a cite
// names, as a level-2 item showed it before items were focused: the whole
// section, markers out, cut at 1,200 characters.
func sectionOf(t *testing.T, root, c string) string {
	path, n, _, _ := cite.Parse(c)
	for _, s := range sections(filepath.Join(root, path)) {
		if s.line <= n && n <= s.end {
			return describe(path, s).section
		}
	}
	t.Fatalf("no section of %s holds line %d", path, n)
	return ""
}

// citedLines reads the lines a cite path#Lstart-Lend names.
func citedLines(t *testing.T, root string, files map[string][]string, c string) []string {
	t.Helper()
	path, a, b, _ := cite.Parse(c)
	lines, seen := files[path]
	if !seen {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(string(data), "\n")
		files[path] = lines
	}
	if a < 1 || b > len(lines) || a > b {
		t.Fatalf("cite %s is outside the file's %d lines", c, len(lines))
	}
	return lines[a-1 : b]
}
