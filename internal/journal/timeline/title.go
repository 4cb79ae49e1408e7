package timeline

import "github.com/cerebro-mem/cerebro/internal/journal/daily"

// sectionTitle is the session's title the heading names ("" when it names
// none: an older section, or a session without one).
func sectionTitle(e daily.Entry) string { return e.Title }
