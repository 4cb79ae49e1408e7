package serve_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/project"
	"github.com/cerebro-mem/cerebro/internal/skills/evolve"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// figure reads one number of a candidate's figures table.
func figure(t *testing.T, body, class string) string {
	t.Helper()
	m := regexp.MustCompile(`class="` + class + `">(\d+)<`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %s figure on the page", class)
	}
	return m[1]
}

// TestSkillCandidatesAndVerdicts: a candidate is listed with the figures
// evolve.Decide takes from its shadow pairs; a verdict POST without the
// token is refused, and with it the verdict is recorded in the run
// records and counted on the page.
func TestSkillCandidatesAndVerdicts(t *testing.T) {
	m := newMemory(t)
	ref, err := skill.Named(filepath.Join(m.root, ".claude", "skills"), "use-tables")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, _, err := evolve.AddCandidate(ref, "c1", []byte("---\nname: use-tables\n---\n\nWrite values in place; say which table.\n"), now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	j := runrec.Journal{Dir: filepath.Join(m.env["CEREBRO_STATE_DIR"], "runs", project.ID(m.root))}
	arm := func(pair, side string, at time.Time) runrec.Run {
		r := runrec.Run{ID: pair + "-" + side, Time: at, Kind: runrec.KindShadow, Pair: pair, Arm: side, Request: "what is Dima's phone",
			ModelCalls: 1, Seconds: 2, AnswerKind: "affirmative", Skills: []runrec.Skill{{Name: "use-tables"}}}
		if side == runrec.ArmCandidate {
			r.Skills[0].Candidate = "c1"
		}
		return r
	}
	for i, pair := range []string{"p1", "p2"} {
		at := now.Add(time.Duration(i-2) * time.Hour)
		for _, side := range []string{runrec.ArmActive, runrec.ArmCandidate} {
			if err := j.Append(arm(pair, side, at)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// p1 judged on both arms, p2 only on the active one.
	for id, v := range map[string]string{"p1-active": runrec.Bad, "p1-candidate": runrec.Good, "p2-active": runrec.Bad} {
		if err := j.Verdict(runrec.Verdict{Run: id, Time: now, Verdict: v, Source: "person"}); err != nil {
			t.Fatal(err)
		}
	}
	m.start(t)
	c := &http.Client{}
	page := m.url + "/en/skills/use-tables"
	code, body := get(t, c, newReq(t, "GET", page, ""))
	if code != 200 || !strings.Contains(body, `id="candidate-c1"`) {
		t.Fatalf("skill page: %d, candidate c1 listed: %v", code, strings.Contains(body, `id="candidate-c1"`))
	}
	for class, want := range map[string]string{"pairs": "2", "judged": "1", "cand-good": "1", "act-good": "0"} {
		if got := figure(t, body, class); got != want {
			t.Errorf("before the verdict, %s = %s, want %s", class, got, want)
		}
	}
	if !strings.Contains(body, `data-run="p2-candidate">none yet`) || !strings.Contains(body, `value="p2-candidate"`) {
		t.Error("the unjudged arm has no verdict buttons")
	}
	if strings.Contains(strings.ToLower(body), "reset") {
		t.Error("the skill page mentions a reset")
	}
	tok := tokenRE.FindStringSubmatch(body)
	if tok == nil {
		t.Fatal("no CSRF token on the skill page")
	}

	form := url.Values{"run": {"p2-candidate"}, "verdict": {"good"}}
	if code, _ := get(t, c, newReq(t, "POST", page+"/verdict", form.Encode())); code != http.StatusForbidden {
		t.Errorf("verdict without a token: status %d, want 403", code)
	}
	form.Set("csrf", tok[1])
	bad := url.Values{"run": {"some-other-run"}, "verdict": {"good"}, "csrf": {tok[1]}}
	if code, _ := get(t, c, newReq(t, "POST", page+"/verdict", bad.Encode())); code != http.StatusBadRequest {
		t.Errorf("verdict on a run that is not a candidate's arm: status %d, want 400", code)
	}
	st, err := runrec.OpenStore(j)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if r, _, _ := st.Get("p2-candidate"); r.Verdict != "" {
		t.Fatalf("a refused POST recorded verdict %q", r.Verdict)
	}
	code, body = get(t, c, newReq(t, "POST", page+"/verdict", form.Encode()))
	if code != 200 || !strings.Contains(body, "Verdict good recorded for run p2-candidate") {
		t.Fatalf("verdict with the token: status %d", code)
	}
	if err := st.Sync(); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := st.Get("p2-candidate"); err != nil || !ok || r.Verdict != runrec.Good {
		t.Errorf("run p2-candidate after the POST: verdict %q (found %v, %v), want good", r.Verdict, ok, err)
	}
	for class, want := range map[string]string{"judged": "2", "cand-good": "2", "act-good": "0"} {
		if got := figure(t, body, class); got != want {
			t.Errorf("after the verdict, %s = %s, want %s", class, got, want)
		}
	}
}

// TestDashboardShowsTheLastNight: a project's night pass appears on the
// dashboard with its date; a project without one says so.
func TestDashboardShowsTheLastNight(t *testing.T) {
	m := newMemory(t)
	memhook(t, m.env, "night", "--project", m.root)
	m.start(t)
	code, body := get(t, &http.Client{}, newReq(t, "GET", m.url+"/en/dashboard", ""))
	if code != 200 {
		t.Fatalf("dashboard: %d", code)
	}
	i := strings.Index(body, `id="nights"`)
	if i < 0 {
		t.Fatal("no night table on the dashboard")
	}
	rows := body[i:]
	rows = rows[:strings.Index(rows, "</table>")]
	atlas := regexp.MustCompile(`(?s)<tr data-project="atlas">.*?</tr>`).FindString(rows)
	if !strings.Contains(atlas, time.Now().Format("2006-01-02")) || !regexp.MustCompile(`\d+ errors, \d+ warnings`).MatchString(atlas) {
		t.Errorf("atlas's night row lacks tonight's date or lint figures: %q", atlas)
	}
	borealis := regexp.MustCompile(`(?s)<tr data-project="borealis">.*?</tr>`).FindString(rows)
	if !strings.Contains(borealis, "no night pass has run yet") {
		t.Errorf("borealis's night row: %q, want no night yet", borealis)
	}
}
