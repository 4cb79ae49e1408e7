package timeline

import "testing"

func TestItemIntent(t *testing.T) {
	for item, want := range map[string]string{
		"commit “feat: instrument hook controllers…”: failed (lint-staged failed) (7 attempts)": "git commit",
		"not done: `node assets/build.js`: failed (Error: Cannot find module)":                  "run build.js",
		"edit `docs/api.md` (subagent): failed (String to replace not found in file.)":          "file docs/api.md",
		"WebFetch `https://docs.example.com/x`: failed (403)":                                   "fetch docs.example.com",
		"git push: failed (fatal: no upstream)":                                                 "git push",
		"tests: pytest 2 passed, 1 failed (1 failed, 2 passed in 0.1s)":                         "test pytest",
		"not done: tests failing: mix test 1 passed, 4 failed":                                  "test mix test",
		"Your changes are staged and ready to commit!":                                          "git commit",
		"Ready for `git push` when you want to publish!":                                        "git push",
		"Run `bd ready` to see available work.":                                                 "bd ready",
		"todo: Update the runbook":                                                              "",
		"unanswered: thanks, update the /ai and commit and push":                                "",
	} {
		if got := ItemIntent(item); got != want {
			t.Errorf("ItemIntent(%q) = %q, want %q", item, got, want)
		}
	}
}

// TestLaterSuccessClosesAFailure: a failure of one section is closed by a
// later section that shows the same action succeeded — a commit under
// another message, the script from its folder, a fixed lesson, a file
// changed, a command run without failing — and by nothing else.
func TestLaterSuccessClosesAFailure(t *testing.T) {
	first := sec(t, "2026-11-23", "s1", 1, "### Asked\n- ship it\n### Not done\n"+
		"- commit “feat: instrument hook controllers”: failed (lint-staged failed) (7 attempts)\n"+
		"- `node assets/build.js`: failed (Error: Cannot find module './config.json')\n"+
		"- edit `docs/api.md`: failed (String to replace not found in file.)\n"+
		"- `pnpm --version`: failed (v16.0.0)\n"+
		"- `make deploy`: failed (no rule)\n"+
		"### Open\n- not done: `curl -sf https://api.example.com/v1`: failed (403)\n- Your changes are staged and ready to commit!\n")
	later := sec(t, "2026-11-25", "s2", 1, "### Asked\n- go on\n### Done\n- committed d9e611e feat: instrument hook controllers with OTEL spans\n"+
		"### Learned\n- `npx pnpm --version`: 1 attempt failed (ERR_PNPM_BAD_ENGINE) before one succeeded\n"+
		"### Files and commands\n- changed: `docs/api.md`\n- ran: `cd assets && node build.js`, `wget https://api.example.com/v2`, `make deploy`\n"+
		"### Not done\n- `make deploy`: failed (no rule)\n")
	var tr Tracker
	tr.Add(first)
	tr.Add(later)
	for _, item := range []string{
		"commit “feat: instrument hook controllers”: failed (lint-staged failed) (7 attempts)",
		"`node assets/build.js`: failed (Error: Cannot find module './config.json')",
		"edit `docs/api.md`: failed (String to replace not found in file.)",
		"`pnpm --version`: failed (v16.0.0)",
		"not done: `curl -sf https://api.example.com/v1`: failed (403)",
		"Your changes are staged and ready to commit!",
	} {
		if by, ok := tr.Closed(first.Key, item); !ok || by != later.Key {
			t.Errorf("%q not closed by the later section (%q, %v)", item, by, ok)
		}
	}
	if _, ok := tr.Closed(first.Key, "`make deploy`: failed (no rule)"); ok {
		t.Error("a command the later section lists as failing again closed the failure")
	}
	if open := tr.Open(); len(open) != 0 {
		t.Errorf("open: %+v", open)
	}
}

// TestFinalMessageClosesAnOpenItem: a later final message listing the
// work as done closes it; one that only names it does not.
func TestFinalMessageClosesAnOpenItem(t *testing.T) {
	first := sec(t, "2026-11-23", "s1", 1, "### Asked\n- a\n### Open\n- todo: migrate the orders table\n- todo: update the runbook\n")
	later := sec(t, "2026-11-24", "s2", 1, "### Asked\n- b\n### Final message\n- ✅ Migrated the orders table to the new schema\n- Next: update the runbook\n")
	var tr Tracker
	tr.Add(first)
	tr.Add(later)
	if _, ok := tr.Closed(first.Key, "todo: migrate the orders table"); !ok {
		t.Error("the final message's done line did not close the todo")
	}
	if _, ok := tr.Closed(first.Key, "todo: update the runbook"); ok {
		t.Error("a line that only names the work closed it")
	}
}

// TestLaterSectionAnswersTheRequest: a request left unanswered when a
// flush fell before its reply is answered by the session's next section;
// another session's section does not answer it.
func TestLaterSectionAnswersTheRequest(t *testing.T) {
	first := sec(t, "2026-11-23", "s1", 1, "### Asked\n- turn four\n### Open\n- unanswered: turn five (auto-compacts first)\n")
	other := sec(t, "2026-11-23", "s2", 1, "### Asked\n- (asked before this part)\n  - answer: ok\n")
	var tr Tracker
	tr.Add(first)
	tr.Add(other)
	if _, ok := tr.Closed(first.Key, "unanswered: turn five (auto-compacts first)"); ok {
		t.Fatal("another session answered the request")
	}
	tr.Add(sec(t, "2026-11-23", "s1", 2, "### Asked\n- (asked before this part)\n  - answer: MOCK-REPLY: ok\n- turn six\n"))
	if _, ok := tr.Closed(first.Key, "unanswered: turn five (auto-compacts first)"); !ok {
		t.Fatal("the session's next section did not answer the request")
	}
}
