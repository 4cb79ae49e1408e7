package claudeperm

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/hint"
)

// Installer allows a plugin's rules in one settings file and remembers in
// its records file what it added, so that [Installer.Remove] takes out
// exactly those rules and nothing a person had before.
type Installer struct {
	Settings string // Claude Code's settings file, absolute
	Records  string // the records file ([ReadRecords])
	Prefix   string // the rules' common prefix, left out when they are named to a person
}

// stepError is a failed step of an install or a remove, with what the
// person can do about it (h).
func stepError(step string, err error, h string) error {
	return hint.Wrap(fmt.Errorf("%s: %w", step, err), h)
}

func (in Installer) records(step string) ([]Record, int, error) {
	recs, err := ReadRecords(in.Records)
	if err != nil {
		return nil, 0, stepError(step, fmt.Errorf("read the record of what install added: %w", err), "move the file aside; remove then takes out nothing")
	}
	i := slices.IndexFunc(recs, func(r Record) bool { return r.Settings == in.Settings })
	if i < 0 {
		recs = append(recs, Record{Settings: in.Settings})
		i = len(recs) - 1
	}
	return recs, i, nil
}

// Install allows rules and records the ones it added.
func (in Installer) Install(rules []string) (Change, error) {
	const step = "permissions install"
	recs, i, err := in.records(step)
	if err != nil {
		return Change{}, err
	}
	ch, err := Allow(in.Settings, rules)
	if err != nil {
		return ch, stepError(step, err, "the memory tools ask before their first use until "+strings.Join(rules, " and ")+" are in permissions.allow")
	}
	for _, r := range ch.Added {
		if !slices.Contains(recs[i].Added, r) {
			recs[i].Added = append(recs[i].Added, r)
		}
	}
	if err := WriteRecords(in.Records, recs); err != nil {
		// The rules are in; without the record remove would not know them.
		return ch, stepError(step, fmt.Errorf("record what was added in %s: %w", in.Records, err),
			"take "+strings.Join(ch.Added, " and ")+" out of "+in.Settings+" by hand when you uninstall")
	}
	return ch, nil
}

// Remove takes out the rules install recorded; recorded is false when it
// recorded none for this settings file.
func (in Installer) Remove() (ch Change, recorded bool, err error) {
	const step = "permissions remove"
	recs, i, err := in.records(step)
	if err != nil || len(recs[i].Added) == 0 {
		return ch, false, err
	}
	ch, err = Revoke(in.Settings, recs[i].Added)
	if err != nil {
		return ch, true, stepError(step, err, "take "+strings.Join(recs[i].Added, " and ")+" out of permissions.allow by hand")
	}
	recs[i].Added = nil
	if err := WriteRecords(in.Records, recs); err != nil {
		return ch, true, fmt.Errorf("%s: update %s: %w", step, in.Records, err)
	}
	return ch, true, nil
}

// WriteInstalled says for a person what an install did.
func (in Installer) WriteInstalled(w io.Writer, ch Change) {
	short := func(rules []string) string {
		var names []string
		for _, r := range rules {
			names = append(names, strings.TrimPrefix(r, in.Prefix))
		}
		return strings.Join(names, ", ")
	}
	var parts []string
	if len(ch.Added) > 0 {
		parts = append(parts, fmt.Sprintf("added %s to permissions.allow in %s (read-only; recall and remember still ask; `memhook permissions remove` takes them out)", strings.Join(ch.Added, ", "), in.Settings))
	}
	if len(ch.Present) > 0 {
		parts = append(parts, fmt.Sprintf("%s already allowed by %s", short(ch.Present), in.Settings))
	}
	if len(ch.Refused) > 0 {
		parts = append(parts, fmt.Sprintf("%s left to your deny or ask rule in %s", short(ch.Refused), in.Settings))
	}
	fmt.Fprintf(w, "memory tools: %s\n", strings.Join(parts, "; "))
}

// WriteRemoved says for a person what a remove did.
func (in Installer) WriteRemoved(w io.Writer, ch Change, recorded bool) {
	switch {
	case !recorded:
		fmt.Fprintf(w, "memory tools: install added no rule to %s; nothing removed\n", in.Settings)
	case len(ch.Removed) == 0:
		fmt.Fprintf(w, "memory tools: the rules install added are no longer in %s; nothing removed\n", in.Settings)
	default:
		fmt.Fprintf(w, "memory tools: removed %s from permissions.allow in %s; the tools ask again before their first use\n", strings.Join(ch.Removed, ", "), in.Settings)
	}
}
