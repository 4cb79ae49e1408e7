package distill

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongAnswerKeepsItsRunInHeads: a reply longer than an answer's
// bound keeps, after its opening, the bold heads its paragraphs open with
// (with the sentence after a short one); a list item's bold and a heading
// are not heads; a reply within the bound is kept as it was.
func TestLongAnswerKeepsItsRunInHeads(t *testing.T) {
	filler := strings.Repeat("The rule is easy to get wrong when modern defaults are assumed by the reader. ", 8)
	// Each paragraph is longer than a line of an answer: the opening
	// holds the first two, cut, and the heads after them are the outline.
	reply := "Here's my analysis of the brief.\n\n" +
		"**1. The scoring rule is the real test.** " + filler + "\n\n" +
		"**2. Goal average breaks ties.** " + filler + "\n\n" +
		"**3. \"The 10th week\" is ambiguous, on purpose.** " + filler + "\n\n" +
		"- **Two points for a win** until the season the rule changed.\n\n" +
		"## What else they check\n\n" +
		"**Language.** Still undecided. Python is fastest to test.\n"
	body := bodyOf(newSession(t).
		User("analyse the brief").
		Say(reply).
		User("set up the folder").
		Say("Done: the folder is set up."))
	answers := answersOf(body)
	if len(answers) != 1 {
		t.Fatalf("answers: %q\n%s", answers, body)
	}
	answer := answers[0]
	for _, want := range []string{"Here's my analysis of the brief.", "… \"The 10th week\" is ambiguous, on purpose. … Language. Still undecided."} {
		if !strings.Contains(answer, want) {
			t.Errorf("answer lacks %q: %s", want, answer)
		}
	}
	if strings.Contains(answer, "What else they check") || strings.Contains(answer, "Python is fastest") {
		t.Errorf("answer holds a heading or more than a head's sentence: %s", answer)
	}
	if n := utf8.RuneCountInString(answer); n > answerRunes {
		t.Errorf("answer is %d runes, over its bound %d", n, answerRunes)
	}

	short := bodyOf(newSession(t).
		User("analyse the brief").
		Say("Here's my analysis.\n\n**1. Scoring.** Two points for a win.\n\n**2. Week.** It is ambiguous.").
		User("set up the folder").
		Say("Done: the folder is set up."))
	if got := answersOf(short); len(got) != 1 || got[0] != "Here's my analysis. 1. Scoring. Two points for a win. 2. Week. It is ambiguous." {
		t.Errorf("a short answer changed: %q", got)
	}
}

// answersOf lists the answers under a body's requests.
func answersOf(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if a, ok := strings.CutPrefix(line, "  - answer: "); ok {
			out = append(out, a)
		}
	}
	return out
}
