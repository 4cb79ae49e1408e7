package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"

	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/spf13/cobra"
)

// SkillOptions are the inputs of `memhook skill log|diff|revert`.
type SkillOptions struct {
	In        io.Reader
	Out       io.Writer
	Now       func() time.Time
	FindSkill func(skillsDir, dir, name string) (ref skill.Ref, root string, err error)
	Action    string
	Name      string
	SkillsDir string
	Project   string
	Rev       string
	Limit     int
	JSON      bool
	From      string // candidate: the file holding the candidate's text
	ID        string // candidate: its id
}

func newCmdSkill(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill",
		Short: "Log, diff and revert a skill's versions (every edit is a commit)",
		Long: `Every edit of a skill file is committed at once (by the PostToolUse hook and by
memhook itself). These commands read that history and undo an edit as a new
commit. The skill is looked up under --skills-dir, else <project>/.claude/skills,
else $CLAUDE_PLUGIN_ROOT/skills.`,
	}
	opts := &SkillOptions{In: f.In, Out: f.Out, Now: f.Now, FindSkill: f.FindSkill}
	return addVerbs(cmd, []verb{
		{"log NAME", "List the commits of a skill, newest first", cobra.ExactArgs(1)},
		{"diff NAME", "Show what the skill's latest commit (or --rev) changed", cobra.ExactArgs(1)},
		{"revert NAME", "Restore the skill's previous version as a new commit", cobra.ExactArgs(1)},
		{"candidate NAME --from FILE", "Add a candidate version beside the active one (committed); it competes in the shadow", cobra.ExactArgs(1)},
	}, func(c *cobra.Command, name string) {
		c.Flags().StringVar(&opts.SkillsDir, "skills-dir", "", "the skills folder")
		c.Flags().StringVar(&opts.Project, "project", ".", "a directory of the project")
		c.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
		switch name {
		case "log":
			c.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many commits (0: all)")
		case "diff":
			c.Flags().StringVar(&opts.Rev, "rev", "", "the commit to show (default: the skill's latest)")
		case "candidate":
			c.Flags().StringVar(&opts.From, "from", "", "the candidate's SKILL.md text (- for stdin; required)")
			c.Flags().StringVar(&opts.ID, "id", "", "the candidate's id (default: c<date>-<time>)")
		}
	}, func(name string, args []string) error {
		opts.Action, opts.Name = name, args[0]
		return skillRun(opts)
	})
}

// validate checks the flags before the skill is looked up.
func (opts *SkillOptions) validate() error {
	return checkMinFlag("skill "+opts.Action, "limit", opts.Limit, 0)
}

func skillRun(opts *SkillOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	ref, root, err := opts.FindSkill(opts.SkillsDir, opts.Project, opts.Name)
	if err != nil {
		return err
	}
	switch opts.Action {
	case "candidate":
		return skillCandidate(opts, ref, root)
	case "log":
		log, err := skill.Log(ref, opts.Limit)
		if err != nil {
			return err
		}
		return printResult(opts.Out, opts.JSON, log, func(io.Writer) { skill.WriteLog(opts.Out, log) })
	case "diff":
		d, err := skill.Diff(ref, opts.Rev)
		if err != nil {
			return err
		}
		return printResult(opts.Out, opts.JSON, map[string]string{"skill": ref.Name, "diff": d}, func(w io.Writer) { fmt.Fprint(w, d) })
	default:
		res, err := skill.Revert(ref, opts.Now())
		if err != nil {
			return err
		}
		return printResult(opts.Out, opts.JSON, res, func(io.Writer) { res.WriteReverted(opts.Out) })
	}
}

// skillCandidate writes a candidate beside the skill's evolving copy
// (evolve.Propose) of the project at root ("" with --skills-dir).
func skillCandidate(opts *SkillOptions, ref skill.Ref, root string) error {
	if opts.From == "" {
		return usagef("memhook skill candidate NAME --from FILE", "skill candidate %s: --from is required", opts.Name)
	}
	text, err := evolve.ReadCandidateText(opts.From, opts.In)
	if err != nil {
		return fmt.Errorf("skill candidate %s: read %s: %w", opts.Name, opts.From, err)
	}
	added, err := evolve.Propose(ref, root, opts.ID, text, opts.Now())
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.JSON, added, func(io.Writer) { added.WriteText(opts.Out) })
}
