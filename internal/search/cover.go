package search

import "github.com/cerebro-mem/cerebro/internal/text/textan"

// Share is the share of query's informative weight each of texts holds:
// the measure [Result.Coverage] gives a result's passage (see coverage),
// weighed by the word counts of the desk index in indexDir (read as it
// is, through the first of roots it holds), without its floor of one
// content word. The floor keeps auto-recall, which nobody asked for, from
// answering a prompt made of words common in the memory; a question
// asked on purpose is answered by a passage holding its words, however
// common they are. Recall cuts a result at its sections (one remembered
// record each) and measures each part it shows by this. Without an index
// every word weighs as the rarest.
func Share(indexDir string, roots []Root, query string, texts []string) ([]float64, error) {
	stems := textan.QueryTerms(query)
	var df map[string]float64
	var n float64
	for _, r := range roots {
		ix, err := openExisting(indexDir, r)
		if err != nil {
			return nil, err
		}
		if ix == nil {
			continue
		}
		df, n, err = ix.docFreqs(stems)
		ix.Close()
		if err != nil {
			return nil, err
		}
		break
	}
	g := gateWeights(stems, df, n)
	var total float64
	for _, s := range stems {
		total += g[s].w
	}
	out := make([]float64, len(texts))
	if total == 0 {
		return out, nil
	}
	for i, t := range texts {
		have := map[string]bool{}
		for _, s := range textan.Stems(t) {
			have[s] = true
		}
		out[i] = coverage(stems, g, have) * max(total, 1) / total
	}
	return out, nil
}
