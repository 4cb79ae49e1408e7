package cli

import (
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/factory"
	"github.com/spf13/cobra"
)

// Every command's one-line help starts with what it does, a verb in the
// imperative ("Check…", "Search…"), so the list in --help reads as one
// kind of thing; a noun phrase ("The org vault: …") is what it used to be.
func TestHelpLinesStartWithAVerb(t *testing.T) {
	root := newRootCmd(&factory.Factory{})
	notVerbs := []string{"The ", "A ", "An ", "Entities ", "Memory ", "Short-term ", "Long-term ", "Project "}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			s := sub.Short
			if s == "" {
				t.Errorf("%s has no one-line help", sub.CommandPath())
			}
			for _, p := range notVerbs {
				if strings.HasPrefix(s, p) {
					t.Errorf("%s: %q starts with a noun phrase, not a verb", sub.CommandPath(), s)
				}
			}
			walk(sub)
		}
	}
	walk(root)
}

// TestEveryCommandHasAGroup: --help lists commands by memory level, and a
// command added without a group would fall into a flat tail.
func TestEveryCommandHasAGroup(t *testing.T) {
	root := newRootCmd(&factory.Factory{})
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.GroupID == "" {
			t.Errorf("memhook %s is in no group of commandGroups() (root.go)", c.Name())
		}
	}
	var out strings.Builder
	root.SetOut(&out)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	last := -1
	for _, g := range commandGroups(&factory.Factory{}) {
		i := strings.Index(help, g.title)
		if i < 0 || i < last {
			t.Fatalf("--help lacks %q, or lists it out of order:\n%s", g.title, help)
		}
		last = i
	}
	if strings.Contains(help, "Additional Commands") {
		t.Errorf("--help has commands in no group:\n%s", help)
	}
}
