package cli

import (
	"fmt"
	"io"

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

// given is every flag of the verb the caller set, typed ones (extra)
// included.
func (r *requestFlags) given(cmd *cobra.Command, extra map[string]any) map[string]any {
	out := map[string]any{}
	for name, p := range r.strs {
		if cmd.Flags().Changed(name) {
			out[name] = *p
		}
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// raw assembles the request: the JSON request first, then the text
// argument, then flags and --param, later ones winning.
func (r *requestFlags) raw(cmd *cobra.Command, in io.Reader, args []string, extra map[string]any) (blackbox.Raw, error) {
	var req blackbox.Raw
	if r.Request != "" {
		data, err := safefs.ReadTextArgument(r.Request, in, 4<<20)
		if err != nil {
			return nil, fmt.Errorf("read request: %w", err)
		}
		if req, err = blackbox.DecodeRaw(data); err != nil {
			return nil, err
		}
	}
	return blackbox.AssembleRequest(req, args, r.given(cmd, extra), r.Params)
}

// validate checks the values given as the verb's own flags against the
// request contract (blackbox.FlagsRefused) before anything is opened: a
// bad value there is an error (exit 2) with a did-you-mean for choices,
// all of them on one line.
func (r *requestFlags) validate(cmd *cobra.Command, verb string, extra map[string]any) error {
	if problem, hint := blackbox.FlagsRefused(verb, r.given(cmd, extra)); problem != "" {
		return usagef(hint, "%s: %s", verb, problem)
	}
	return nil
}
