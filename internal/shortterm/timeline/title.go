package timeline

import "github.com/cerebro-mem/cerebro/internal/shortterm/daily"

// sectionTitle is the session's title the heading names ("" until the
// distillers write one).
func sectionTitle(daily.Entry) string { return "" }
