package secrets

import (
	"strings"
	"testing"
)

// TestPlantedKindsAreRedacted plants one secret of each kind an adversarial
// pass tried, as a person would paste it into a prompt, and requires that
// RedactText leaves none of it in clear. The last group are the kinds that
// once stayed in clear: a generic assignment a person chose the value of,
// and a database password on a command line.
func TestPlantedKindsAreRedacted(t *testing.T) {
	pw := rnd(alnum, 14, 101)
	cases := []struct{ name, text, secret string }{
		{"aws access key", "aws_access_key_id = AKIA" + strings.ToUpper(rnd("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 102)), ""},
		{"aws secret key", "aws_secret_access_key = " + rnd(alnum+"/+", 40, 103), ""},
		{"github classic token", "token ghp_" + rnd(alnum, 36, 104), ""},
		{"github fine-grained token", "github_pat_" + rnd(alnum, 22, 105) + "_" + rnd(alnum, 59, 106), ""},
		{"gitlab token", "GITLAB=glpat-" + rnd(b64url, 20, 107), ""},
		{"slack token", "xoxb-" + rnd("0123456789", 12, 108) + "-" + rnd(alnum, 24, 109), ""},
		{"slack webhook", "https://hooks.slack.com/services/T" + rnd("ABCDEFGHIJ0123456789", 8, 110) + "/B" + rnd("ABCDEFGHIJ0123456789", 8, 111) + "/" + rnd(alnum, 24, 112), ""},
		{"stripe key", "sk_live_" + rnd(alnum, 24, 113), ""},
		{"anthropic key", "ANTHROPIC_API_KEY=sk-ant-api03-" + rnd(b64url, 93, 114), ""},
		{"openai key", "OPENAI_API_KEY=sk-proj-" + rnd(b64url, 48, 115), ""},
		{"google api key", "AIza" + rnd(b64url, 35, 116), ""},
		{"twilio key", "SK" + rnd(hexLow, 32, 117), ""},
		{"sendgrid key", "SG." + rnd(b64url, 22, 118) + "." + rnd(b64url, 43, 119), ""},
		{"npm token", "//registry.npmjs.org/:_authToken=npm_" + rnd(alnum, 36, 120), ""},
		{"telegram bot token", "bot 5012345678:AA" + rnd(b64url, 33, 121), ""},
		{"jwt", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + rnd(b64url, 43, 122), ""},
		{"private key", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + rnd(alnum+"+/", 64, 123) + "\n" + rnd(alnum+"+/", 64, 124) + "\n-----END OPENSSH PRIVATE KEY-----", ""},
		{"postgres url", "DATABASE_URL=postgres://app:" + pw + "@db.internal:5432/app", pw},
		{"mongodb url", "mongodb+srv://svc:" + pw + "@cluster0.abcd.mongodb.net/prod", pw},
		{"ado string", "Server=tcp:sql.corp,1433;Database=crm;User Id=sa;Password=" + pw + ";", pw},
		{"url with password", "git clone https://deploy:" + pw + "@git.corp.local/repo.git", pw},
		{"password assignment", "password=" + pw, pw},
		{"password in yaml", "  db:\n    password: " + pw, pw},
		{"password in russian", "Пароль: " + pw, pw},
		{"api key assignment", "api_key = " + rnd(alnum, 18, 125), ""},
		{"sha512-crypt hash", "root:$6$saltsalt$" + rnd(alnum+"./", 86, 126) + ":19700:0:99999:7:::", ""},
		{"bcrypt hash", "admin:$2y$10$" + rnd(alnum+"./", 53, 127), ""},
		{"high entropy signing key", "the signing key is " + rnd(alnum+"+/", 40, 128), ""},
		{"card number", "card: 4276 3800 1593 8272", "4276 3800 1593 8272"},
		{"russian passport", "паспорт 4509 123456", "4509 123456"},
		{"inn", "ИНН 7707083893", "7707083893"},
		{"email", "пишите на ivan.petrov@yandex.ru", "ivan.petrov@yandex.ru"},
		{"phone", "тел. +7 (916) 123-45-67", "+7 (916) 123-45-67"},
		// Once in clear: a generic assignment whose value a person chose.
		{"client_secret chosen", "client_secret: hunter2isgood", "hunter2isgood"},
		{"password passphrase", "password: correcthorsebatterystaple", "correcthorsebatterystaple"},
		{"password in prose", "The staging db password is " + pw + ", do not share it.", pw},
		{"password in russian prose", "пароль от базы: " + pw, pw},
		{"CLIENTSECRET variable", "CLIENTSECRET=hunter2isgood", "hunter2isgood"},
		// Once in clear: a database password on a command line.
		{"mysql -p", "mysql -u root -p" + pw + " shop < dump.sql", pw},
		{"mysqldump -p quoted", "mysqldump -uapp -p'" + pw + "' --all-databases", pw},
		{"mysql --password", "mysql --password " + pw + " shop", pw},
		{"psql url", "psql postgres://app:" + pw + "@db:5432/app", pw},
		{"PGPASSWORD", "PGPASSWORD=" + pw + " psql -h db -U app", pw},
		{"MYSQL_PWD", "MYSQL_PWD=" + pw + " mysql -u root", pw},
		{"redis-cli -a", "redis-cli -h cache -a " + pw + " ping", pw},
		{"mongosh --password", "mongosh --username app --password " + pw + " db/prod", pw},
		{"sshpass -p", "sshpass -p " + pw + " ssh deploy@10.0.0.7", pw},
		{"curl -u", "curl -u admin:" + pw + " https://ci.corp.local/api", pw},
		{"ldapsearch -w", "ldapsearch -x -D cn=admin -w " + pw + " -b dc=corp", pw},
	}
	if len(cases) < 34 {
		t.Fatalf("%d planted kinds, want at least 34", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			secret := c.secret
			if secret == "" {
				// The whole value after the lead is the secret: everything
				// after the last blank or '=' of the first line that holds it.
				line := c.text
				if i := strings.IndexByte(line, '\n'); i >= 0 && !strings.HasPrefix(line, "-----BEGIN") {
					line = line[:i]
				}
				if strings.HasPrefix(line, "-----BEGIN") {
					secret = strings.Split(c.text, "\n")[1]
				} else {
					secret = line[strings.LastIndexAny(line, " =")+1:]
				}
			}
			out, fs := RedactText(c.text)
			if len(fs) == 0 || strings.Contains(out, secret) {
				t.Fatalf("RedactText(%q) = %q: the secret %q stays in clear", c.text, out, secret)
			}
		})
	}
}

// Command lines that carry no password stay as they are: mysql's -p alone
// prompts, a variable is a reference, a port is not a password.
func TestCommandLinesWithoutPasswords(t *testing.T) {
	findsNothing(t, []string{
		"mysql -u root -p shop",
		"mysql -u root -p$MYSQL_PASSWORD shop",
		"mysql -h db -P 3306 -u app shop",
		"redis-cli -h cache ping",
		"curl -u admin https://ci.corp.local/api",
		"sshpass -e ssh host",
		"ldapsearch -x -W -b dc=corp",
		"pg_dump -h db -U app shop",
		"export OLDPWD=/home/ivan/src",
		"the password is stored in the keychain",
		"password: the one you chose at sign-up",
		"private_key: id_ed25519",
	})
}

// findsNothing requires that Scan finds nothing in each text.
func findsNothing(t *testing.T, texts []string) {
	t.Helper()
	for _, text := range texts {
		if fs := Scan(text); len(fs) != 0 {
			t.Errorf("Scan(%q) = %v, want nothing", text, fs)
		}
	}
}
