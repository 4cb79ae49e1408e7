package main

import (
	"fmt"
	"math/rand"
	"strings"
)

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lower + digits
	b64url = alnum + "_-"
	hexLow = "0123456789abcdef"
)

func str(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

func pick(r *rand.Rand, xs ...string) string { return xs[r.Intn(len(xs))] }

// around places a value in one of a few sentences (Russian and English,
// prose, config, code).
func around(r *rand.Rand, lead ...string) (string, string) {
	pre := pick(r, lead...)
	suf := pick(r, "\n", " — см. заметку.\n", ", then restart.\n", "\nnext line\n", "")
	return "Some text before.\n" + pre, suf
}

type gen func(r *rand.Rand) (string, string, string)

func digitsLuhn(r *rand.Rand, prefix string, n int) string {
	d := prefix + str(r, digits, n-len(prefix)-1)
	for c := '0'; c <= '9'; c++ {
		if luhn(d + string(c)) {
			return d + string(c)
		}
	}
	return ""
}

func luhn(d string) bool {
	sum, double := 0, false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			if n *= 2; n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

func inn(r *rand.Rand, n int) string {
	for {
		d := str(r, digits, n)
		b := []byte(d)
		chk := func(w []int) byte {
			s := 0
			for i, k := range w {
				s += k * int(b[i]-'0')
			}
			return byte('0' + s%11%10)
		}
		if n == 10 {
			b[9] = chk([]int{2, 4, 10, 3, 5, 9, 4, 6, 8})
		} else {
			b[10] = chk([]int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
			b[11] = chk([]int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
		}
		if b[0] != '0' {
			return string(b)
		}
	}
}

func snils(r *rand.Rand) string {
	d := str(r, digits, 9)
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(d[i]-'0') * (9 - i)
	}
	c := sum
	if sum >= 100 {
		if c = sum % 101; c == 100 {
			c = 0
		}
	}
	return fmt.Sprintf("%s-%s-%s %02d", d[:3], d[3:6], d[6:9], c)
}

func groups(d string, sizes []int, sep string) string {
	var parts []string
	for _, s := range sizes {
		parts = append(parts, d[:s])
		d = d[s:]
	}
	return strings.Join(parts, sep)
}

func generators() map[string]gen {
	keyLead := []string{"key: ", "KEY=", "ключ: ", "export TOKEN=", "`", "Токен доступа: "}
	return map[string]gen{
		"aws-access-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "aws_access_key_id = ", "AWS key ", "AccessKeyId: ")
			return p, "AKIA" + str(r, upper+"234567", 16), s
		},
		"aws-secret-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "aws_secret_access_key = ", "AWS_SECRET_ACCESS_KEY=", `"aws_secret": "`)
			return p, str(r, alnum+"/+", 40), s
		},
		"github-token": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			if r.Intn(2) == 0 {
				return p, pick(r, "ghp_", "gho_", "ghs_") + str(r, alnum, 36), s
			}
			return p, "github_pat_" + str(r, alnum, 22) + "_" + str(r, alnum, 59), s
		},
		"gitlab-token": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, "glpat-" + str(r, b64url, 20), s
		},
		"slack-token": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, pick(r, "xoxb-", "xoxp-") + str(r, digits, 12) + "-" + str(r, alnum, 24), s
		},
		"slack-webhook": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "webhook: ", "POST ")
			return p, "https://hooks.slack.com/services/T" + str(r, upper+digits, 8) + "/B" + str(r, upper+digits, 8) + "/" + str(r, alnum, 24), s
		},
		"stripe-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, pick(r, "sk_live_", "rk_live_") + str(r, alnum, 24+r.Intn(76)), s
		},
		"openai-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "OPENAI_API_KEY=", "openai: ", "ключ OpenAI ")
			return p, pick(r, "sk-", "sk-proj-") + str(r, b64url, 48+r.Intn(100)), s
		},
		"anthropic-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, "sk-ant-api03-" + str(r, b64url, 93), s
		},
		"google-api-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, "AIza" + str(r, b64url, 35), s
		},
		"twilio-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, pick(r, "SK", "AC") + str(r, hexLow, 32), s
		},
		"sendgrid-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, keyLead...)
			return p, "SG." + str(r, b64url, 22) + "." + str(r, b64url, 43), s
		},
		"npm-token": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "//registry.npmjs.org/:_authToken=", "NPM_TOKEN=")
			return p, "npm_" + str(r, alnum, 36), s
		},
		"telegram-bot-token": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "bot token: ", "TELEGRAM=")
			return p, fmt.Sprint(100000000+r.Intn(900000000)) + ":AA" + str(r, b64url, 33), s
		},
		"jwt": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "Authorization: Bearer ", "jwt=", "токен: ")
			return p, "eyJ" + str(r, b64url, 20+r.Intn(20)) + ".eyJ" + str(r, b64url, 30+r.Intn(60)) + "." + str(r, b64url, 43), s
		},
		"private-key": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "", "ключ:\n", "```\n")
			kind := pick(r, "RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ")
			var body []string
			for i := 0; i < 3+r.Intn(20); i++ {
				body = append(body, str(r, alnum+"+/", 64))
			}
			return p, "-----BEGIN " + kind + "PRIVATE KEY-----\n" + strings.Join(body, "\n") + "\n-----END " + kind + "PRIVATE KEY-----", s
		},
		"connection-string": func(r *rand.Rand) (string, string, string) {
			pw := str(r, alnum, 6+r.Intn(14))
			switch r.Intn(4) {
			case 0:
				return "DATABASE_URL=postgres://app:", pw, "@db.internal:5432/app\n"
			case 1:
				return "mongo: mongodb+srv://svc:", pw, "@cluster0.abcd.mongodb.net/prod\n"
			case 2:
				return "dsn = mysql://root:", pw, "@10.0.0.5:3306/shop\n"
			}
			return "Server=tcp:sql.corp,1433;Database=crm;User Id=sa;Password=", pw, ";Encrypt=true\n"
		},
		"url-password": func(r *rand.Rand) (string, string, string) {
			return pick(r, "clone https://deploy:", "ftp://backup:", "see https://bot:"), str(r, alnum, 8+r.Intn(12)), "@files.corp.local/x\n"
		},
		"password": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "password=", "DB_PASSWORD=", "passwd: ", "Пароль: ", `"password": "`, "pwd = ",
				"PGPASSWORD=", "export PGPASSWORD=", "the db password is ", "пароль от базы: ")
			return p, str(r, lower, 3) + str(r, upper, 2) + str(r, digits, 2) + str(r, alnum+"!#&*", 3+r.Intn(8)), s
		},
		"cli-password": func(r *rand.Rand) (string, string, string) {
			pw := str(r, lower, 3) + str(r, upper, 2) + str(r, digits, 2) + str(r, alnum, 3+r.Intn(8))
			switch r.Intn(6) {
			case 0:
				return "mysql -u root -p", pw, " shop < dump.sql\n"
			case 1:
				return "mysqldump -uapp -p'", pw, "' --all-databases > all.sql\n"
			case 2:
				return "redis-cli -h cache.internal -a ", pw, " ping\n"
			case 3:
				return "sshpass -p ", pw, " ssh deploy@10.0.0.7\n"
			case 4:
				return "curl -u admin:", pw, " https://ci.corp.local/api\n"
			}
			return "mongosh --username app --password ", pw, " db.internal/prod\n"
		},
		"password-hash": func(r *rand.Rand) (string, string, string) {
			salt := str(r, alnum+"./", 8+r.Intn(8))
			switch r.Intn(4) {
			case 0:
				return pick(r, "root:", "deploy:", ""), "$6$" + salt + "$" + str(r, alnum+"./", 86), ":19700:0:99999:7:::\n"
			case 1:
				return "admin:", "$2y$10$" + str(r, alnum+"./", 53), "\n"
			case 2:
				return "user:", "$5$" + salt + "$" + str(r, alnum+"./", 43), "\n"
			}
			return "bob:", "$y$j9T$" + salt + "$" + str(r, alnum+"./", 43), "\n"
		},
		"secret-assignment": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "api_key = ", "client_secret: ", "SERVICE_TOKEN=", `"apiKey": "`, "CLIENTSECRET=")
			if r.Intn(3) == 0 { // chosen by a person: lower case and digits
				return p, str(r, lower, 6) + str(r, digits, 2) + str(r, lower+digits, 4+r.Intn(8)), s
			}
			return p, str(r, lower, 2) + str(r, digits, 2) + str(r, upper, 2) + str(r, alnum, 10+r.Intn(10)), s
		},
		"high-entropy": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "the signing key is ", "секретный ключ вебхука ", "salt ", "Bearer-подпись: ")
			if r.Intn(3) == 0 {
				return p, str(r, hexLow, 32+r.Intn(33)), s
			}
			return p, str(r, alnum+"+/", 24+r.Intn(40)), s
		},
		"email": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "пишите на ", "contact: ", "e-mail ", "<", "[почта](mailto:")
			return p, str(r, lower, 3+r.Intn(8)) + pick(r, ".", "_", "") + str(r, lower, 2+r.Intn(6)) + "@" + pick(r, "yandex.ru", "gmail.com", "corp.io", "mail.ru", "company.co.uk", "xn--80ak6aa92e.com"), s
		},
		"phone": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "тел. ", "Phone: ", "звоните ", "моб.: ", "(")
			d := str(r, digits, 7)
			code := pick(r, "9", "4", "8", "3") + str(r, digits, 2)
			switch r.Intn(6) {
			case 0:
				return p, "+7 (" + code + ") " + d[:3] + "-" + d[3:5] + "-" + d[5:], s
			case 1:
				return p, "+7" + code + d, s
			case 2:
				return p, "8 " + code + " " + d[:3] + " " + d[3:5] + " " + d[5:], s
			case 3:
				return p, "8-" + code + "-" + d[:3] + "-" + d[3:5] + "-" + d[5:], s
			case 4:
				return p, "+44 20 " + str(r, digits, 4) + " " + str(r, digits, 4), s
			}
			return p, "+1-" + str(r, "23456789", 1) + str(r, digits, 2) + "-" + str(r, digits, 3) + "-" + str(r, digits, 4), s
		},
		"card-number": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "карта ", "card: ", "оплата с ", "№ карты ")
			d := digitsLuhn(r, pick(r, "4", "51", "55", "2202", "2200", "5536", "4276"), 16)
			switch r.Intn(3) {
			case 0:
				return p, groups(d, []int{4, 4, 4, 4}, " "), s
			case 1:
				return p, groups(d, []int{4, 4, 4, 4}, "-"), s
			}
			return p, d, s
		},
		"passport-ru": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "паспорт ", "Паспорт: серия ", "паспортные данные: ", "passport ")
			ser := str(r, "123456789", 1) + str(r, digits, 3)
			num := str(r, "123456789", 1) + str(r, digits, 5)
			return p, pick(r, ser[:2]+" "+ser[2:]+" "+num, ser+" "+num, ser+" № "+num), s
		},
		"inn": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "ИНН ", "ИНН: ", "INN ", "ИНН организации ")
			if r.Intn(2) == 0 {
				return p, inn(r, 10), s
			}
			return p, inn(r, 12), s
		},
		"snils": func(r *rand.Rand) (string, string, string) {
			p, s := around(r, "СНИЛС ", "snils: ", "страховой номер ", "")
			return p, snils(r), s
		},
	}
}
