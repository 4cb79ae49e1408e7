package shortterm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/atomicfile"
)

// TakeBudget counts one model call against the day's limit in dir and
// reports whether it was allowed. The count lives in one small file per
// day (budget-YYYY-MM-DD), changed under its lock.
func TakeBudget(dir string, day time.Time, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	path := filepath.Join(dir, "budget-"+day.Format("2006-01-02"))
	ok := false
	err := atomicfile.WithLock(path, func() error {
		n, err := readCount(path)
		if err != nil {
			return err
		}
		if n >= limit {
			return nil
		}
		ok = true
		return atomicfile.Write(path, []byte(strconv.Itoa(n+1)+"\n"), 0o600)
	})
	if err != nil {
		return false, fmt.Errorf("take distiller budget: %w", err)
	}
	return ok, nil
}

// BudgetUsed is the number of calls counted for day.
func BudgetUsed(dir string, day time.Time) (int, error) {
	return readCount(filepath.Join(dir, "budget-"+day.Format("2006-01-02")))
}

func readCount(path string) (int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0, nil // a torn counter restarts at zero rather than block the distiller
	}
	return n, nil
}
