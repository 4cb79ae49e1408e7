//go:build e2e

package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// headed returns the lines under every "### head" heading of a distillate
// or inject, up to the next heading or the end of the memory block.
func headed(text, head string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(strings.TrimLeft(line, "#")) == head
			continue
		}
		if strings.HasPrefix(line, "</memory>") {
			// The memory block ends; what follows in the same system
			// message is Claude Code's, not cerebro's.
			in = false
			continue
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// cerebroCommandText is any trace of the commands the session ran.
var cerebroCommandText = regexp.MustCompile(`(?i)/cerebro:|\bflush\b|recall kestrel|memory_long_active|\bhealth\b`)

// TestOwnCommandsAreNotRequests: a live session mixing ordinary prompts
// with /cerebro:flush, /cerebro:recall, /cerebro:memory_long_active on and
// /cerebro:health leaves distillates, and a next-session inject, whose
// Asked and Open name none of those commands, while the one command that
// changed something (long-term memory switched on) is a single outcome line.
func TestOwnCommandsAreNotRequests(t *testing.T) {
	s := newSandbox(t)
	// An ordinary reply that leaves something open, and a command's reply
	// that sounds like it does: only the first belongs in Open.
	s.Mock.On(Rule{Trigger: "retry policy", Reply: func(*Turn) []Block {
		return []Block{Text("The Kestrel retry policy still needs a dead-letter queue.")}
	}})
	s.Mock.On(Rule{Trigger: commandTag("health"), Reply: func(*Turn) []Block {
		return []Block{Text("TODO: rerun the health check once long-term memory settles.")}
	}})
	id := newSessionID(t)
	live := s.Live("--session-id", id)
	live.Send("Let us name the ingestion worker Kestrel")
	live.Send("The Kestrel worker reads events from the Bilby queue")
	live.Send("/cerebro:flush")
	live.Send("/cerebro:recall kestrel")
	live.Send("We decided to batch Bilby events by the hundred")
	live.Send("Next we need a retry policy for the Kestrel worker")
	// The session ends on commands, as in the issue, where the last one
	// was taken for an unanswered request.
	live.Send("/cerebro:memory_long_active on")
	live.Send("/cerebro:health")
	live.Close()

	secs := sectionsOf(Sections(s.Daily()), id)
	if len(secs) == 0 {
		t.Fatalf("the session left no section:\n%s", s.Daily())
	}
	all := ""
	for _, sec := range secs {
		all += sec.Body
	}
	for _, want := range []string{"Kestrel", "Bilby queue", "batch Bilby events", "retry policy"} {
		if !strings.Contains(all, want) {
			t.Errorf("the distillates lack the ordinary prompt's %q:\n%s", want, s.Daily())
		}
	}
	if !strings.Contains(headed(all, "Asked"), "retry policy for the Kestrel worker") {
		t.Fatalf("the distillates' Asked lacks the ordinary prompts:\n%s", s.Daily())
	}
	if !strings.Contains(headed(all, "Open"), "dead-letter queue") {
		t.Fatalf("the distillates' Open lacks what the ordinary reply left open:\n%s", s.Daily())
	}
	for _, head := range []string{"Asked", "Open"} {
		if m := cerebroCommandText.FindString(headed(all, head)); m != "" {
			t.Errorf("the distillates' %s names a cerebro command (%q):\n%s", head, m, s.Daily())
		}
	}
	// The command is recorded as run, in the user's own words: whether it
	// switched anything on is memory's own record, not the distillate's.
	const ranLine = "cerebro: `/cerebro:memory_long_active on`"
	if n := strings.Count(all, ranLine); n != 1 {
		t.Errorf("the distillates have %d outcome lines for switching long-term memory on, want 1:\n%s", n, s.Daily())
	}
	for _, quiet := range []string{"/cerebro:flush`", "/cerebro:recall", "/cerebro:health`"} {
		if strings.Contains(all, quiet) {
			t.Errorf("%q changed nothing yet has an outcome line:\n%s", quiet, s.Daily())
		}
	}

	next := s.Prompt("Where did we leave the Kestrel worker?")
	ctx := injected(s.firstRequestOf(next.SessionID()))
	if !strings.Contains(ctx, "retry policy") {
		t.Fatalf("the next session was not injected with the distillate; it got:\n%s", ctx)
	}
	if !strings.Contains(headed(ctx, "Asked"), "retry policy for the Kestrel worker") {
		t.Fatalf("the next session's inject has no Asked with the ordinary prompts:\n%s", ctx)
	}
	if !strings.Contains(headed(ctx, "Open"), "dead-letter queue") {
		t.Fatalf("the next session's inject has no Open with what the ordinary reply left open:\n%s", ctx)
	}
	for _, head := range []string{"Asked", "Open"} {
		if m := cerebroCommandText.FindString(headed(ctx, head)); m != "" {
			t.Errorf("the next session's inject names a cerebro command in %s (%q):\n%s", head, m, ctx)
		}
	}
	if !strings.Contains(ctx, ranLine) {
		t.Errorf("the next session's inject lacks the outcome line of switching long-term memory on:\n%s", ctx)
	}
	s.checkHooks()
}
