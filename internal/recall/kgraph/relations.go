// Package kgraph is the knowledge graph of the memory black box: the
// [[wikilink]] graph of the project's long-term wiki plus the relations
// recorded by `memhook graph link` and by relearn. It answers with context
// and citations only — entities, neighbours, backlinks, paths — never with
// generated text.
//
// Relations are Markdown lines in graph/relations.md under the memory
// root, readable by a person; the graph is built from the files on every
// ask, so there is no index to go stale.
//
//	g, err := kgraph.Load(longDir)
//	ctx := g.Ask("how is Denis related to the Kremlin")
//	rel, err := kgraph.Link(longDir, "Denis", "Kremlin", "served in", "", now, noteBytes)
package kgraph

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/text/cite"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
)

// RelationsFile is where relations live, relative to the memory root; the
// folder is left out of the link graph so the file is not a hub.
const RelationsFile = "graph/relations.md"

// Relation is one recorded edge.
type Relation struct {
	ID     string    `json:"id"`
	From   string    `json:"from"`
	Rel    string    `json:"rel"`
	To     string    `json:"to"`
	At     time.Time `json:"at"`
	Source string    `json:"source,omitempty"`
	Cite   string    `json:"cite"` // graph/relations.md#LN-LN
}

// A relation line names entities in plain text, not as [[links]]: an
// entity needs no page, and a link to a missing page would be a broken
// link to the wiki's lint.
var relLine = lazyregexp.New(`^- (.+?) · (.+?) · (.+?) · (\d{4}-\d\d-\d\dT\S+)(?: · source: (.*))?$`)

const relHeader = "---\ntype: relations\n---\n\n# Relations\n\nRecorded by `memhook graph link` and `memhook relearn`: one line per relation, `- A · relation · B · time · source: …`.\n\n"

// Link records a relation A —rel→ B and returns it. noteBytes bounds the
// read of the relations file: the project's limits.note_bytes (0: the
// default).
func Link(root, from, to, rel, source string, now time.Time, noteBytes int64) (Relation, error) {
	for name, v := range map[string]string{"entity A": from, "entity B": to, "relation": rel} {
		v = strings.TrimSpace(v)
		if v == "" {
			return Relation{}, fmt.Errorf("record relation: %s is empty", name)
		}
		if strings.ContainsAny(v, "[]|#\n\r") || strings.Contains(v, "·") {
			return Relation{}, fmt.Errorf("record relation: %s %q holds one of [ ] | # · or a line break", name, v)
		}
	}
	source = strings.Join(strings.Fields(source), " ")
	r := Relation{From: strings.TrimSpace(from), Rel: strings.TrimSpace(rel), To: strings.TrimSpace(to), At: now.UTC().Truncate(time.Second), Source: source}
	line := fmt.Sprintf("- %s · %s · %s · %s", r.From, r.Rel, r.To, r.At.Format(time.RFC3339))
	if source != "" {
		line += " · source: " + source
	}
	r.ID = relID(line)
	path := filepath.Join(root, filepath.FromSlash(RelationsFile))
	if err := safefs.MkdirAll(filepath.Dir(path)); err != nil {
		return r, fmt.Errorf("create graph directory: %w", err)
	}
	err := atomicfile.WithLock(path, func() error {
		data, err := safefs.ReadNote(path, noteBytes)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if len(data) == 0 {
			data = []byte(relHeader)
		}
		n := bytes.Count(data, []byte("\n")) + 1
		r.Cite = cite.Lines(RelationsFile, n, n)
		return atomicfile.Write(path, append(data, line+"\n"...), 0o644)
	})
	if err != nil {
		return r, fmt.Errorf("record relation in %s: %w", RelationsFile, err)
	}
	return r, nil
}

func relID(line string) string {
	h := sha1.Sum([]byte(line))
	return "rel-" + hex.EncodeToString(h[:6])
}

// ReadRelations reads every relation line; other lines (a person's notes)
// are left alone.
func ReadRelations(root string) ([]Relation, error) {
	f, err := safefs.Open(filepath.Join(root, filepath.FromSlash(RelationsFile)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read relations: %w", err)
	}
	defer f.Close()
	var out []Relation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		m := relLine.FindStringSubmatch(strings.TrimRight(sc.Text(), " \r"))
		if m == nil {
			continue
		}
		at, _ := time.Parse(time.RFC3339, m[4])
		out = append(out, Relation{ID: relID(strings.TrimRight(sc.Text(), " \r")), From: m[1], Rel: m[2], To: m[3], At: at, Source: m[5], Cite: cite.Lines(RelationsFile, n, n)})
	}
	return out, sc.Err()
}
