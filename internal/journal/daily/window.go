package daily

import (
	"sort"
	"time"
)

// Window lists the daily files of today and of the days days before it,
// newest first, and the dates of the older ones, oldest first (so a reader
// can say what it left out). Only names are listed; no file is read, and
// a file named for a day after today is not listed.
func Window(dir string, today time.Time, days int) (files, older []string, err error) {
	dates, err := Days(dir)
	if err != nil {
		return nil, nil, err
	}
	y, m, d := today.Date()
	last := today.Format(time.DateOnly)
	first := time.Date(y, m, d-days, 12, 0, 0, 0, today.Location()).Format(time.DateOnly)
	for i := len(dates) - 1; i >= 0; i-- {
		date := dates[i]
		switch {
		case date > last:
		case date < first:
			older = append(older, date)
		default:
			files = append(files, File(dir, date))
		}
	}
	sort.Strings(older)
	return files, older, nil
}
