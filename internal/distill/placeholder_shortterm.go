// Package distill turns a segment of dialogue into a daily section body.
//
// This file is a stand-in written on branch shortterm against the agreed API
// until branch transcript lands; it is removed at that merge.
package distill

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/transcript"
)

// Segment is the dialogue since the last flush.
type Segment struct {
	SessionID, Project string
	Start, End         time.Time
	Trigger            string
	Items              []transcript.Item
}

// Claude configures the claude -p distiller.
type Claude struct {
	Command, Model string
	Timeout        time.Duration
	Env            []string
}

// Extractive is the deterministic distillate.
func Extractive(seg Segment) string {
	var asked, done, files []string
	for _, it := range seg.Items {
		switch it.Role {
		case "user":
			asked = append(asked, "- "+oneLine(it.Text))
		case "assistant":
			if it.Text != "" {
				done = append(done, "- "+oneLine(it.Text))
			}
			for _, t := range it.Tools {
				if t.Target != "" {
					files = append(files, fmt.Sprintf("- `%s`", t.Target))
				}
			}
		}
	}
	var b strings.Builder
	for _, s := range []struct {
		h     string
		lines []string
	}{{"Asked", asked}, {"Done", done}, {"Files and commands", files}} {
		if len(s.lines) > 0 {
			fmt.Fprintf(&b, "### %s\n%s\n", s.h, strings.Join(s.lines, "\n"))
		}
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// Fallback calls claude and falls back to Extractive.
func Fallback(ctx context.Context, c Claude, seg Segment) (string, bool, error) {
	return Extractive(seg), false, errors.New("claude distiller not available in the stand-in")
}
