"""Tests for watcher.redact: every rule fires on a realistic fake secret, ordinary text is left alone.

The fake secrets are assembled at run time from a prefix and a seeded random body, so this file itself contains no
string that a secret scanner (or push protection) would flag.
"""

from __future__ import annotations

import base64
import random
import string
import time

import pytest

from bench.redact_speed import LONG_INPUTS
from proactive.watcher.privacy.redact import RULES, contains_secret, find_secrets, redact

from .secret_samples import b64url, with_luhn

ALNUM = string.ascii_letters + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def fake(n: int, seed: int, alphabet: str = ALNUM) -> str:
    """A deterministic random-looking body of `n` characters."""
    rnd = random.Random(seed)
    return "".join(rnd.choice(alphabet) for _ in range(n))


PEM_BODY = "\n".join(fake(64, 100 + i, B64) for i in range(5))
JWT = ".".join(
    [
        b64url({"alg": "HS256", "typ": "JWT"}),
        b64url({"sub": "1234567890", "name": "Jane Doe"}),
        fake(43, 1, B64URL),
    ]
)
BEGIN, END = "-----BEGIN ", "-----END "


def pem(label: str) -> str:
    return f"{BEGIN}{label}-----\n{PEM_BODY}\n{END}{label}-----"


# (id, text before, secret, text after, kind): redact(before + secret + after) == before + marker + after
POSITIVES = [
    ("rsa-private-key", "my key:\n", pem("RSA PRIVATE KEY"), "\nthanks", "private-key"),
    ("openssh-private-key", "cat id_ed25519\n", pem("OPENSSH PRIVATE KEY"), "\n$ ", "private-key"),
    ("pkcs8-private-key", "key.pem: ", pem("PRIVATE KEY"), " (do not share)", "private-key"),
    ("pgp-private-key", "export ", pem("PGP PRIVATE KEY BLOCK"), " done", "private-key"),
    ("jwt", "the session cookie was ", JWT, " yesterday", "jwt"),
    (
        "aws-access-key-akia",
        "aws_access_key_id = ",
        "AKIA" + fake(16, 2, UPPER_ALNUM),
        "\nregion = eu-west-1",
        "aws-access-key",
    ),
    (
        "aws-access-key-asia",
        "temporary creds ",
        "ASIA" + fake(16, 3, UPPER_ALNUM),
        " expire soon",
        "aws-access-key",
    ),
    ("aws-secret-key", "aws_secret_access_key = ", fake(40, 4, B64), "\n", "aws-secret-key"),
    (
        "aws-secret-key-env",
        "export AWS_SECRET_ACCESS_KEY=",
        fake(40, 5, B64),
        " && aws s3 ls",
        "aws-secret-key",
    ),
    ("github-ghp", "git remote set-url origin with ", "ghp_" + fake(36, 6), " then push", "github-token"),
    ("github-gho", "oauth: ", "gho_" + fake(36, 7), ".", "github-token"),
    ("github-ghs", "GITHUB_APP ", "ghs_" + fake(36, 8), " rotated", "github-token"),
    (
        "github-pat",
        "new token ",
        "github_pat_" + fake(22, 9) + "_" + fake(59, 10),
        " created",
        "github-token",
    ),
    ("gitlab", "ci token ", "glpat-" + fake(20, 11, B64URL), " for the runner", "gitlab-token"),
    (
        "slack-bot-token",
        "bot: ",
        "xoxb-" + "-".join(fake(12, 12, string.digits) for _ in range(2)) + "-" + fake(24, 13),
        " ok",
        "slack-token",
    ),
    (
        "slack-user-token",
        "user ",
        "xoxp-" + fake(11, 14, string.digits) + "-" + fake(24, 15),
        " ok",
        "slack-token",
    ),
    (
        "slack-webhook",
        "post to ",
        "https://hooks.slack.com/services/T"
        + fake(8, 16, UPPER_ALNUM)
        + "/B"
        + fake(8, 17, UPPER_ALNUM)
        + "/"
        + fake(24, 18),
        " when done",
        "slack-webhook",
    ),
    ("stripe-sk-live", "STRIPE ", "sk_live_" + fake(24, 19), " in prod", "stripe-key"),
    ("stripe-rk-live", "restricted ", "rk_live_" + fake(24, 20), " in prod", "stripe-key"),
    ("stripe-sk-test", "test mode ", "sk_test_" + fake(24, 21), " locally", "stripe-key"),
    ("openai-legacy", "OPENAI key is ", "sk-" + fake(48, 22), " (old)", "openai-key"),
    ("openai-project", "client = OpenAI(api_key='", "sk-proj-" + fake(100, 23, B64URL), "')", "openai-key"),
    ("anthropic", "ANTHROPIC: ", "sk-ant-api03-" + fake(93, 24, B64URL) + "AA", " copied", "anthropic-key"),
    ("google-api-key", "maps?key=", "AIza" + fake(35, 25, B64URL), "&callback=init", "google-api-key"),
    (
        "huggingface",
        "huggingface-cli login --token ",
        "hf_" + fake(34, 26),
        " --add-to-git",
        "huggingface-token",
    ),
    ("npm", "//registry.npmjs.org/:_authToken ", "npm_" + fake(36, 27), "\n", "npm-token"),
    ("pypi", "twine upload -p ", "pypi-AgEIcHlwaS5vcmc" + fake(120, 28, B64URL), " dist/*", "pypi-token"),
    (
        "sendgrid",
        "SENDGRID ",
        "SG." + fake(22, 29, B64URL) + "." + fake(43, 30, B64URL),
        " mail",
        "sendgrid-key",
    ),
    (
        "authorization-bearer",
        "curl -H 'Authorization: Bearer ",
        fake(32, 31),
        "' https://api.example.com",
        "bearer-token",
    ),
    ("bare-bearer", "use Bearer ", fake(40, 32, string.hexdigits.lower()), " in the header", "bearer-token"),
    (
        "authorization-basic",
        "Authorization: Basic ",
        base64.b64encode(b"alice:Wonderland42").decode(),
        "\n",
        "authorization",
    ),
    ("url-password", "psql postgres://app:", "Tr0ub4dor-3", "@db.internal:5432/app", "url-password"),
    (
        "url-password-https",
        "clone https://bob:",
        "s3cr3t!",
        "@git.example.com/team/repo.git now",
        "url-password",
    ),
    ("url-password-no-user", "redis://:", "hunter2pass", "@cache:6379/0", "url-password"),
    ("password-equals", "login with password=", "hunter2", " and retry", "password"),
    ("password-spaced", "password = ", "correct-horse", "", "password"),
    ("password-colon", "Password: ", "Summer2024!", " (temp)", "password"),
    ("passwd-colon-nospace", "passwd:", "letmein", "\n", "password"),
    ("pwd", "pwd = ", "qwerty123", "\n", "password"),
    ("pass", "user: admin pass: ", "admin123", " host: nas", "password"),
    ("passphrase", "passphrase='", "blue whale jumping", "'", "password"),
    ("secret", "secret: ", "oiS9-fq.x", "\n", "password"),
    ("client-secret-json", '{"client_id": "abc", "client_secret": "', "GOCSPX-abcDEF", '"}', "password"),
    ("token", "token=", "tok3n", "&page=2", "password"),
    ("access-token-query", "https://api.example.com/me?access_token=", "EAAB1234", "&fields=id", "password"),
    ("api-key-yaml", "api_key: ", "abcd1234", "\nmodel: gpt", "password"),
    ("apikey", "apikey=", "Zz9yY8xX", " curl", "password"),
    ("api-dash-key", "--api-key=", "k3y-v4lue", " --verbose", "password"),
    ("private-key-assignment", 'private_key = "', "0xdeadbeefcafe", '"', "password"),
    ("db-password-dotted", "spring.datasource.password=", "changeme", "\n", "password"),
    ("password-cli", "mysql --password=", "rootpw", " -u root", "password"),
    ("export-api-token", "export API_TOKEN=", "abc123", "\nnpm run deploy", "password"),
    ("mysql-pwd", "MYSQL_PWD=", "s3cret", " mysql -u root", "password"),
    ("pgpassword", "PGPASSWORD='", "pa ss", "' psql -h db", "password"),
    ("env-secret-key-base", "SECRET_KEY_BASE=", "a1b2c3", " rails s", "password"),
    ("card-visa-plain", "pay with ", "4111111111111111", " please", "card"),
    ("card-visa-spaces", "Card: ", "4242 4242 4242 4242", " exp 12/27", "card"),
    ("card-mastercard-dashes", "mc ", "5555-5555-5555-4444", ", cvc later", "card"),
    ("card-amex", "amex ", "3782 822463 10005", ".", "card"),
    ("card-13-digits", "old visa ", "4222222222222", " ok", "card"),
    ("card-19-digits", "long ", with_luhn("601100099013942400"), " ok", "card"),
    ("high-entropy", "token in log: ", fake(32, 33, B64URL), " (unknown vendor)", "high-entropy"),
    ("high-entropy-base64", "blob ", fake(40, 34, B64) + "==", " end", "high-entropy"),
    (
        "high-entropy-slashes",
        "key ",
        fake(14, 48, B64) + "/" + fake(12, 49, B64) + "/" + fake(12, 50, B64),
        "\n",
        "high-entropy",
    ),
    (
        "url-token-user",
        "git push https://x-access-token:",
        "ghs_" + fake(36, 51),
        "@github.com/o/r.git",
        "github-token",
    ),
    ("password-ending-in-paren", "password=", "abc(", "", "password"),
    (
        "url-path-document-id",
        "https://docs.google.com/document/d/",
        "1" + fake(43, 52, B64URL),
        "/edit",
        "high-entropy",
    ),
    ("high-entropy-path-segment", "GET /v1/files/", fake(32, 35), "/download", "high-entropy"),
    # secrets typed on a command line: the value goes, the command stays
    ("cli-echo-pipe-sudo", "echo ", "hunter2pw", " | sudo -S ls", "password"),
    ("cli-echo-n-pipe-stdin", "echo -n ", "Tr0ub4dor", " | docker login --password-stdin -u me", "password"),
    ("cli-printf-pipe", "printf ", "'hunter2pw\\n'", " | sudo -S apt update", "password"),
    ("cli-printf-format-pipe", "printf ", "'%s\\n' hunter2pw", " | sudo -S -k true", "password"),
    ("cli-echo-pipe-quoted-bar", "echo ", "'pa|ss;w0rd'", " | sudo -S ls", "password"),
    ("cli-echo-pipe-passwd-stdin", "echo ", '"n3wpass"', " | passwd --stdin alice", "password"),
    ("cli-echo-pipe-chpasswd", "echo ", "alice:n3wpass", " | chpasswd", "password"),
    ("cli-here-string", "sudo -S true <<< ", "hunter2pw", "", "password"),
    ("cli-here-string-quoted", "sudo -S apt update <<<'", "two words", "'", "password"),
    ("cli-here-string-ansi-c", "sudo -kS true <<< $'", "hunter2pw\\n", "'", "password"),
    ("cli-password-space", "mysql --password ", "rootpw", " -u root", "password"),
    ("cli-passwd-space", "tool --passwd ", "s3cret", " --user me", "password"),
    ("cli-token-space", "deploy --token ", "tok3n", " --env prod", "password"),
    ("cli-api-key-space", "client --api-key ", "k3yv4lue", "", "password"),
    ("cli-mysql-p-attached", "mysql -u root -p", "rootpw", " mydb", "password"),
    ("cli-mysqldump-p-quoted", "mysqldump -u root -p'", "root pw", "' db > db.sql", "password"),
    ("cli-env-pass", "PASS=", "hunter2", " ./deploy.sh", "password"),
    ("cli-env-sshpass", "SSHPASS=", "hunter2", " sshpass -e ssh me@host", "password"),
    ("cli-env-passphrase", "GPG_PASSPHRASE=", "blue-whale", " make sign", "password"),
    ("cli-sshpass-p", "sshpass -p ", "hunter2", " ssh me@host", "password"),
    ("cli-sshpass-p-attached", "sshpass -p", "hunter2", " scp f host:", "password"),
    ("cli-docker-login-p", "docker login -u me -p ", "hunter2", " registry.example.com", "password"),
    ("cli-podman-login-p-first", "podman login -p ", "hunter2", " -u me quay.io", "password"),
    ("cli-az-login-p", "az login -u me@example.com -p ", "hunter2", "", "password"),
    ("cli-curl-u", "curl -u alice:", "hunter2", " https://api.example.com", "password"),
    ("cli-curl-u-attached", "curl -ualice:", "hunter2", " https://api.example.com", "password"),
    ("cli-curl-user-quoted", "curl --user 'alice:", "hunter2", "' https://api.example.com", "password"),
    ("cli-httpie-auth", "http -a alice:", "hunter2", " example.org/api", "password"),
    ("cli-openssl-pass", "openssl enc -aes-256-cbc -pass pass:", "hunter2", " -in notes.txt", "password"),
    ("cli-openssl-k", "openssl enc -d -aes256 -k ", "hunter2", " -in notes.enc", "password"),
    ("cli-keytool-storepass", "keytool -list -keystore ks.jks -storepass ", "hunter2", "", "password"),
    ("cli-redis-cli-a", "redis-cli -h cache -a ", "hunter2", " ping", "password"),
    ("cli-mongosh-p", "mongosh -u admin -p ", "hunter2", " --authenticationDatabase admin", "password"),
    ("cli-ldapsearch-w", "ldapsearch -x -D cn=admin -w ", "hunter2", " -b dc=example", "password"),
    ("cli-zip-P", "zip -P ", "hunter2", " archive.zip notes.txt", "password"),
    ("cli-smbclient-U", "smbclient //nas/share -U alice%", "hunter2", "", "password"),
    ("cli-htpasswd-b", "htpasswd -bc .htpasswd alice ", "hunter2", "", "password"),
    # more programs' password options and operands, and every one of them in a command
    ("cli-ssh-keygen-N", "ssh-keygen -t ed25519 -N ", "hunter2pw", " -f id_work", "password"),
    ("cli-ssh-keygen-qN-quoted", "ssh-keygen -qN '", "two words", "' -f id_work", "password"),
    ("cli-ssh-keygen-N-after-placeholder", "ssh-keygen -p -P <old> -N ", "n3wpass", " -f id_work", "password"),
    ("cli-ldappasswd-s", "ldappasswd -x -D cn=admin -W -s ", "n3wpass", " uid=bob", "password"),
    ("cli-mysqladmin-password", "mysqladmin -u root password ", "n3wpass", "", "password"),
    ("cli-lftp-u", "lftp -u alice,", "hunter2", " ftp.example.com", "password"),
    ("cli-ncftp-p", "ncftp -u alice -p ", "hunter2", " ftp.example.com", "password"),
    ("cli-useradd-p", "useradd -m -p ", "hunter2", " bob", "password"),
    ("cli-useradd-mp", "useradd -mp ", "hunter2", " bob", "password"),
    ("cli-rabbitmqctl-add-user", "rabbitmqctl add_user bob ", "hunter2", "", "password"),
    ("cli-curl-proxy-user-after-user", "curl -u alice -U proxy:", "hunter2", " https://x.example", "password"),
    ("cli-openssl-passwd-operand", "openssl passwd -6 -salt pepper ", "hunter2", " > hash.txt", "password"),
    ("cli-mkpasswd-operand", "mkpasswd -m sha-512 ", "hunter2", "", "password"),
    ("cli-url-credentials", "git clone https://alice:", "hunter2", "@git.example.com/r.git", "url-password"),
    # gaps found before: cards with any separators, Go and Oracle logins, more programs' password options, Mailgun,
    # AWS secret keys holding a `/`, 64-hex keys
    ("card-dots", "card ", "4111.1111.1111.1111", " ok", "card"),
    ("card-slashes", "card ", "5555/5555/5555/4444", " ok", "card"),
    ("card-double-spaces", "card ", "4242  4242  4242  4242", " ok", "card"),
    ("card-mixed-separators", "card ", "4111 1111-1111.1111", " ok", "card"),
    ("card-spaced-dashes", "card ", "4111 - 1111 - 1111 - 1111", " ok", "card"),
    ("card-digit-by-digit", "card ", "4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2", " ok", "card"),
    ("card-then-expiry", "", "4242 4242 4242 4242", " 12/27", "card"),
    ("go-dsn", 'dsn := "app:', "hunter2pw", '@tcp(db:3306)/app"', "password"),
    ("go-dsn-unix", "root:", "s3cr3t", "@unix(/run/mysqld.sock)/db", "password"),
    ("oracle-sqlplus", "sqlplus scott/", "tiger", "@orcl", "password"),
    ("oracle-sqlplus-local", "sqlplus -s scott/", "tiger", " @report.sql", "password"),
    ("oracle-expdp-userid", "expdp userid=system/", "Manager1", "@xe schemas=hr", "password"),
    ("oracle-rman", "rman target sys/", "Secr3t", "@prod", "password"),
    ("oracle-connect", "SQL> connect hr/", "hr_pw1", "", "password"),
    ("oracle-jdbc", "jdbc:oracle:thin:app/", "apppw", "@db.example.com:1521:orcl", "password"),
    ("cli-sqlcmd-P", "sqlcmd -S db -U sa -P ", "Str0ngPw", " -Q 'select 1'", "password"),
    ("cli-bcp-P", "bcp dbo.t out t.dat -S db -U sa -P", "Str0ngPw", " -c", "password"),
    ("cli-7z-p", "7z a -p", "hunter2", " -mhe=on secret.7z notes/", "password"),
    ("cli-unrar-p", "unrar x -p", "hunter2", " archive.rar", "password"),
    ("cli-net-use", "net use \\\\nas\\share ", "hunter2", " /user:alice", "password"),
    ("cli-net-use-user-first", "net use Z: \\\\nas\\share /user:CORP\\alice ", "hunter2", "", "password"),
    ("cli-net-user", "net user bob ", "N3wPass!", " /add", "password"),
    ("mailgun-key", "MG ", "key-" + fake(32, 60, string.ascii_lowercase + string.digits), " ok", "mailgun-key"),
    ("mailgun-pubkey", "", "pubkey-" + fake(32, 61, string.ascii_lowercase + string.digits), "", "mailgun-key"),
    ("aws-secret-key-bare-slashes", "secret ", fake(13, 62, B64) + "/" + fake(7, 63, B64) + "/" + fake(18, 64, B64),
     " ok", "aws-secret-key"),
    ("aws-secret-key-bare-plus", "", fake(20, 65) + "+" + fake(19, 66), "\n", "aws-secret-key"),
    ("hex-key-64", "key ", fake(64, 67, "0123456789abcdef"), "\n", "hex-key"),
    ("hex-key-64-upper", "", fake(64, 68, "0123456789ABCDEF"), "", "hex-key"),
    ("hex-key-0x", "PRIVATE=", "0x" + fake(64, 69, "0123456789abcdef"), " node", "hex-key"),
    ("hex-key-128", "blob ", fake(128, 70, "0123456789abcdef"), ".", "hex-key"),
]


@pytest.mark.parametrize(
    ("before", "secret", "after", "kind"), [p[1:] for p in POSITIVES], ids=[p[0] for p in POSITIVES]
)
def test_positive(before: str, secret: str, after: str, kind: str) -> None:
    text = before + secret + after
    out = redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert out == before + f"[REDACTED:{kind}]" + after
    assert contains_secret(text)


def test_every_rule_has_a_positive_example() -> None:
    kinds = {rule.kind for rule in RULES}
    assert kinds <= {p[4] for p in POSITIVES}


NEGATIVES = [
    ("sentence", "The quick brown fox jumps over the lazy dog."),
    ("sentence-long", "Let's meet on Thursday to review the quarterly report and the onboarding checklist."),
    ("python-import", "import requests"),
    ("python-def", "def get_user(user_id: int) -> dict:"),
    ("python-annotation", "def login(username: str, password: str) -> bool:"),
    ("python-kwarg-variable", "client = Client(token=token, api_key=self.api_key)"),
    ("python-none", "password = None"),
    ("python-optional", "token: Optional[str] = None"),
    ("python-environ", "secret = os.environ['APP_SECRET']"),
    ("python-getpass", "password = getpass.getpass()"),
    ("json-null", '{"password": null}'),
    ("masked", "Password: ********"),
    ("shell-git-commit", "git commit -m 'fix'"),
    ("shell-ls", "ls -la /usr/local/bin"),
    ("shell-pipeline", "grep -rn 'TODO' src/ | sort | uniq -c | head -20"),
    ("git-sha", "git checkout 3f786850e387550fdab836ed7e6dc881de23001b"),
    ("git-sha-upper", "commit 3F786850E387550FDAB836ED7E6DC881DE23001B"),
    ("uuid", "request id 123e4567-e89b-12d3-a456-426614174000 failed"),
    ("url-query", "https://www.google.com/search?q=python+regex+lookbehind&hl=en&sourceid=chrome&ie=UTF-8"),
    ("url-utm", "https://example.com/blog/2024/01/post-title?utm_source=newsletter&utm_medium=email"),
    ("url-port-path", "http://localhost:8080/api/v1/users/42?sort=desc"),
    (
        "url-github-blob",
        "https://github.com/python/cpython/blob/3f786850e387550fdab836ed7e6dc881de23001b/Lib/re/__init__.py",
    ),
    ("email", "write to jane.doe@example.com about it"),
    ("phone-us", "Call me at +1 (555) 123-4567 tomorrow"),
    ("phone-intl", "Tel: +44 20 7946 0958"),
    ("date-time", "2024-01-15 12:30:45 meeting moved to 2024-02-01T09:00:00Z"),
    ("date-slash", "due 01/15/2024, paid 15.01.2024"),
    ("order-16-digits-luhn-fails", "Your order 1234567812345678 has shipped"),
    ("order-grouped-luhn-fails", "Ref 4111 1111 1111 1112 pending"),
    ("epoch-seconds", "ts=1700000000 took 0.25s"),
    ("big-number", "population 8,100,000,000 and 3.14159265358979"),
    ("password-reset-prose", "I forgot my password yesterday"),
    ("password-prose-2", "Please reset your password using the link we sent you."),
    ("password-hint-key", "password_hint=favourite colour"),
    ("token-prose", "Each token is roughly four characters of English text."),
    ("token-prose-2", "The max token count was exceeded by the prompt"),
    ("max-tokens-kwarg", "llm(prompt, max_tokens=256, temperature=0.7)"),
    ("tokenizers-env", "TOKENIZERS_PARALLELISM=false python train.py"),
    ("pwd-env", "PWD=/home/alice/projects OLDPWD=/tmp"),
    ("camelcase", "AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor"),
    ("camelcase-digits", "HttpClient2ConnectionManagerFactory.getInstance()"),
    ("java-identifier", "getUserProfileById2024Version(userId)"),
    ("snake-identifier", "test_user_profile_update_returns_403_for_guest_users"),
    ("base64-short", "data:image/png;base64,iVBORw0KGgo="),
    ("base64-short-2", 'etag: W/"a1B2c3D4e5F6"'),
    ("file-path", "/home/alice/Documents/Report2024/final_draft_v3.docx"),
    ("file-path-relative", "src/components/UserProfileCard2/index.tsx"),
    ("file-path-windows", r"C:\Users\Alice\AppData\Local\Programs\Python\Python311\python.exe"),
    ("file-name-dated", "MyProject_v2-Backup_2024-01-15_Final.zip"),
    ("photo-name", "IMG_20240115_093012_HDR_Portrait.jpg"),
    ("window-title", "README.md - proactive-assistant - Visual Studio Code"),
    ("sk-prose", "sk-learn-tutorial-for-beginners-part-one"),
    ("bearer-prose", "He was the bearer of bad news."),
    ("private-key-prose", "Never paste your private key into a chat."),
    ("markdown-table", "| name | value |\n|------|-------|\n| a    | 1     |"),
    ("empty", ""),
    # command lines that look like the inline forms but carry no secret
    ("cli-mysql-p-prompts", "mysql -u root -p mydb"),
    ("cli-mysql-p-alone", "mysql -p"),
    ("cli-ls-p", "ls -p /tmp"),
    ("cli-ps-p", "ps -p 1234 -o rss"),
    ("cli-mkdir-p", "mkdir -p build/out"),
    ("cli-ssh-port", "ssh -p 2222 me@host"),
    ("cli-here-string-to-cat", "cat <<< hello"),
    ("cli-echo-pipe-sort", "echo hello world | sort | uniq"),
    ("cli-echo-path-pipe", "echo $PATH | tr : '\\n'"),
    ("cli-echo-then-sudo", "echo done && ls | sudo tee /tmp/out"),
    ("cli-sudo-S-no-input", "sudo -S ls"),
    ("cli-ask-pass", "ansible-playbook --ask-pass --ask-become-pass site.yml"),
    ("cli-no-password", "psql --no-password -h db"),
    ("cli-password-stdin", "docker login --password-stdin -u me registry.example.com"),
    ("cli-docker-login-user", "docker login -u me registry.example.com"),
    ("cli-curl-user-only", "curl -u alice https://api.example.com"),
    ("cli-password-next-option", "mysql --password -u root"),
    ("cli-password-placeholder", "mysql --password <password> -p****"),
    ("cli-bypass-env", "BYPASS_CACHE=1 COMPASS=north make"),
    # look-alikes of the rules for those gaps
    ("ip-addresses", "ping 192.168.100.200 then 10.0.0.1 and 172.16.254.1"),
    ("decimal-pi-dots", "pi = 3.14159265358979 and e = 2.718281828459045"),
    ("version-chain", "upgraded 1.2.3 -> 4.5.6 -> 7.8.9 -> 10.11.12 today"),
    ("dates-mixed", "from 2024-01-15 to 15/01/2024 or 15.01.2024, 2024/01/15"),
    ("phone-grouped", "call +49 30 1234 5678 or 0800 123 4567"),
    ("go-module-version", "go get golang.org/x/tools@v0.21.0 github.com/me/repo@main"),
    ("npm-scoped", "npm i @types/node@20 && ls node_modules/@types"),
    ("sqlplus-os-auth", "sqlplus / as sysdba"),
    ("sqlplus-nolog", "sqlplus /nolog @setup.sql"),
    ("oracle-prose-path", "read docs/guide.md about rman backups"),
    ("cli-7z-p-prompts", "7z x -p archive.7z"),
    ("cli-sqlcmd-integrated", "sqlcmd -S db -E -Q 'select 1'"),
    ("cli-net-use-prompt", "net use Z: \\\\nas\\share * /user:alice"),
    ("cli-net-use-list", "net use"),
    ("cli-net-use-delete", "net use Z: /delete"),
    ("cli-net-user-show", "net user alice"),
    ("key-value-prose", "a key-value store is a database"),
    ("git-sha-40", "3f786850e387550fdab836ed7e6dc881de23001b..a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"),
    ("md5-32", "md5 d41d8cd98f00b204e9800998ecf8427e"),
    ("path-40-chars-words", "src/components/UserProfileCard/Widgets1"),
    ("cli-ssh-keygen-empty-passphrase", "ssh-keygen -t ed25519 -N '' -f id_ci -C ci@example.com"),
    ("cli-ssh-keygen-placeholders", "ssh-keygen -p -P <old> -N <new> -f id_work"),
    ("cli-openssl-passwd-stdin", "openssl passwd -6 -stdin < pw.txt"),
    ("cli-login-placeholder", "docker login -p <password> -u me registry.example.com"),
]


@pytest.mark.parametrize("line", [
    "htpasswd -b .htpasswd alice hunter2pw > /dev/null",
    "htpasswd -bC 12 .htpasswd alice hunter2pw 2>&1 | tee log",
    "htpasswd -b -r 5000 .htpasswd alice 'hunter2pw' >> log",
    "htpasswd -nbB alice hunter2pw > line.txt",
])
def test_htpasswd_password_before_a_redirection_is_redacted(line: str) -> None:
    """htpasswd's password is the operand after the user, not the command's last word (a redirection's target,
    which alone was redacted, storing the password)."""
    assert "hunter2pw" not in redact(line)


@pytest.mark.parametrize("line, secrets", [
    ("ssh-keygen -p -P 0ldpass9 -N n3wpass9 -f id_work", ["0ldpass9", "n3wpass9"]),
    ('ssh-keygen -p -P "dont panic9" -N n3wpass9 -f k', ["dont panic9", "n3wpass9"]),  # after a quoted one
    ("ssh-keygen -p -P 'old pass9' -N `new pass9`", ["old pass9", "new pass9"]),
    ("ssh-keygen -Nn3wPass99 -f k", ["n3wPass99"]),  # attached after the letter, holding an N and a P
    ("ldappasswd -x -D cn=admin -w adminpw9 -a 0ldpass9 -s n3wpass9 uid=bob", ["adminpw9", "0ldpass9", "n3wpass9"]),
    ("curl -u alice:pw1pw1pw -U proxy:pw2pw2pw https://x.example", ["pw1pw1pw", "pw2pw2pw"]),
    ("sshpass -p pw1pw1pw ssh a; sshpass -p pw2pw2pw ssh b", ["pw1pw1pw", "pw2pw2pw"]),
    ("mysql -u a -ppw1pw1pw -e 'select 1' db1 && mysqldump -ppw2pw2pw db2", ["pw1pw1pw", "pw2pw2pw"]),
    ("openssl passwd -6 pw1pw1pw \"pw2 pw2pw\" pw3pw3pw > hashes", ["pw1pw1pw", "pw2 pw2pw", "pw3pw3pw"]),
], ids=["ssh-keygen", "ssh-keygen-after-double-quotes", "ssh-keygen-quoted", "ssh-keygen-attached", "ldappasswd",
        "curl", "two-commands", "mysql-then-mysqldump", "openssl-passwd-operands"])
def test_every_password_option_of_a_command_is_redacted(line: str, secrets: list[str]) -> None:
    """A program's options that take passwords, several in one command: each value goes, not only the first
    (one match of the program's name used to end at its first option)."""
    out = redact(line)
    for secret in secrets:
        assert secret not in out, out
    assert out.count("[REDACTED:password]") == len(secrets), out


@pytest.mark.parametrize("text", [n[1] for n in NEGATIVES], ids=[n[0] for n in NEGATIVES])
def test_negative(text: str) -> None:
    assert redact(text) == text
    assert find_secrets(text) == []
    assert not contains_secret(text)


ALL_TEXTS = [p[1] + p[2] + p[3] for p in POSITIVES] + [n[1] for n in NEGATIVES]


@pytest.mark.parametrize("text", ALL_TEXTS, ids=[p[0] for p in POSITIVES] + [n[0] for n in NEGATIVES])
def test_idempotent(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


def test_idempotent_on_everything_at_once() -> None:
    text = "\n".join(ALL_TEXTS)
    once = redact(text)
    assert redact(once) == once
    for _id, _before, secret, _after, _kind in POSITIVES:
        assert secret not in once


def test_private_key_without_end_is_redacted_to_the_end() -> None:
    text = f"look at this:\n{BEGIN}RSA PRIVATE KEY-----\n{PEM_BODY}\nand some more text after it"
    assert redact(text) == "look at this:\n[REDACTED:private-key]"


def test_private_key_with_mismatched_end_fails_closed() -> None:
    text = f"{BEGIN}RSA PRIVATE KEY-----\n{PEM_BODY}\n{END}EC PRIVATE KEY-----\ntrailer"
    assert redact(text) == "[REDACTED:private-key]"


def test_two_private_keys_keep_the_text_between() -> None:
    text = f"a {pem('RSA PRIVATE KEY')} b {pem('EC PRIVATE KEY')} c"
    assert redact(text) == "a [REDACTED:private-key] b [REDACTED:private-key] c"


def test_find_secrets_spans() -> None:
    key = "AKIA" + fake(16, 40, UPPER_ALNUM)
    text = f"id {key} pwd=hunter2 card 4111111111111111"
    spans = find_secrets(text)
    assert spans == [
        ("aws-access-key", 3, 23),
        ("password", text.index("hunter2"), text.index("hunter2") + 7),
        ("card", text.index("4111"), len(text)),
    ]
    for _kind, start, end in spans:
        assert text[start:end] in {key, "hunter2", "4111111111111111"}


def test_overlapping_matches_merge_and_specific_kind_wins() -> None:
    # The JWT is also a bearer token: one marker, labelled by the more specific rule.
    assert redact(f"Authorization: Bearer {JWT}") == "Authorization: Bearer [REDACTED:jwt]"
    # A GitHub token assigned to a password-style key keeps the key and the specific label.
    token = "ghp_" + fake(36, 41)
    assert redact(f"token={token}") == "token=[REDACTED:github-token]"
    # A URL with credentials and a token in the query: both parts go, the host stays.
    text = f"https://u:pw1234@host.example.com/x?api_key={fake(30, 42)}&a=1"
    assert (
        redact(text) == "https://u:[REDACTED:url-password]@host.example.com/x?api_key=[REDACTED:password]&a=1"
    )


def test_merged_span_covers_the_union() -> None:
    secret = "4111111111111111" + fake(40, 43)  # card digits run straight into a high-entropy token
    out = redact(f"x {secret} y")
    assert out.startswith("x [REDACTED:") and out.endswith("] y")
    assert "4111" not in out and secret[16:] not in out
    assert out.count("[REDACTED:") == 1


def test_marker_format_and_multiple_secrets() -> None:
    text = f"a={'sk-' + fake(48, 44)} b={'AKIA' + fake(16, 45, UPPER_ALNUM)}"
    assert redact(text) == "a=[REDACTED:openai-key] b=[REDACTED:aws-access-key]"


def test_deterministic() -> None:
    text = "\n".join(ALL_TEXTS)
    assert redact(text) == redact(text)
    assert find_secrets(text) == find_secrets(text)


def cpu_seconds(work) -> float:
    """CPU time of `work()`: the machine's load (other test workers) does not move it, so a loose budget on it
    catches runaway cost (a backtracking pattern takes minutes) without flaking; speed figures are measured in
    bench/redact_speed.py (which holds the inputs, LONG_INPUTS)."""
    started = time.process_time()
    work()
    return time.process_time() - started


@pytest.mark.parametrize("text", LONG_INPUTS.values(), ids=LONG_INPUTS.keys())
def test_100kb_never_runs_away(text: str) -> None:
    assert cpu_seconds(lambda: redact(text)) < 3.0  # about 0.6 s at worst on one core of this machine


def test_long_values_are_redacted_entirely() -> None:
    value = fake(20_000, 46, ALNUM + "!$%")
    assert redact(f"password={value} end") == "password=[REDACTED:password] end"
    blob = fake(100_000, 47, B64)
    assert redact(f"paste: {blob}") == "paste: [REDACTED:high-entropy]"


def test_redacting_redacted_100kb_is_fast_and_stable() -> None:
    once = redact(("pwd=hunter2 card 4111111111111111 ok " * 3000)[:100_000])
    assert once.count("[REDACTED:") > 5000
    assert cpu_seconds(lambda: redact(once)) < 3.0 and redact(once) == once
