package search

// How results carry their citation (search.citations, as OpenClaw's
// memory.citations):
//
//   - auto, the default: each result has its citation path#Lstart-Lend in
//     its own field (JSON "citation", the head line of memhook search's
//     text, the start of an auto-recall line); the snippet is the text
//     alone.
//   - on: the same, and each snippet also ends with a line "Source:
//     path#Lstart-Lend", so that a reader quoting the snippet alone still
//     quotes where it came from (beyond the snippet's character cap).
//   - off: no citation is shown: "citation" is left out and the text
//     output names the file only. Path and lines stay in the result, so
//     memhook get can still read on; only the citation is kept out of
//     what a reader would repeat.
const (
	CitationsAuto = "auto"
	CitationsOn   = "on"
	CitationsOff  = "off"
)

// citeAs applies a citations setting to a result.
func (r *Result) citeAs(mode string) {
	switch mode {
	case CitationsOn:
		r.Snippet += "\nSource: " + r.Citation
	case CitationsOff:
		r.Citation = ""
	}
}
