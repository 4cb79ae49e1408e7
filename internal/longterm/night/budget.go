package night

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Budget bounds the model calls of one night, across every project the
// night visits: a number of calls and a number of input tokens. Before a
// call, the prompt's estimate must fit what is left; after it, the input
// tokens the provider reported (fresh, written to and read from its
// cache) replace the estimate. A call whose usage the provider did not
// report whole leaves the night's spend unknown, and no call is made
// after it this night; nor after a provider failure in this run.
type Budget struct {
	MaxCalls     int    `json:"max_calls"`
	MaxTokens    int    `json:"max_tokens"`
	Date         string `json:"date"`          // the night it counts
	Calls        int    `json:"calls"`         // calls made so far this night
	Tokens       int    `json:"tokens"`        // input tokens: reported, or estimated where unreported
	OutputTokens int    `json:"output_tokens"` // output tokens the provider reported
	// Unaccounted says which call's usage was not reported whole; while it
	// is set, no call is allowed this night.
	Unaccounted string `json:"unaccounted,omitempty"`
	Failed      string `json:"-"` // a provider failure in this run: no further call
	// Day, when set, is the user's count of the night's calls on disk
	// (night.max_calls a day): each allowed call takes one from it, so
	// nights run at once in two processes never spend more together.
	Day     *claude.Budget `json:"-"`
	Stopped bool           `json:"-"` // a call was refused in this run
	path    string
}

// EstimateTokens is the input-token estimate a prompt must fit before it
// is sent: a quarter of its bytes, rounded up. It needs no tokenizer and
// errs high for Cyrillic text (two bytes a letter).
func EstimateTokens(prompt string) int { return (len(prompt) + 3) / 4 }

// Allow reports whether a call with this prompt fits what is left, and
// marks the budget stopped when it does not. An allowed call is taken
// from Day already.
func (b *Budget) Allow(prompt string) bool {
	if b.Failed != "" || b.Unaccounted != "" || b.Stopped || b.Calls+1 > b.MaxCalls || b.Tokens+EstimateTokens(prompt) > b.MaxTokens {
		b.Stopped = true
		return false
	}
	if b.Day != nil {
		day, _ := time.Parse(time.DateOnly, b.Date)
		if ok, err := b.Day.Take(day); err != nil || !ok {
			b.Stopped = true
			return false
		}
	}
	return true
}

// Reserve counts a call about to be made at its estimate, so a night that
// dies during the call has still counted it.
func (b *Budget) Reserve(estimate int) {
	b.Calls++
	b.Tokens += estimate
}

// Settle replaces a reserved call's estimate with what the provider
// reported.
func (b *Budget) Settle(estimate int, u claude.Usage) {
	b.Tokens += u.Input() - estimate
	b.OutputTokens += u.OutputTokens
}

// LoadBudget reads what this night (date) already spent from path, so a
// second run on the same night shares the same bound; another date
// starts from zero. An unreadable file starts from zero too.
func LoadBudget(path, date string, maxCalls, maxTokens int) *Budget {
	b := &Budget{MaxCalls: maxCalls, MaxTokens: maxTokens, Date: date, path: path}
	if path == "" {
		return b
	}
	data, err := safefs.ReadFile(path, 64<<10) // a few counts, never more
	if err != nil {
		return b
	}
	var old Budget
	if json.Unmarshal(data, &old) == nil && old.Date == date {
		b.Calls, b.Tokens, b.OutputTokens, b.Unaccounted = old.Calls, old.Tokens, old.OutputTokens, old.Unaccounted
	}
	return b
}

// Save writes what was spent, when the budget has a file.
func (b *Budget) Save() error {
	if b.path == "" {
		return nil
	}
	if err := safefs.MkdirAll(filepath.Dir(b.path)); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("save the night budget: %w", err)
	}
	data, _ := json.MarshalIndent(b, "", "  ")
	if err := atomicfile.Write(b.path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save the night budget: %w", err)
	}
	return nil
}
