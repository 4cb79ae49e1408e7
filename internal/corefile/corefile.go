// Package corefile is CORE.md's one template: what `memhook long on` lays
// out (longterm's scaffold) and what SessionStart's inject leaves out while
// nobody has edited it. It sits on the ground floor so that the short-term
// inject need not import the long-term level to recognise it.
package corefile

// Template is CORE.md as `memhook long on` lays it out. Examples of
// commands sit in code spans so that the file never holds a broken link
// when the folder is opened as an Obsidian vault.
func Template() []byte {
	return []byte(`---
type: core
---

# CORE

What every session of this project must know, in a few lines. Injected at
every session start; memhook refuses edits past the size cap
(long.core_max_chars). Edit with ` + "`memhook core set|add`" + `.
`)
}
