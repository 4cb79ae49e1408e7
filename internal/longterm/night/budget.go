package night

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Budget bounds the model calls of one night, across every project the
// night visits: a number of calls and a number of estimated input tokens.
// A call that would pass either is not made, and the night's model steps
// stop there; the remaining work waits for the next night.
type Budget struct {
	MaxCalls  int    `json:"max_calls"`
	MaxTokens int    `json:"max_tokens"`
	Date      string `json:"date"`   // the night it counts
	Calls     int    `json:"calls"`  // calls made so far this night
	Tokens    int    `json:"tokens"` // estimated input tokens sent so far
	Stopped   bool   `json:"-"`      // a call was refused in this run
	path      string
}

// EstimateTokens is the input-token estimate the budget counts: a quarter
// of the prompt's bytes, rounded up. It needs no tokenizer and errs high
// for Cyrillic text (two bytes a letter), which keeps the bound safe.
func EstimateTokens(prompt string) int { return (len(prompt) + 3) / 4 }

// Allow reports whether a call with this prompt fits what is left, and
// marks the budget stopped when it does not.
func (b *Budget) Allow(prompt string) bool {
	if b.Stopped || b.Calls+1 > b.MaxCalls || b.Tokens+EstimateTokens(prompt) > b.MaxTokens {
		b.Stopped = true
		return false
	}
	return true
}

// Spend counts one call.
func (b *Budget) Spend(prompt string) {
	b.Calls++
	b.Tokens += EstimateTokens(prompt)
}

// LoadBudget reads what this night (date) already spent from path, so a
// second run on the same night shares the same bound; another date
// starts from zero. An unreadable file starts from zero too.
func LoadBudget(path, date string, maxCalls, maxTokens int) *Budget {
	b := &Budget{MaxCalls: maxCalls, MaxTokens: maxTokens, Date: date, path: path}
	if path == "" {
		return b
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return b
	}
	var old Budget
	if json.Unmarshal(data, &old) == nil && old.Date == date {
		b.Calls, b.Tokens = old.Calls, old.Tokens
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
