package secrets

import (
	"strings"
	"testing"
)

// TestGeneralRulesFindUnlistedKinds: the general rules (a service token
// as an issuer's prefix and a random body; a database password in a URL,
// a .pgpass line, SQL, XML, a flag, a header, a query) find kinds no
// detector names. The values here are of issuers and forms the rules were
// not written against: a detector tuned on its fixture would miss them.
func TestGeneralRulesFindUnlistedKinds(t *testing.T) {
	body := rnd(alnum, 36, 201)
	hexBody := rnd(hexLow, 40, 202)
	pw := rnd(alnum, 14, 203)
	cases := []struct{ name, text, secret string }{
		{"docker pat", "docker login -u ci --password-stdin <<< dckr_pat_" + body, "dckr_pat_" + body},
		{"planetscale token", "PLANETSCALE=pscale_tkn_" + body, body},
		{"postman key", "the postman key PMAK-" + rnd(hexLow, 24, 204) + "-" + hexBody, hexBody},
		{"grafana cloud token", "use glc_" + body + " for the agent", body},
		{"tailscale auth key", "tailscale up --authkey tskey-auth-k" + rnd(alnum, 10, 205) + "-" + body, body},
		{"supabase token", "SUPABASE_ACCESS=sbp_" + hexBody, hexBody},
		{"mapbox secret", "mapbox sk.eyJ1" + body + "." + rnd(alnum, 22, 206), body},
		{"readme key", "rdme_" + body, body},
		{"bearer in a curl", `curl -H "Authorization: Bearer ` + pw + `" https://api.corp.local/v2/items`, pw},
		{"jdbc query password", "jdbc:postgresql://db:5432/app?user=app&password=" + pw + "&ssl=true", pw},
		{"role password in sql", "CREATE ROLE reporting LOGIN PASSWORD '" + pw + "';", pw},
		{"pgpass line", "db.prod.internal:6432:billing:billing_rw:" + pw, pw},
		{"password element", "<connection><user>app</user><dbPassword>" + pw + "</dbPassword></connection>", pw},
		{"password flag", "pg_restore --dbname=shop --db-passwd " + pw + " dump.tar", pw},
		{"empty user redis url", "REDIS_URL=rediss://:" + pw + "@cache.internal:6380/0", pw},
		{"password holding @", "amqp://svc:" + pw[:6] + "@" + pw[6:] + "@mq.internal/vhost", pw[:6] + "@" + pw[6:]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, fs := RedactText(c.text)
			if len(fs) == 0 || strings.Contains(out, c.secret) {
				t.Fatalf("RedactText(%q) = %q: %q stays in clear", c.text, out, c.secret)
			}
		})
	}
}

// TestGeneralRulesLeaveIdsAlone: identifiers shaped like tokens are not
// secrets: digests, a model API's message and tool-call ids, a UUID, a
// Go pseudo-version, a test's name, a placeholder.
func TestGeneralRulesLeaveIdsAlone(t *testing.T) {
	findsNothing(t, []string{
		"object sha256-" + rnd(hexLow, 64, 301),
		`"id":"msg_01KJZamND8Cemw6Le5jtXwwN","type":"message"`,
		`"toolUseID":"agent_msg_01QVA9ZtQhiqWU7kKBrXThFY"`,
		`{"tool_use_id":"toolu_013ZDK4jC84F3EZUTGnsNPsF"}`,
		"session 3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b resumed",
		"require golang.org/x/sys v0.0.0-20231005123456-abcdef123456",
		"go test -run TestRememberKeepsEverySecretKindOut_subtest ./internal/cli",
		"export API_TOKEN=your_token_here_xxxxxxxxxxxxxxxx",
		"the password is stored in the keychain",
		"Authorization: Bearer $TOKEN",
		"see https://docs.google.com/document/d/1aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gIkLmN/edit",
	})
}
