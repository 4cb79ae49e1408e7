package search

import (
	"math"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Share weighs a question's words as the auto-recall gate does — a word
// in many notes little, a filler word hardly and never to its credit —
// but without the gate's floor of one content word: a text holding the
// one word of a question, a word common in the memory, holds all of it,
// where the gate's coverage stays at that word's small weight.
func TestShareIsCoverageWithoutItsFloor(t *testing.T) {
	state, roots := plantedMemory(t)
	got, err := Share(state, roots, "Axolotl", []string{"Axolotl Pay refunds", "Kafka retention"})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0]-1) > 1e-9 || got[1] != 0 {
		t.Fatalf("shares %v, want 1 for the word held and 0 for none", got)
	}
	ix, err := openExisting(state, roots[0])
	if err != nil || ix == nil {
		t.Fatalf("the planted index: %v", err)
	}
	stems := textan.QueryTerms("Axolotl")
	df, n, err := ix.docFreqs(stems)
	ix.Close()
	if err != nil {
		t.Fatal(err)
	}
	if c := coverage(stems, gateWeights(stems, df, n), map[string]bool{stems[0]: true}); c >= 0.9 {
		t.Fatalf("the gate's coverage of a common word is %v: the case shows no floor", c)
	}
	filler, err := Share(state, roots, "please fix the export timeout", []string{"the export job failed on a timeout"})
	if err != nil || filler[0] <= 0.5 || filler[0] >= 1 {
		t.Fatalf("filler words dilute a little and never count: %v, %v", filler, err)
	}
	none, err := Share(state, roots, "what is it", []string{"what is it"})
	if err != nil || none[0] != 0 {
		t.Fatalf("a question of stop words holds nothing: %v, %v", none, err)
	}
}
