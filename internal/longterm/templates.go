package longterm

// The scaffold's texts. Examples of links sit in code spans so that the
// files generated here never hold a broken link when the folder is opened
// as an Obsidian vault.

func logTemplate() []byte {
	return []byte(`---
type: log
---

# Log

Append-only chronology of changes memhook made to this memory
(` + "`- YYYY-MM-DD HH:MM · action · details`" + `).

`)
}

// indexPreamble is the hand-editable head of a new index.md.
const indexPreamble = `---
type: index
---

# Index

The catalogue of this project's long-term memory, by page type. Start here
and follow the links. Write anything you like above the marker line; the
list below it is rebuilt by ` + "`memhook wiki index`" + `.

`

const schemaText = `---
type: schema
---

# SCHEMA — rules of this long-term memory

This folder is the project's long-term memory, kept by cerebro. Markdown is
the truth: every index (` + "`index.md`, `graph.json`" + `) is rebuilt from the
pages. Open the folder as an Obsidian vault to see the graph.

## Layout

| path | what | who writes it |
| --- | --- | --- |
| ` + "`SCHEMA.md`" + ` | these rules | a person |
| ` + "`index.md`" + ` | catalogue by type (below its marker) | ` + "`memhook wiki index`" + ` |
| ` + "`log.md`" + ` | append-only chronology of changes | memhook, one line per change |
| ` + "`CORE.md`" + ` | what every session must know; injected at session start, size-capped | ` + "`memhook core set`, `core add`" + ` |
| ` + "`План-факт.md`" + ` | plan vs fact status; read by the org rollup | ` + "`memhook planfact set`" + ` |
| ` + "`raw/`" + ` | sources as ingested, never edited (large ones in ` + "`raw/_large/`" + `) | ` + "`memhook ingest`" + ` |
| ` + "`wiki/`" + ` | pages the model writes from sources and work | the model |
| ` + "`wiki/sources/`" + ` | one ` + "`source`" + ` page per ingested file | ` + "`memhook ingest`" + `, then the model |
| ` + "`wiki/_private/`" + ` | distillates of closed days: facts, decisions, lessons | the model during compile |
| ` + "`graph.json`" + ` | link graph: nodes, links, backlinks, orphans | ` + "`memhook wiki graph`" + ` |
| ` + "`records/`" + ` | what ` + "`memhook remember`" + ` stored, one page per month (type ` + "`records`" + `) | ` + "`memhook remember`" + ` |
| ` + "`tables/journal.jsonl`" + ` | every write to the growing tables (the SQLite tables are a cache of it) | ` + "`memhook remember --table`" + ` |
| ` + "`graph/relations.md`" + ` | relations between entities (type ` + "`relations`" + `) | ` + "`memhook graph link`" + `, relearn |
| ` + "`denials/denials.md`" + ` | rejected inferences, kept so they are not offered again (type ` + "`denials`" + `) | ` + "`memhook deny`" + ` |
| ` + "`wiki/relearned/`" + ` | summaries of expensive answers put back (type ` + "`relearned`" + `) | ` + "`memhook relearn`" + ` |
| ` + "`raw/objects/`" + ` | artifacts behind relearned answers, by content hash | ` + "`memhook relearn`" + ` |

## Pages

Every page opens with YAML frontmatter holding a ` + "`type`" + `:

- ` + "`source`" + ` — a summary of one file in ` + "`raw/`" + `; links it.
- ` + "`topic`" + ` — a subject of the project: what it is, how it works, where it stands.
- ` + "`decision`" + ` — one decision: context, options, choice, date, consequences.
- ` + "`lesson`" + ` — something learned the hard way, with the case it came from.
- ` + "`howto`" + ` — a procedure that worked.
- ` + "`person`" + ` — who is who and what they own.
- ` + "`moc`" + ` — a hub page linking a group of pages.
- ` + "`digest`" + ` — in ` + "`wiki/_private/`" + `: the distillate of closed days.

Optional keys: ` + "`title`, `description`" + ` (one line, shown in the index),
` + "`tags`, `aliases`, `created`, `updated`" + ` (dates YYYY-MM-DD).

## Links

Link pages with wikilinks: ` + "`[[wiki/Page name]]`" + ` (path from this folder,
without .md) or ` + "`[[Page name]]`" + ` when the name is unique; ` + "`|alias`" + ` and
` + "`#heading`" + ` work as in Obsidian, matching is case-insensitive. Link a raw
source with its extension: ` + "`[[raw/report.pdf]]`" + `. Every page should be
reachable from ` + "`index.md`" + `; end pages with a ` + "`## Links`" + ` section.

Evidence links point into short-term memory: ` + "`[[daily/YYYY-MM-DD]]`" + ` names
the day file ` + "`.claude/memory_short/daily/YYYY-MM-DD.md`" + `, which compile later
moves to ` + "`daily/_archive/`" + `. cerebro resolves these links in both places;
they stay valid after the move. (Obsidian shows them as unresolved, since the
day files live outside this folder.)

## Facts and compiled truth

A page that tracks something over time has three sections:

- ` + "`## Compiled truth`" + ` — the current picture, rewritten whole with
  ` + "`memhook truth set PAGE --from FILE --expect-hash H`" + ` (H from
  ` + "`memhook truth hash PAGE`" + `). If the page changed since it was hashed,
  nothing is replaced and the proposal waits in ` + "`PAGE.truth-pending.md`" + `.
- ` + "`## Facts`" + ` — dated facts, appended, never rewritten, each with its evidence:
  ` + "`- YYYY-MM-DD: fact · [[daily/YYYY-MM-DD]] HH:MM`" + `
  (` + "`memhook fact add PAGE \"fact\" --evidence daily/YYYY-MM-DD --time HH:MM`" + `).
- ` + "`## Archive`" + ` — replaced truth, newest last.

## Plan-fact contract

` + "`План-факт.md`" + ` frontmatter: ` + "`type: plan-fact`, `project`, `stage`,\n`plan_status`" + ` (on_track|at_risk|blocked|done), ` + "`status`" + `
(active|paused|completed), ` + "`next`, `blockers`" + ` (a list, ` + "`[]`" + ` when none),
` + "`summary`, `updated`" + ` (YYYY-MM-DD) and ` + "`completed`" + ` (YYYY-MM-DD, when
completed). The body holds the table of stages: planned vs actual, with
dates. Change fields with ` + "`memhook planfact set FIELD VALUE`" + ` after real
progress only; check with ` + "`memhook planfact check`" + `.

## Rules

1. Never edit ` + "`raw/`" + `; never delete a page (move it to ` + "`.trash/`" + `).
2. Facts carry evidence; no fact without a day it came from.
3. Keep ` + "`CORE.md`" + ` short: only what every session needs.
4. After adding or renaming pages run ` + "`memhook wiki index`" + ` and ` + "`memhook lint`" + `.
`
