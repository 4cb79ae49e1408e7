package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// A 6 MB page of 3 million one-character lines is indexed, searched and
// read with memory_get's read (whole, and a window of its lines) within
// the hooks' memory bound: the heap in use over what it was before stays
// under 200 MB at every step, sampled while each runs.
func TestMillionLinePageInBoundedMemory(t *testing.T) {
	proj := t.TempDir()
	page := filepath.Join(proj, ".claude", "memory_long", "wiki", "Lines.md")
	os.MkdirAll(filepath.Dir(page), 0o755)
	os.WriteFile(page, []byte("# Lines\n\nthe quarry ledger\n"+strings.Repeat("x\n", 3_000_000)), 0o644)
	m, _, err := OpenMemory(setupFor(t, proj))
	if err != nil {
		t.Fatal(err)
	}
	const bound = 200 << 20
	var resp *Response
	steps := map[string]func(){
		"index": func() {
			if err := m.Update(context.Background(), time.Now(), func(Root, int, int) {}, func(RootReport) {}); err != nil {
				t.Fatal(err)
			}
		},
		"search": func() {
			if resp, err = m.Query(context.Background(), "quarry ledger", 5, time.Now(), nil); err != nil {
				t.Fatal(err)
			}
		},
		"get whole": func() {
			if _, err := m.Get(page, 0, 0); err != nil {
				t.Fatal(err)
			}
		},
		"get window": func() {
			got, err := m.Get(page, 2_000_000, 10)
			if err != nil || got.Text != strings.Repeat("x\n", 10) {
				t.Fatalf("a window of 10 lines: %q %v", got.Text, err)
			}
		},
	}
	for _, name := range []string{"index", "search", "get whole", "get window"} {
		peak := testfile.PeakHeap(steps[name])
		t.Logf("%s: peak heap %d MB over the start", name, peak>>20)
		if peak > bound {
			t.Errorf("%s: peak heap %d MB, over the bound of %d MB", name, peak>>20, bound>>20)
		}
	}
	if resp == nil || len(resp.Results) == 0 {
		t.Fatalf("the page's heading line is not found: %+v", resp)
	}
}
