package orgvault

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// TrashResult tells where a page went.
type TrashResult struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Commit string `json:"commit,omitempty"`
}

func (v *Vault) trash(target string, now time.Time) (*TrashResult, error) {
	vault, err := wiki.Load(v.Root, wiki.Options{Skip: []string{TemplatesDir, RawDir}, MaxFileBytes: v.NoteBytes})
	if err != nil {
		return nil, err
	}
	target = strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(target), "./"), "]]")
	target = strings.TrimPrefix(target, "[[")
	p := vault.Resolve(target, IndexFile)
	if p == nil {
		return nil, fmt.Errorf("no page %s in the org vault", target)
	}
	if structural[p.Path] || p.Path == HubFile {
		return nil, fmt.Errorf("%s is part of the vault's structure and stays", p.Path)
	}
	to := TrashDir + "/" + p.Path
	if _, err := os.Stat(v.abs(to)); err == nil {
		ext := path.Ext(p.Path)
		to = fmt.Sprintf("%s/%s %s%s", TrashDir, strings.TrimSuffix(p.Path, ext), now.Format("2006-01-02 150405"), ext)
	}
	if err := safefs.MkdirAll(filepath.Dir(v.abs(to))); err != nil {
		return nil, fmt.Errorf("create %s: %w", path.Dir(to), err)
	}
	if err := safefs.Rename(v.abs(p.Path), v.abs(to)); err != nil {
		return nil, fmt.Errorf("move %s to %s: %w", p.Path, TrashDir, err)
	}
	changed := []string{p.Path, to}
	if removed, err := v.removeFromIndex(vault, p.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	} else if removed {
		changed = append(changed, IndexFile)
	}
	res := &TrashResult{From: p.Path, To: to}
	if res.Commit, err = v.record(now, "trash", fmt.Sprintf("%s → %s", p.Path, to), changed...); err != nil {
		return nil, err
	}
	return res, nil
}
