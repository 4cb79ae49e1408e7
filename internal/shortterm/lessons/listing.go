package lessons

import (
	"fmt"
	"io"
)

// Row is one lesson as `memhook lessons` shows it: the line, and what its
// reminders did.
type Row struct {
	Lesson
	Stat    Stat `json:"record"`
	Retired bool `json:"retired"`
}

// Listing is a project's lessons with their record.
type Listing struct {
	File     string   `json:"file"`
	Rows     []Row    `json:"lessons"`
	Enforced []string `json:"enforced,omitempty"` // lessons.enforce, the person's setting
	// Cut: the file goes on past what the hooks read (MaxFileBytes,
	// MaxLessons); the next flush writes it back within them.
	Cut bool `json:"cut,omitempty"`
}

// List reads the project's lessons (the whole file, within the bounds)
// and their record.
func List(root string, rec Record, retireAfter int, enforce []string) (Listing, error) {
	f, err := Read(root)
	if err != nil {
		return Listing{}, fmt.Errorf("read the lessons: %w", err)
	}
	stats, err := rec.Stats()
	if err != nil {
		return Listing{}, err
	}
	out := Listing{File: Path(root), Cut: f.Cut}
	for _, r := range Rules(enforce) {
		out.Enforced = append(out.Enforced, r.Decision+" "+r.Key)
	}
	for _, l := range f.Lessons {
		s := stats[l.Key]
		out.Rows = append(out.Rows, Row{Lesson: l, Stat: s, Retired: !l.Pinned && s.Retired(retireAfter)})
	}
	return out, nil
}

// WriteText prints the listing, a lesson a line and its record under it.
func (l Listing) WriteText(w io.Writer) {
	if len(l.Rows) == 0 {
		fmt.Fprintf(w, "no lessons yet (%s)\n", l.File)
	}
	for _, r := range l.Rows {
		mark := ""
		switch {
		case r.Pinned:
			mark = " (pinned)"
		case r.Retired:
			mark = " (retired: not shown any more)"
		}
		fmt.Fprintf(w, "%s [%s] %s%s\n  %s\n  from %s (%s); reminded %d, heeded %d, repeated anyway %d",
			"-", r.Kind, r.Key, mark, r.Text(), r.Source, r.Date, r.Stat.Shown, r.Stat.Heeded, r.Stat.Repeated)
		if r.Stat.FixFailed > 0 {
			fmt.Fprintf(w, ", its fix failed %d", r.Stat.FixFailed)
		}
		fmt.Fprintln(w)
	}
	if l.Cut {
		fmt.Fprintf(w, "the file goes on past what is read (%d KiB, %d lessons): the rest is not used\n", MaxFileBytes>>10, MaxLessons)
	}
	for _, e := range l.Enforced {
		fmt.Fprintf(w, "enforced by your settings (lessons.enforce): %s\n", e)
	}
}

// Edit pins, unpins or removes the lesson of key in the project's file.
func Edit(root, key, action string) error {
	found := false
	err := Update(root, func(f *File) bool {
		i := f.index(key)
		if i < 0 {
			return false
		}
		found = true
		switch action {
		case "pin":
			f.Lessons[i].Pinned = true
		case "unpin":
			f.Lessons[i].Pinned = false
		case "rm":
			f.Lessons = append(f.Lessons[:i], f.Lessons[i+1:]...)
		}
		return true
	})
	if err != nil {
		return fmt.Errorf("%s lesson %q: %w", action, key, err)
	}
	if !found {
		return fmt.Errorf("%s lesson %q: no such lesson in %s (memhook lessons lists them)", action, key, Path(root))
	}
	return nil
}
