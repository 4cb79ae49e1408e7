package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/cerebro-mem/cerebro/internal/wiki"
)

// Indexer is told about a Markdown file that changed, so an index (the
// FTS5 search) sees it at once. Without one, the index catches up on the
// next recall's search.
type Indexer interface {
	// IndexFile brings the index holding path up to date; a file outside
	// every indexed root is no error.
	IndexFile(ctx context.Context, path string) error
}

// RelearnFinder finds the relearned answers to a question by its
// meaning, not its exact words: memhook plugs the memory's search in
// (internal/search over the relearned summaries, gated by the share of
// the question's informative weight a summary holds, see RelearnCover),
// so a paraphrase of a question researched once costs level 2. Each hit's
// Score is that share. Without one, level 2's search alone finds a
// summary, by its coverage of the whole question.
type RelearnFinder interface {
	Relearned(ctx context.Context, query string, limit int) ([]Hit, error)
}

// RelearnCover is the share of a question's informative weight a
// relearned summary (its answer, the question it answered and the
// rephrasings kept with it) must hold to answer it: search's coverage,
// where a rare word weighs more than a common one and the words of asking
// ("remind me", "could", "напомни") hardly count.
const RelearnCover = 0.6

// RelearnRequest is one expensive result to put back.
type RelearnRequest struct {
	Artifact     []byte
	ArtifactName string
	Summary      string
	About        string
	// AlsoAsked are other wordings of the question the result answers
	// (the research walk's rephrasings): written under the summary, they
	// let a paraphrase find it by its words at level 2.
	AlsoAsked []string
}

// LinkTableStep is the last, optional step of the cycle.
type LinkTableStep struct {
	Table  string `json:"table,omitempty"`
	Status string `json:"status"` // appended, skipped
	ID     string `json:"id,omitempty"`
	Note   string `json:"note,omitempty"`
}

// RelearnResult carries every id the cycle made.
type RelearnResult struct {
	Object        string `json:"object"`
	ObjectPath    string `json:"object_path"`
	ObjectCreated bool   `json:"object_created"`
	Summary       string `json:"summary"`
	SummaryPath   string `json:"summary_path"`
	Indexed       string `json:"indexed"`
	Relation      string `json:"relation"`
	RelationCite  string `json:"relation_cite"`
	// ObjectRelation links the summary to the claim's second entity when
	// recall relearned its own answer.
	ObjectRelation string        `json:"object_relation,omitempty"`
	LinkTable      LinkTableStep `json:"link_table"`
	// Error names the step that failed; the ids before it stand.
	Error string `json:"error,omitempty"`
}

// Relearn runs the cycle: artifact into the object store, summary written
// as a wiki page (found by level 2, linked to the entity for level 3),
// relation recorded, and the entity's link table (<entity>_links, a list)
// appended to when it exists — its absence never fails the cycle.
func (b *Box) Relearn(ctx context.Context, req RelearnRequest, idx Indexer, now time.Time) (*RelearnResult, error) {
	about := strings.TrimSpace(req.About)
	if about == "" || strings.ContainsAny(about, "[]|#\n\r") {
		return nil, fmt.Errorf("relearn: --about must name an entity without [ ] | # or line breaks")
	}
	if strings.TrimSpace(req.Summary) == "" {
		return nil, fmt.Errorf("relearn: the summary is empty")
	}
	res := &RelearnResult{}
	st := b.Objects()
	id, created, err := st.Put(req.Artifact, req.ArtifactName)
	if err != nil {
		return nil, fmt.Errorf("relearn: store artifact: %w", err)
	}
	p, _ := st.Path(id)
	rel, _ := filepath.Rel(b.LongDir, p)
	res.Object, res.ObjectPath, res.ObjectCreated = id, ".claude/memory_long/"+filepath.ToSlash(rel), created

	res.Summary = shortHash("s-", id, req.Summary, about)
	name := fmt.Sprintf("%s-%s-%s", now.Format(time.DateOnly), slug(about), strings.TrimPrefix(res.Summary, "s-")[:8])
	pageRel := RelearnDir + "/" + name + ".md"
	also := ""
	if len(req.AlsoAsked) > 0 {
		var ws []string
		for _, a := range req.AlsoAsked {
			if a = clip(a, 200); a != "" {
				ws = append(ws, a)
			}
		}
		also = "\nAlso asked as: " + strings.Join(ws, " · ") + "\n"
	}
	page := fmt.Sprintf("---\ntype: relearned\nabout: %q\nobject: %s\ndate: %s\n---\n\n# %s\n<!-- cerebro:record%s -->\n%s\n%s\nAbout: %s · artifact `%s` (%s)\n",
		about, id, now.Format(time.DateOnly), clip(req.Summary, 80), markerAttrs("id", res.Summary, "object", id),
		strings.TrimSpace(req.Summary), also, b.entityRef(about), id, filepath.Base(req.ArtifactName))
	abs := filepath.Join(b.LongDir, filepath.FromSlash(pageRel))
	if err := safefs.MkdirAll(filepath.Dir(abs)); err != nil {
		return res, fmt.Errorf("relearn: create %s: %w", RelearnDir, err)
	}
	if err := atomicfile.Write(abs, []byte(page), 0o644); err != nil {
		return res, fmt.Errorf("relearn: write summary: %w", err)
	}
	res.SummaryPath = ".claude/memory_long/" + pageRel
	res.Indexed = "memory text: level 2 reads the page on the next recall"
	if idx != nil {
		if err := idx.IndexFile(ctx, abs); err != nil {
			return res, fmt.Errorf("relearn: index summary: %w", err)
		}
		res.Indexed = "search index updated"
	}

	r, err := kgraph.Link(b.LongDir, name, about, "summarises", id, now, b.NoteBytes)
	if err != nil {
		return res, fmt.Errorf("relearn: link into the graph: %w", err)
	}
	res.Relation, res.RelationCite = r.ID, r.Cite

	res.LinkTable = b.linkTable(about, id, res.SummaryPath, now)
	b.chronicle(now, "relearn", fmt.Sprintf("%s about %s, object %s", pageRel, about, id))
	return res, nil
}

// entityRef links the entity's page when the wiki has one; a link to a
// missing page would be a broken link, and the recorded relation already
// ties the summary to the entity in the graph.
func (b *Box) entityRef(about string) string {
	if v, err := wiki.Load(b.LongDir, wiki.Options{Skip: []string{"raw", "graph", TablesDir}}); err == nil && v.Resolve(about, "") != nil {
		return "[[" + about + "]]"
	}
	return about
}

func (b *Box) linkTable(about, object, summaryPath string, now time.Time) LinkTableStep {
	lt, err := tables.LinkTable(about)
	if err != nil {
		return LinkTableStep{Status: "skipped", Note: "the entity's name cannot name a table: " + err.Error()}
	}
	step := LinkTableStep{Table: lt, Status: "skipped"}
	if b.Tables == nil {
		step.Note = "no relational store"
		return step
	}
	all, err := b.Tables.Tables()
	if err != nil {
		step.Note = err.Error()
		return step
	}
	switch all[lt] {
	case "":
		step.Note = "no link table " + lt + " (made by promoting kind links of table " + strings.TrimSuffix(lt, "_links") + "); the cycle does not need it"
	case tables.ShapeList:
		c, err := b.Tables.Append(lt, tables.Value{Key: about, Value: object, Claim: tables.ClaimComputed, Basis: summaryPath}, now)
		if err != nil {
			step.Note = err.Error()
			return step
		}
		step.Status, step.ID = "appended", c.ID
	default:
		step.Note = lt + " is not a list table"
	}
	return step
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	if r := []rune(out); len(r) > 40 {
		out = string(r[:40])
	}
	if out == "" {
		out = "entity"
	}
	return out
}
