package search

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpdateText: memory with no folder says so and indexes nothing; a
// root's line names its files and chunks on out, and the progress counter
// reaches errw only on a terminal.
func TestUpdateText(t *testing.T) {
	base := t.TempDir()
	short := filepath.Join(base, "short")
	m := &Memory{Base: base, IndexDir: t.TempDir(), Options: defaults(), Roots: []Root{{Dir: short, Kind: KindShort}}}
	var out, errw bytes.Buffer
	if err := m.UpdateText(context.Background(), isoDay("2026-11-30"), &out, &errw, true); err != nil {
		t.Fatal(err)
	}
	if out.String() != "no memory folders yet; nothing to index\n" || errw.Len() != 0 {
		t.Fatalf("no folder: out %q, err %q", out.String(), errw.String())
	}

	write(t, filepath.Join(short, "daily", "2026-11-30.md"), "# 2026-11-30\n\nThe printer jammed.\n")
	out.Reset()
	if err := m.UpdateText(context.Background(), isoDay("2026-11-30"), &out, &errw, false); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "short: 1 files, ") || !strings.Contains(out.String(), "(1 read again, 0 removed, rebuilt)") || errw.Len() != 0 {
		t.Fatalf("off a terminal: out %q, err %q", out.String(), errw.String())
	}

	write(t, filepath.Join(short, "daily", "2026-11-29.md"), "# 2026-11-29\n\nThe router firmware was updated.\n")
	out.Reset()
	if err := m.UpdateText(context.Background(), isoDay("2026-11-30"), &out, &errw, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errw.String(), "\rindexing "+short+": ") || !strings.HasSuffix(errw.String(), "\n") || !strings.HasPrefix(out.String(), "short: 2 files, ") {
		t.Fatalf("on a terminal: out %q, err %q", out.String(), errw.String())
	}
}
