package evolve

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
)

// WritePairs lists blind pairs for a person, one line a pair.
func WritePairs(w io.Writer, pairs []BlindPair) {
	for _, p := range pairs {
		fmt.Fprintf(w, "%s  %s  %s\n", p.Pair, p.Skill, runrec.ClipLine(p.Request, 70))
	}
}

// JudgeAsking shows each pair on out and records the choice a person
// types on in; s (or an empty line) skips a pair, q stops. It says how
// many pairs were judged.
func (p Project) JudgeAsking(in io.Reader, out io.Writer, pairs []BlindPair, now func() time.Time) {
	if len(pairs) == 0 {
		fmt.Fprintln(out, "no shadow pairs wait for a verdict")
		return
	}
	sc := bufio.NewScanner(in)
	judged := 0
	for i, bp := range pairs {
		fmt.Fprintf(out, "\n— pair %d of %d (skill %s) —\nRequest: %s\n\n[1]\n%s\n\n[2]\n%s\n\nWhich answer is better? 1, 2, b(oth good), n(either), s(kip), q(uit): ",
			i+1, len(pairs), bp.Skill, bp.Request, bp.Answer1, bp.Answer2)
		if !sc.Scan() {
			break
		}
		choice := strings.TrimSpace(sc.Text())
		if choice == "q" {
			break
		}
		if choice == "s" || choice == "" {
			continue
		}
		if err := bp.Judge(p.Journal, choice, now()); err != nil {
			fmt.Fprintf(out, "%v — skipped\n", err)
			continue
		}
		judged++
	}
	fmt.Fprintf(out, "\n%d pairs judged\n", judged)
}

// WriteDecisions lists promotions and removals for a person.
func WriteDecisions(w io.Writer, ds []runrec.Decision) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "no candidate was promoted or removed yet")
	}
	for _, d := range ds {
		fmt.Fprintf(w, "%s  %s/%s  %s  commit %.12s\n  %s\n", d.Time.Format("2006-01-02 15:04"), d.Skill, d.Candidate, d.Action, d.Commit, d.Why)
	}
}
