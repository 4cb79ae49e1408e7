package factory

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/registry"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
)

// Decided is what one evolution round decided in one project: the rules
// it applied (from that project's settings) and each candidate's item.
type Decided struct {
	Name, Path string // with DecideAll: the project as the registry lists it
	Rules      evolve.Rules
	Items      []evolve.Item
	Err        error // with DecideAll: why this project's round failed
}

// Decide runs one evolution round over the candidates of the project at
// root, by that project's evolution settings.
func (f *Factory) Decide(root string, now time.Time, dryRun bool) (Decided, error) {
	d := Decided{Path: root, Rules: EvolveRules(f.Config(root).Evolution)}
	var err error
	d.Items, err = f.Skills(root).Decide(d.Rules, now, dryRun)
	return d, err
}

// DecideAll runs a round in every project the desk's registry lists (the
// daily job), handing each project's outcome to each as it is decided. A
// project whose folder is gone is skipped — the rollup reports
// unreachable projects — and a failing one is handed over with its Err
// while the next still runs; the error then names every one that failed.
func (f *Factory) DecideAll(now time.Time, dryRun bool, each func(Decided)) error {
	reg, err := registry.Read(f.Paths.Registry())
	if err != nil {
		return err
	}
	var failed []string
	for _, p := range reg.Projects {
		if st, err := os.Stat(p.Path); err != nil || !st.IsDir() {
			continue
		}
		d, err := f.Decide(p.Path, now, dryRun)
		d.Name, d.Err = p.Name, err
		if err != nil {
			failed = append(failed, p.Name)
		}
		each(d)
	}
	if len(failed) > 0 {
		return fmt.Errorf("evolve: failed in %s", strings.Join(failed, ", "))
	}
	return nil
}
