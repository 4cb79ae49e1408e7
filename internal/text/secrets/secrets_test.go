package secrets

import (
	"math/rand"
	"strings"
	"testing"
)

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64url = alnum + "_-"
	hexLow = "0123456789abcdef"
)

// rnd builds a deterministic random value, so that no real-looking secret
// sits in the source as a literal.
func rnd(alphabet string, n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	// Generated keys always mix cases and digits; make sure short ones do.
	if n >= 3 && strings.Contains(alphabet, "a") && strings.Contains(alphabet, "A") {
		b[0], b[1], b[2] = 'Q', 'z', '7'
	}
	return string(b)
}

type detCase struct {
	name string
	text string
	kind string // "" when nothing may be found
	want string // the sensitive part that must be found
}

func runCases(t *testing.T, cases []detCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Scan(c.text)
			if c.kind == "" {
				if len(got) != 0 {
					t.Fatalf("Scan(%q) = %v, want nothing", c.text, got)
				}
				return
			}
			for _, f := range got {
				if f.Kind == c.kind && c.text[f.Start:f.End] == c.want {
					if strings.Contains(f.Preview, c.want) {
						t.Fatalf("preview %q shows the value", f.Preview)
					}
					return
				}
			}
			t.Fatalf("Scan(%q) = %v, want %s %q", c.text, got, c.kind, c.want)
		})
	}
}

func TestProviderKeys(t *testing.T) {
	aws := "AKIA" + strings.ToUpper(rnd("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 1))
	awsSecret := rnd(alnum+"/+", 40, 2)
	ghp := "ghp_" + rnd(alnum, 36, 3)
	pat := "github_pat_" + rnd(alnum, 22, 4) + "_" + rnd(alnum, 59, 5)
	glpat := "glpat-" + rnd(b64url, 20, 6)
	slack := "xoxb-" + rnd("0123456789", 12, 7) + "-" + rnd(alnum, 24, 8)
	stripe := "sk_live_" + rnd(alnum, 24, 9)
	openai := "sk-proj-" + rnd(b64url, 48, 10)
	openaiOld := "sk-" + rnd(alnum, 48, 11)
	ant := "sk-ant-api03-" + rnd(b64url, 93, 12)
	google := "AIza" + rnd(b64url, 35, 13)
	twilio := "SK" + rnd(hexLow, 32, 14)
	sendgrid := "SG." + rnd(b64url, 22, 15) + "." + rnd(b64url, 43, 16)
	npm := "npm_" + rnd(alnum, 36, 17)
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + rnd(b64url, 43, 18)
	tg := "5012345678:AA" + rnd(b64url, 33, 19)
	runCases(t, []detCase{
		{"aws access key", "aws_access_key_id = " + aws, "aws-access-key", aws},
		{"aws example key", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "", ""},
		{"aws secret in context", "aws_secret_access_key = " + awsSecret, "aws-secret-key", awsSecret},
		{"github classic", "token " + ghp, "github-token", ghp},
		{"github fine-grained", "GH=" + pat, "github-token", pat},
		{"github placeholder", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "", ""},
		{"gitlab", "use " + glpat + " here", "gitlab-token", glpat},
		{"slack", "SLACK=" + slack, "slack-token", slack},
		{"stripe live", "key: " + stripe, "stripe-key", stripe},
		{"stripe test key is no leak", "sk_test_" + strings.Repeat("a", 24), "", ""},
		{"openai project", "OPENAI_API_KEY=" + openai, "openai-key", openai},
		{"openai legacy", openaiOld, "openai-key", openaiOld},
		{"openai placeholder", "OPENAI_API_KEY=sk-your-key-here-from-dashboard", "", ""},
		{"anthropic", "ANTHROPIC_API_KEY=" + ant, "anthropic-key", ant},
		{"google", "maps key " + google, "google-api-key", google},
		{"twilio", "twilio: " + twilio, "twilio-key", twilio},
		{"sendgrid", sendgrid, "sendgrid-key", sendgrid},
		{"npm", "//registry.npmjs.org/:_authToken=" + npm, "npm-token", npm},
		{"jwt", "Authorization: Bearer " + jwt, "jwt", jwt},
		{"telegram bot", "bot " + tg, "telegram-bot-token", tg},
		{"prose about keys", "Create an API key in the dashboard and keep the token secret.", "", ""},
	})
}

func TestPrivateKey(t *testing.T) {
	body := rnd(alnum+"+/", 64, 20) + "\n" + rnd(alnum+"+/", 64, 21)
	block := "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
	openssh := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----"
	runCases(t, []detCase{
		{"rsa block", "key:\n" + block + "\nafter", "private-key", block},
		{"openssh block", openssh, "private-key", openssh},
		{"header in prose", "Paste the -----BEGIN PRIVATE KEY----- ... block into the field.", "", ""},
		{"public key", "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----", "", ""},
	})
}

func TestPasswordsAndConnections(t *testing.T) {
	runCases(t, []detCase{
		{"assignment", "password=Tr0ub4dor&3", "password", "Tr0ub4dor&3"},
		{"env var", "DB_PASSWORD=s3cr3tPass", "password", "s3cr3tPass"},
		{"yaml", "  passwd: hunter22", "password", "hunter22"},
		{"json", `{"password": "Qw3rty!x"}`, "password", "Qw3rty!x"},
		{"russian", "Пароль: Kx9vLm2q", "password", "Kx9vLm2q"},
		{"numeric", "pwd = 84920317", "password", "84920317"},
		{"weak word", "password: qwerty", "password", "qwerty"},
		{"changeme", "password=changeme", "", ""},
		{"angle placeholder", "password: <your-password>", "", ""},
		{"xxx", "password = xxxxxxxx", "", ""},
		{"env reference", "password: ${DB_PASSWORD}", "", ""},
		{"prose", "password: the one you chose at sign-up", "", ""},
		{"russian prose", "Пароль: установлен администратором", "", ""},
		{"hint not secret", "password_hint: favourite-colour", "", ""},
		{"api key assignment", "api_key = 7f3kQ9xL2mN8pR4t", "secret-assignment", "7f3kQ9xL2mN8pR4t"},
		{"client secret", `client_secret: "Zq81mNc0Lp2Xv7Rt"`, "secret-assignment", "Zq81mNc0Lp2Xv7Rt"},
		{"token count", "max_token_count: 4096", "", ""},
		{"token limit", "token: 100000", "", ""},
		{"postgres", "postgres://app:Sup3rS3cret@db.internal:5432/app", "connection-string", "Sup3rS3cret"},
		{"mongodb srv", "mongodb+srv://admin:pa55w0rdX@cluster0.mongodb.net/test", "connection-string", "pa55w0rdX"},
		{"ado", "Server=tcp:db,1433;Database=x;User Id=sa;Password=Str0ng!Pass;", "connection-string", "Str0ng!Pass"},
		{"no password in url", "postgres://localhost:5432/app", "", ""},
		{"url placeholder", "postgres://user:password@localhost/db", "", ""},
		{"url env", "mysql://root:$MYSQL_PASSWORD@db/app", "", ""},
		{"url password", "https://deploy:K8s-Pa55word@git.corp.local/repo.git", "url-password", "K8s-Pa55word"},
	})
}

func TestHighEntropy(t *testing.T) {
	v := rnd(alnum+"+/", 40, 30)
	h := rnd(hexLow, 40, 31)
	runCases(t, []detCase{
		{"base64 after key word", "signing secret is " + v, "high-entropy", v},
		{"hex after token word", "webhook token " + h, "high-entropy", h},
		{"no key context", "checksum " + v, "", ""},
		{"identifier", "key: getApiKeyFromConfigLoader", "", ""},
		{"commit hash without context", "fixed in " + h, "", ""},
		{"path", "key file at /etc/ssl/private/server_2024_prod_key.pem", "", ""},
	})
	if Entropy("aaaa") != 0 || Entropy("ab") != 1 {
		t.Fatalf("Entropy wrong: %v %v", Entropy("aaaa"), Entropy("ab"))
	}
}

func TestPersonalData(t *testing.T) {
	runCases(t, []detCase{
		{"email", "write to ivan.petrov@yandex.ru today", "email", "ivan.petrov@yandex.ru"},
		{"email in markdown link", "[mail](mailto:anna@corp.io?subject=x)", "email", "anna@corp.io"},
		{"example email", "user@example.com", "", ""},
		{"retina image", "icon@2x.png", "", ""},
		{"handle", "schema:@Recipe.name", "", ""},
		{"git ssh", "git@github.com:org/repo.git", "", ""},
		{"ru phone +7", "тел. +7 (916) 123-45-67", "phone", "+7 (916) 123-45-67"},
		{"ru phone compact", "+79161234567", "phone", "+79161234567"},
		{"ru phone 8", "звоните 8 916 123 45 67", "phone", "8 916 123 45 67"},
		{"ru phone 8-800", "8-800-555-35-35", "phone", "8-800-555-35-35"},
		{"plain long number", "id 89161234567", "", ""},
		{"intl", "call +44 20 7946 0958", "phone", "+44 20 7946 0958"},
		{"us", "+1-202-555-0173", "phone", "+1-202-555-0173"},
		{"date", "released 2024-01-15 and 2023-12-31", "", ""},
		{"version", "v1.12.3+20240115", "", ""},
		{"ip", "server 192.168.100.200 port 8080", "", ""},
		{"utc offset", "UTC+3 2024-01-15", "", ""},
		{"card spaced", "card 4276 3800 1234 5679", "card-number", "4276 3800 1234 5679"},
		{"card dashed mir", "2202-2001-1234-5671", "card-number", "2202-2001-1234-5671"},
		{"card compact mc", "5536913812345672", "card-number", "5536913812345672"},
		{"amex", "3714 496353 98431", "", ""}, // the Stripe test card
		{"card bad luhn", "4276 3800 1234 5675", "", ""},
		{"test card", "4111 1111 1111 1111", "", ""},
		{"long number", "order 1234567890123456", "", ""},
		{"passport", "паспорт 45 06 123456 выдан", "passport-ru", "45 06 123456"},
		{"passport series no", "Паспорт: серия 4509 № 735162", "passport-ru", "4509 № 735162"},
		{"no context", "код 4509 735162", "", ""},
		{"inn 10", "ИНН 7707083893", "inn", "7707083893"},
		{"inn 12", "ИНН: 500100732259", "inn", "500100732259"},
		{"inn bad check", "ИНН 7707083894", "", ""},
		{"inn no context", "number 7707083893", "", ""},
		{"snils", "СНИЛС 112-233-445 95", "snils", "112-233-445 95"},
		{"snils bare format", "112-233-445 95", "snils", "112-233-445 95"},
		{"snils compact", "СНИЛС: 11223344595", "snils", "11223344595"},
		{"snils bad check", "112-233-445 96", "", ""},
	})
}

func TestPlaceAndPreview(t *testing.T) {
	text := "first line\nмой e-mail: ivan@corp.ru\n"
	got := Scan(text)
	if len(got) != 1 {
		t.Fatalf("got %v", got)
	}
	f := got[0]
	if f.Line != 2 || f.Col != 13 || text[f.Start:f.End] != "ivan@corp.ru" {
		t.Fatalf("place = line %d col %d %q", f.Line, f.Col, text[f.Start:f.End])
	}
	if f.Preview != "iva…[redacted 9 chars]" || f.Category() != PII {
		t.Fatalf("preview %q category %s", f.Preview, f.Category())
	}
}

func TestRedact(t *testing.T) {
	key := "AKIA" + rnd("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 40)
	text := "id " + key + "\nmail ivan@corp.ru and password=Tr0ub4dor&3\n"
	got := Redact(text, Scan(text))
	want := "id [REDACTED:aws-access-key]\nmail [REDACTED:email] and password=[REDACTED:password]\n"
	if got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
	if again := Scan(got); len(again) != 0 {
		t.Fatalf("redacted text still has %v", again)
	}
}

func TestRedactText(t *testing.T) {
	clean := "nothing to hide here\n"
	if got, fs := RedactText(clean); got != clean || fs != nil {
		t.Fatalf("RedactText(clean) = %q, %v", got, fs)
	}
	got, fs := RedactText("ИНН 7707083893, СНИЛС 112-233-445 95")
	if got != "ИНН [REDACTED:inn], СНИЛС [REDACTED:snils]" || len(fs) != 2 {
		t.Fatalf("RedactText = %q, %v", got, fs)
	}
}

func TestEveryKindHasItsCategory(t *testing.T) {
	cat := map[string]Category{}
	for _, d := range detectors {
		if d.cat == "" {
			t.Fatalf("kind %s has no category", d.kind)
		}
		cat[d.kind] = d.cat
	}
	if cat["email"] != PII || cat["jwt"] != Secret {
		t.Fatal("categories mixed up")
	}
}

func TestPasswordHashesAndLinks(t *testing.T) {
	hashes := []string{
		`root:$6$rounds=5000$saltsalt$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZF9O1axqhyRbfG9Pa0AI1qnK3ZqQ6y9p7Sbn0Pn5mkA8y7e5Q6F.:19000:0:99999:7:::`,
		`admin:$2y$10$abcdefghijklmnopqrstuuQ0B1j3lR9yY8nK2mV7xW4zT6pS5oA1C`,
		`bob:$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o.9agCG9G317fhZg9SqC.5i5rd.RhAtQ7`,
	}
	for _, h := range hashes {
		if fs := Scan(h); len(fs) == 0 {
			t.Errorf("hash not found in %q", h)
		}
	}
	links := []string{
		`see https://github.com/SilentVoid13/Templater/issues/1338 for the token bug`,
		`auth docs: [guide](https://example.com/docs/AuthenticationFlowOverviewV2x9/Q7kLm3Np) and the key rotation`,
		`the secret is explained at www.example.org/KeyRotationGuide2024/abcXYZ123qwe`,
	}
	for _, l := range links {
		if fs := Scan(l); len(fs) != 0 {
			t.Errorf("link flagged in %q: %+v", l, fs)
		}
	}
}
