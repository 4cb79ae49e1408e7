package night

import (
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/longterm"
)

// descriptions tidies the cards whose description grew by repetition
// (see [longterm.CleanDescription]), in one commit. It needs no model and
// runs every night: a tidy description is left as it is, so a second pass
// writes nothing.
func (n *run) descriptions() {
	v, err := n.s.LoadVault()
	if err != nil {
		n.rep.problem(fmt.Errorf("descriptions: %w", err))
		return
	}
	var grown []string
	for _, p := range cards(v) {
		d, ok := p.Meta["description"].(string)
		if ok && longterm.CleanDescription(d) != strings.Join(strings.Fields(d), " ") {
			grown = append(grown, p.Path)
		}
	}
	if len(grown) == 0 {
		return
	}
	n.rep.ran("descriptions")
	if n.o.DryRun {
		n.rep.ran(fmt.Sprintf("descriptions: %d to tidy", len(grown)))
		return
	}
	err = n.step("night descriptions", func() error {
		for _, p := range grown {
			_, _, changed, err := n.s.TidyDescription(p, n.o.Now)
			if err != nil {
				return err
			}
			if changed {
				n.rep.Descriptions++
				n.rep.wrote("memory_long/" + p)
			}
		}
		return nil
	})
	if err != nil {
		n.rep.problem(fmt.Errorf("descriptions: %w", err))
	}
}
