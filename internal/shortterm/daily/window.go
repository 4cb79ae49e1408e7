package daily

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Window lists the daily files of today and of the days days before it,
// newest first, and the dates of the older ones, oldest first (so a reader
// can say what it left out). Only names are listed; no file is read, and
// a file named for a day after today is not listed.
func Window(dir string, today time.Time, days int) (files, older []string, err error) {
	ents, err := safefs.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list daily files: %w", err)
	}
	y, m, d := today.Date()
	last := today.Format(DateLayout)
	first := time.Date(y, m, d-days, 12, 0, 0, 0, today.Location()).Format(DateLayout)
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || len(n) != len(DateLayout)+3 || !strings.HasSuffix(n, ".md") {
			continue
		}
		date := strings.TrimSuffix(n, ".md")
		if _, err := time.Parse(DateLayout, date); err != nil || date > last {
			continue
		}
		if date < first {
			older = append(older, date)
			continue
		}
		files = append(files, filepath.Join(dir, n))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(files)))
	sort.Strings(older)
	return files, older, nil
}
