package blackbox

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Naming a table the caller asked for (the seed: "claude -p, using the
// naming skill, creates the table"): one model call with no tool, given
// the name asked for, the phrase and the tables that exist, so it can
// reuse one. Whatever it answers reaches SQL only through the whitelist
// (tables.Normalize); a name it refuses, a failed call, a spent budget or
// no claude command at all fall back to the asked name transliterated —
// the name every table had before. The choice is kept in the tables'
// folder, so the same asked name reaches the same table from remember and
// recall without a second call.

//go:embed naming.md
var namingPrompt string

// NamingSeconds bounds the naming call: remember waits for it.
const NamingSeconds = 20

// NamesFile keeps the names the model chose, under the tables' folder.
const NamesFile = TablesDir + "/names.jsonl"

type tableName struct {
	Asked string    `json:"asked"` // as the caller wrote it
	As    string    `json:"as"`    // its transliteration, the key
	Name  string    `json:"name"`  // the table it names
	By    string    `json:"by"`    // "claude -p"
	At    time.Time `json:"at"`
}

func (b *Box) namesPath() string { return filepath.Join(b.LongDir, filepath.FromSlash(NamesFile)) }

// chosenName is the table a name asked for was given earlier, if any.
func (b *Box) chosenName(as string) (string, bool) {
	data, err := safefs.ReadNote(b.namesPath(), b.NoteBytes)
	if err != nil {
		return "", false
	}
	name := ""
	for _, l := range strings.Split(string(data), "\n") {
		var n tableName
		if json.Unmarshal([]byte(l), &n) == nil && n.As == as {
			if got, err := tables.Normalize(n.Name); err == nil && got == n.Name {
				name = n.Name // the last choice wins
			}
		}
	}
	return name, name != ""
}

// resolveTable is the table a caller's name reaches: the table of that
// (transliterated) name, else the one the model named for it.
func (b *Box) resolveTable(asked string) (string, string) {
	as, err := tables.Normalize(asked)
	if err != nil || b.Tables == nil || b.Tables.Exists(as) {
		return asked, ""
	}
	if name, ok := b.chosenName(as); ok {
		return name, fmt.Sprintf("; %q is the table %s (named by claude -p when it was made)", asked, name)
	}
	return asked, ""
}

// nameTable is the table a remember with table=asked writes to, and what
// the table's fate should say about how it was named.
func (b *Box) nameTable(ctx context.Context, asked, text string) (string, string) {
	as, err := tables.Normalize(asked)
	if err != nil {
		return asked, ""
	}
	if b.Tables.Exists(as) {
		return as, ""
	}
	if name, ok := b.chosenName(as); ok {
		return name, fmt.Sprintf("; %q is the table %s (named by claude -p when it was made)", asked, name)
	}
	fallback := func(why string) (string, string) {
		return as, fmt.Sprintf("; named %s by transliteration: %s", as, why)
	}
	if b.Namer == nil {
		why := b.NamerWhy
		if why == "" {
			why = "no claude command to name it"
		}
		return fallback(why)
	}
	ctx, cancel := context.WithTimeout(ctx, NamingSeconds*time.Second)
	defer cancel()
	start := time.Now()
	out, err := b.Namer.Call(ctx, b.namingPromptFor(asked, text), false)
	if err != nil {
		return fallback("the naming call failed: " + err.Error())
	}
	line := firstLine(out)
	name, err := tables.Normalize(line)
	var ne *tables.NameError
	switch {
	case errors.As(err, &ne):
		return fallback(fmt.Sprintf("the whitelist refused the model's name (%s)", ne.Error()))
	case err != nil:
		return fallback("the model's name: " + err.Error())
	}
	if infos, err := b.Tables.Describe(); err == nil {
		for _, ti := range infos {
			if ti.Name == name && ti.Shape != tables.ShapeRoot {
				return fallback(fmt.Sprintf("the model named %s, a list table, which takes no kinds", name))
			}
		}
	}
	rec, _ := json.Marshal(tableName{Asked: asked, As: as, Name: name, By: "claude -p", At: time.Now().UTC()})
	// Append makes the folder through the safe file layer: a planted link
	// in the tables' path is refused, and the name falls back.
	if err := atomicfile.Append(b.namesPath(), append(rec, '\n'), 0o644); err != nil {
		return fallback("the model's name could not be kept (" + err.Error() + ")")
	}
	how := "a new table"
	if b.Tables.Exists(name) {
		how = "an existing table it reuses"
	}
	return name, fmt.Sprintf("; named %s by claude -p (%s; 1 model call, %.1f s)", name, how, time.Since(start).Seconds())
}

func (b *Box) namingPromptFor(asked, text string) string {
	list := "none"
	if infos, err := b.Tables.Describe(); err == nil && len(infos) > 0 {
		var ts []string
		for _, ti := range infos {
			if ti.Shape != tables.ShapeRoot {
				continue
			}
			ts = append(ts, fmt.Sprintf("%s (kinds: %s)", ti.Name, strings.Join(ti.Kinds, ", ")))
			if len(ts) == 50 {
				break
			}
		}
		if len(ts) > 0 {
			list = strings.Join(ts, "; ")
		}
	}
	return strings.NewReplacer("{{asked}}", asked, "{{text}}", clip(text, 300), "{{tables}}", list).Replace(namingPrompt)
}

// firstLine is the model's reply as a name: its first non-empty line, as
// written. Nothing is stripped: a name that needs repair is not a name.
func firstLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
