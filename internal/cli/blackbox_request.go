package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
	"github.com/spf13/cobra"
)

// requestFlags are the parameters both verbs take as flags; a flag the
// caller set becomes a key of the request, so it gets a fate like any other.
type requestFlags struct {
	Request string
	Project string
	Params  []string
	strs    map[string]*string
}

func (r *requestFlags) bind(cmd *cobra.Command, names map[string]string) {
	r.strs = map[string]*string{}
	for name, usage := range names {
		r.strs[name] = cmd.Flags().String(name, "", usage)
	}
	cmd.Flags().StringVar(&r.Request, "request", "", "read the request as a JSON object from FILE (- for stdin)")
	cmd.Flags().StringArrayVar(&r.Params, "param", nil, "any parameter as KEY=VALUE (VALUE read as JSON when it parses); repeatable")
	cmd.Flags().StringVar(&r.Project, "project", ".", "a directory of the project")
	// The answer is always one JSON object; --json is still accepted (and
	// hidden) so that callers written against the old flag keep working.
	cmd.Flags().Bool("json", true, "")
	_ = cmd.Flags().MarkHidden("json")
}

// raw assembles the request: the JSON request first, then the text
// argument, then flags and --param, later ones winning.
func (r *requestFlags) raw(cmd *cobra.Command, in io.Reader, args []string, extra map[string]any) (blackbox.Raw, error) {
	req := blackbox.Raw{}
	if r.Request != "" {
		var data []byte
		var err error
		if r.Request == "-" {
			data, err = io.ReadAll(io.LimitReader(in, 4<<20))
		} else {
			data, err = safefs.ReadArgument(r.Request, 4<<20)
		}
		if err != nil {
			return nil, fmt.Errorf("read request: %w", err)
		}
		if req, err = blackbox.DecodeRaw(data); err != nil {
			return nil, err
		}
	}
	set := func(k string, v any) {
		b, _ := json.Marshal(v)
		req[k] = b
	}
	if len(args) > 0 {
		set("text", strings.Join(args, " "))
	}
	for name, p := range r.strs {
		if cmd.Flags().Changed(name) {
			set(name, *p)
		}
	}
	for k, v := range extra {
		set(k, v)
	}
	for _, kv := range r.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: want KEY=VALUE", kv)
		}
		if json.Valid([]byte(v)) {
			req[k] = json.RawMessage(v)
		} else {
			set(k, v)
		}
	}
	return req, nil
}

// validate checks the values given as the verb's own flags (--depth,
// --limit, --claim, …) against the request contract, before anything is
// opened: a bad value there is the person's typo, an error (exit 2) with
// a did-you-mean for choices. Values sent as JSON (--request, --param)
// keep the contract's fates (bad_form) in the answer object, since a
// calling model reads those. extra holds the typed flags that were set.
func (r *requestFlags) validate(cmd *cobra.Command, verb string, extra map[string]any) error {
	probe := blackbox.Raw{"text": json.RawMessage(`"flag check"`)}
	var given []string
	for name, p := range r.strs {
		if cmd.Flags().Changed(name) {
			b, _ := json.Marshal(*p)
			probe[name] = b
			given = append(given, name)
		}
	}
	for k, v := range extra {
		b, _ := json.Marshal(v)
		probe[k] = b
		given = append(given, k)
	}
	if len(given) == 0 {
		return nil
	}
	var fates map[string]blackbox.Fate
	var err error
	if verb == blackbox.VerbRecall {
		_, fates, err = blackbox.ParseRecall(probe, blackbox.Caps{})
	} else {
		_, fates, err = blackbox.ParseRemember(probe)
	}
	if err != nil {
		return nil // the whole request is judged again, with its text, by the run
	}
	// Every bad value on one line, in the contract's order.
	order := map[string]int{}
	for i, p := range blackbox.Params(verb) {
		order[p.Name] = i
	}
	slices.SortFunc(given, func(a, b string) int { return order[a] - order[b] })
	// A fate that only follows from another value's (a --key without a
	// usable table because --kind is bad) is left out when a cause is named.
	consequence := func(f blackbox.Fate) bool {
		return strings.Contains(f.Reason, "bad_form") || strings.Contains(f.Reason, "needs a usable")
	}
	causes := 0
	for _, name := range given {
		if f := fates[name]; f.Fate == blackbox.FateBadForm && !consequence(f) {
			causes++
		}
	}
	var problems []string
	hint := ""
	for _, name := range given {
		f := fates[name]
		if f.Fate != blackbox.FateBadForm || (causes > 0 && consequence(f)) {
			continue
		}
		raw := string(probe[name])
		value := strings.Trim(raw, `"`)
		p, _ := blackbox.Lookup(verb, name)
		if p.Kind == blackbox.KindChoice {
			var values []string
			for _, c := range p.Choices {
				values = append(values, c.Value)
			}
			err := checkChoice(verb, name, value, values)
			var u *usageError
			if errors.As(err, &u) {
				problems = append(problems, strings.TrimPrefix(u.Error(), verb+": "))
				if hint == "" || !strings.HasPrefix(hint, "did you mean") {
					hint = u.Hint()
				}
			}
			continue
		}
		problems = append(problems, fmt.Sprintf("--%s %s: %s", name, raw, f.Reason))
		if hint == "" && p.Default != "" {
			hint = "for example --" + name + " " + p.Default
		}
	}
	if len(problems) == 0 {
		return nil
	}
	if hint == "" {
		hint = "see `memhook " + verb + " --help`"
	}
	return usagef(hint, "%s: %s", verb, strings.Join(problems, "; "))
}
