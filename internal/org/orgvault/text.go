package orgvault

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// ShortHash is a commit's hash as the vault's reports show it: its first
// eight characters, "none" when nothing was committed.
func ShortHash(hash string) string {
	if len(hash) > 8 {
		return hash[:8]
	}
	if hash == "" {
		return "none"
	}
	return hash
}

// Ensure lays out the vault at root when it is missing, saying so on
// announce: ingest, query, lint and the dashboard are how people meet the
// vault, and failing them with "run org init first" only sends them to
// type a command that asks nothing.
func Ensure(root string, now time.Time, announce io.Writer) error {
	if _, err := Open(root); err == nil {
		return nil
	}
	res, err := Init(root, now)
	if err != nil {
		return hint.Wrap(fmt.Errorf("create the org vault on first use: %w", err), "check that "+root+" (CEREBRO_HOME) is writable, then run `memhook org init`")
	}
	if len(res.Created) > 0 {
		fmt.Fprintf(announce, "memhook: created the org vault at %s on first use (%d files, commit %s; `memhook org init` does the same)\n", res.Root, len(res.Created), ShortHash(res.Commit))
	}
	return nil
}

// OpenOrCreate opens the vault at root, creating it first when it is not
// there ([Ensure]).
func OpenOrCreate(root string, now time.Time, announce io.Writer) (*Vault, error) {
	v, err := Open(root)
	var missing *NotInitializedError
	if !errors.As(err, &missing) {
		return v, err
	}
	if err := Ensure(root, now, announce); err != nil {
		return nil, err
	}
	return Open(root)
}

// WriteText says what `org init` did.
func (r *InitResult) WriteText(w io.Writer) {
	if len(r.Created) == 0 {
		fmt.Fprintf(w, "org vault at %s is already laid out; nothing changed.\n", r.Root)
		return
	}
	fmt.Fprintf(w, "org vault at %s: created %d files (commit %s)\n", r.Root, len(r.Created), ShortHash(r.Commit))
	for _, c := range r.Created {
		fmt.Fprintf(w, "  %s\n", c)
	}
	fmt.Fprintln(w, "Share it with your team: set org.remote in your settings and run `memhook org sync`.")
}

// WriteText says what `org ingest` did in the vault at root, and what
// the person does next.
func (r *IngestResult) WriteText(w io.Writer, root string) {
	fmt.Fprintf(w, "org vault: %s\n", root)
	switch {
	case r.Existed && r.Commit == "":
		fmt.Fprintf(w, "already ingested: %s (page %s); nothing changed\n", r.Raw, r.Page)
	case r.Raw != "":
		fmt.Fprintf(w, "stored %s\ndraft page %s\n", r.Raw, r.Page)
	default:
		fmt.Fprintf(w, "draft page %s\n", r.Page)
	}
	if r.Redacted > 0 {
		fmt.Fprintf(w, "redacted %d finding(s) with [REDACTED:kind] markers\n", r.Redacted)
	}
	if r.Commit != "" {
		fmt.Fprintf(w, "committed %s; logged in log.md\n", ShortHash(r.Commit))
	}
	fmt.Fprintf(w, "Next: curate %s per SCHEMA.md, then run `memhook org lint`.\n", r.Page)
}

// WriteText prints the answer from the vault at root: each page with its
// citation, how it was found (and the link it was reached by) and the
// excerpt.
func (a *Answer) WriteText(w io.Writer, root string) {
	if len(a.Hits) == 0 {
		fmt.Fprintf(w, "No page of the org vault answers %q.\n", a.Query)
		return
	}
	fmt.Fprintf(w, "[from the org vault %s] %q — %d pages found by search", root, a.Query, len(a.Hits)-a.Linked)
	if a.Linked > 0 {
		fmt.Fprintf(w, ", %d more along their links", a.Linked)
	}
	fmt.Fprintln(w)
	for i, h := range a.Hits {
		status := ""
		if h.Status != "" && h.Status != "active" {
			status = " (" + h.Status + ")"
		}
		fmt.Fprintf(w, "\n%d. %s%s — %s [%s]\n", i+1, h.Title, status, h.Citation, h.Via)
		if len(h.Trail) > 0 {
			fmt.Fprintf(w, "   linked: %s\n", strings.Join(h.Trail, " → "))
		}
		for _, l := range strings.Split(h.Excerpt, "\n") {
			fmt.Fprintf(w, "   > %s\n", l)
		}
	}
}

// WriteText says what `org rm` did.
func (r *TrashResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "moved %s → %s (commit %s); links to it now show in `memhook org lint`\n", r.From, r.To, ShortHash(r.Commit))
}
