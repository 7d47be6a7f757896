"""Tasks a new user brings to ``bench examples``: strings written by hand, not drawn from a regex.

Each task is what a practitioner has at hand when asking for a regex: 12 to 15 strings to accept
and as many near misses to reject (the mistakes they want caught), and, to score the answer, 20
more of each that the learner never sees. The gold regex is what a person would write for the task;
the answer is scored on the held-out strings, and compared with the gold for exactness and length.
The strings are the author's own, chosen before any learner ran on them (Windows paths with spaces
and parentheses, IPv6 short forms, dotted YAML key paths, version tags with pre-releases, dollar
amounts with thousands separators, log timestamps). One line per string: several hold spaces."""

from __future__ import annotations

import attrs


@attrs.frozen
class HandTask:
    """A task written by hand: its name, the gold regex (Python syntax), the strings given, and
    the held-out strings."""

    name: str
    gold: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    held_positives: tuple[str, ...]
    held_negatives: tuple[str, ...]


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line for line in text.strip("\n").split("\n"))


WINDOWS_PATHS = HandTask(
    "windows path",
    r"[A-Z]:\\(?:[^\\]+\\)*[^\\]+",
    _lines(r"""
C:\Users\alice\Documents\report.docx
D:\Projects\regex-cegis\setup.cfg
C:\Windows\System32\drivers\etc\hosts
E:\backup\2023\photos\IMG_0042.JPG
C:\Program Files\Git\bin\git.exe
C:\Users\bob\Desktop\notes.txt
F:\music\Miles Davis\Kind of Blue\01 So What.flac
C:\temp\build.log
D:\data\sales_q3.csv
C:\Users\carol\AppData\Local\Temp\setup-x64.msi
G:\archive.zip
C:\inetpub\wwwroot\index.html
H:\Games\Steam\steamapps\common
C:\Python312\python.exe
Z:\shared\Team Budget (final).xlsx
"""),
    _lines(r"""
/home/alice/report.docx
C:/Users/alice/report.docx
Users\alice\report.docx
C:\Users\alice\
C:
C:\
\\server\share\file.txt
CD:\data\file.txt
C:Users\alice
C:\\Users\alice
1:\data\file.txt
C:\Users\\alice
D:\data\report.docx\
.\build\output.log
C;\Users\alice
"""),
    _lines(r"""
C:\Users\dave\Downloads\installer.exe
D:\Photos\2021\Summer\beach.png
C:\ProgramData\Microsoft\Windows\Start Menu
E:\src\main.c
C:\Users\erin\OneDrive\Thesis v2 (draft).docx
F:\logs\app-2024-01-05.log
C:\Windows\explorer.exe
D:\VMs\ubuntu 22.04\disk.vmdk
C:\tools\ffmpeg\bin\ffprobe.exe
G:\readme.md
C:\Users\frank\.ssh\id_rsa.pub
K:\Finance\2024\Q1\invoices_march.pdf
C:\Program Files (x86)\Mozilla Firefox\firefox.exe
D:\node_modules\lodash\package.json
C:\Users\grace\Music\playlist.m3u
X:\a
C:\$Recycle.Bin
E:\Movies\Alien (1979)\Alien.mkv
C:\Users\heidi\Documents\Letters\to_mom.txt
M:\scans\IMG_20240105_101112.jpg
"""),
    _lines(r"""
/var/log/syslog
C:/Windows/explorer.exe
Windows\explorer.exe
C:\Windows\
D:
E:\
\\nas\media\movie.mkv
AB:\file.txt
C:Windows\explorer.exe
C:\\Windows\explorer.exe
~\Documents\file.txt
D:\data\\file.txt
C:\Users\ivan\Desktop\
5:\temp\file.txt
C:\temp\\
.\script.ps1
C|\Users\judy
C :\Users\kim
file.txt
C:\Users\kim\file.txt\
"""),
)

IPV6_SHORT = HandTask(
    "ipv6 short form",
    r"(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?",
    _lines("""
fe80::1
::1
::
2001:db8::1
fe80::a00:27ff:fe4e:66a1
2001:db8:85a3::8a2e:370:7334
ff02::2
ff02::1:ff00:42
2001:db8::
fd00::abcd:12
2001:4860:4860::8888
::ffff:c000:280
fe80::c0a8:101
2606:4700::6810:84e5
"""),
    _lines("""
fe80:::1
2001:db8::g1
fe80::1::2
12345::1
fe80:1
:1
2001:db8::1:
fe80::1/64
192.168.0.1
2001:db8:0:0:0:0:0:1
:::
fe80::12345
fe80:: 1
g::1
"""),
    _lines("""
fe80::2
::2
2001:db8::42
fe80::1ff:fe23:4567:890a
2001:db8:1234::
ff05::1:3
::ffff:a00:1
fd12:3456:789a:1::1
2a00:1450:4001::200e
fe80::dead:beef
1::
::abcd
2001:db8:a::123
64:ff9b::c000:221
fc00::
2001::1
ff01::101
fe80::8:800:200c:417a
2620:fe::fe
abcd:ef01::2345
"""),
    _lines("""
fe80::1::1
fe80:::2
::g
2001:db8::12345
fe80:2
:2
2001:db8::42:
fe80::2/10
10.0.0.1
2001:db8:1:2:3:4:5:6
::::
ffff1::1
fe80::x
2001 :: 1
fe80-::1
[fe80::1]
fe80::1%eth0
::1:
:fe80::1
ff02:::
"""),
)

YAML_KEYS = HandTask(
    "yaml key",
    r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*",
    _lines("""
server.port
server.host
database.url
max_retries
log_level
logging.handlers.file.max_bytes
timeout
cache.ttl_seconds
auth.oauth2.client_id
retry_count
spring.datasource.password
metrics.enabled
api.v2.base_path
workers
tls.cert_file
"""),
    _lines("""
Server.port
server..port
.port
server.
server-port
2fa.enabled
server port
server.Port
server.port:
server/port
_private
logging.handlers.
max-retries
Timeout
api.2v
"""),
    _lines("""
server.timeout
db.pool.max_size
log_format
http.proxy.no_proxy
retries
app.name
feature_flags.dark_mode
redis.port
kafka.bootstrap_servers
jwt.secret
s3.bucket
email.smtp.host
rate_limit.per_minute
x
sentry.dsn
ui.theme
oauth2.scopes
backup.cron
mysql.user
k8s.namespace
"""),
    _lines("""
Server.timeout
db..pool
.hidden
redis.
log-format
3d.enabled
app name
app.Name
redis.port:
http/proxy
_internal
email.smtp.
rate-limit
Retries
s3.4bucket
app.name.
jwt secret
UI.theme
db.pool.max-size
key=value
"""),
)

VERSION_TAGS = HandTask(
    "version tag",
    r"v[0-9]+\.[0-9]+\.[0-9]+(?:-(?:alpha|beta|rc)\.[0-9]+)?",
    _lines("""
v1.2.3
v0.10.0
v2.0.0-rc.1
v1.4.0-beta.2
v10.3.12
v0.0.1
v3.1.4
v2.7.18
v1.0.0-alpha.1
v5.12.0
v0.9.7-rc.3
v4.0.0-beta.10
v1.21.6
v8.2.0
v0.1.0-alpha.4
"""),
    _lines("""
1.2.3
v1.2
v1.2.3.4
V1.2.3
v1..3
v1.2.3-
v1.2.x
version1.2.3
v1.2.3-rc
v.1.2.3
v1.2.3-gamma.1
v1.2.3-rc1
v 1.2.3
release-1.2.3
v1.2.3-beta.
"""),
    _lines("""
v1.0.0
v0.2.1
v3.0.0-rc.2
v2.1.0-beta.1
v11.0.5
v0.0.9
v6.4.2
v1.9.10
v2.0.0-alpha.3
v7.13.1
v0.3.0-rc.1
v9.0.0-beta.4
v1.33.7
v4.4.4
v0.1.1-alpha.12
v12.1.0
v3.3.3-rc.9
v0.5.0
v5.0.1
v2.2.2-beta.7
"""),
    _lines("""
2.0.0
v2.0
v2.0.0.1
V2.0.0
v2..0
v2.0.0-
v2.0.y
ver2.0.0
v2.0.0-beta
v.2.0.0
v2.0.0-delta.1
v2.0.0-rc2
v 2.0.0
tag-2.0.0
v2.0.0-alpha.
vv2.0.0
v2.0.0-RC.1
v2-0-0
v2.0.0+build
v-2.0.0
"""),
)

CURRENCY = HandTask(
    "currency amount",
    r"\$[0-9]{1,3}(?:,[0-9]{3})*\.[0-9]{2}",
    _lines("""
$1,234.56
$0.99
$12.00
$1,000,000.00
$999.99
$5.50
$45,000.00
$100.25
$3,141.59
$7.00
$250,000.75
$12,345,678.90
$64.10
$1.01
$808.08
"""),
    _lines("""
$1234.56
1,234.56
$1,23.45
$12.5
$12.
$.99
$1,234.567
$12,00
$ 12.00
$1,2345.00
$12
USD 12.00
$-5.00
$1,,234.56
12.00$
"""),
    _lines("""
$2.50
$19.99
$1,500.00
$10,000.01
$0.01
$333.33
$9,999.99
$2,000,000.00
$47.25
$6.66
$120.00
$88,888.88
$4.20
$1,001.10
$700.70
$15.00
$3,000.50
$99.00
$560,123.45
$8.88
"""),
    _lines("""
$1500.00
2.50
$1,50.00
$19.9
$19.
$.50
$2.500
$19,99
$ 2.50
$1,5000.00
$20
EUR 2.50
$-2.50
$1,,500.00
2.50$
$$2.50
$2.50.
$2,50.00
$1 000.00
$3.5O
"""),
)

LOG_TIMESTAMPS = HandTask(
    "log timestamp",
    r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2},[0-9]{3}",
    _lines("""
2024-01-05 12:34:56,789
2023-12-31 23:59:59,999
2024-02-29 00:00:00,000
2022-07-14 08:15:03,042
2024-03-01 17:45:12,500
2021-11-09 04:05:06,007
2024-06-18 21:10:44,318
2020-01-01 00:00:01,001
2023-05-22 13:37:00,123
2024-10-10 10:10:10,101
2019-08-30 19:45:27,860
2025-04-03 06:02:58,274
"""),
    _lines("""
2024-1-05 12:34:56,789
2024-01-05T12:34:56,789
2024-01-05 12:34:56
2024-01-05 12:34,789
24-01-05 12:34:56,789
2024/01/05 12:34:56,789
2024-01-05 12:34:56.789
2024-01-05  12:34:56,789
2024-01-05 12:34:56,78
[2024-01-05 12:34:56,789]
2024-01-05 12:3a:56,789
2024-01-05 12:34:56,7890
"""),
    _lines("""
2024-01-06 09:00:00,000
2023-11-30 18:22:41,517
2022-02-28 23:00:59,999
2024-08-08 08:08:08,808
2021-03-15 12:00:00,250
2024-12-24 20:30:15,730
2020-05-05 05:05:05,005
2023-09-01 01:02:03,004
2024-04-30 16:44:09,911
2019-12-12 12:12:12,121
2024-07-04 14:59:58,640
2022-10-31 22:13:37,420
2025-01-01 00:00:00,001
2023-06-15 11:11:11,111
2024-09-09 07:07:07,707
2018-02-14 19:19:19,190
2024-05-20 03:33:33,333
2021-01-26 15:16:17,181
2024-11-11 11:11:11,011
2023-04-01 09:41:26,535
"""),
    _lines("""
2024-1-06 09:00:00,000
2024-01-06T09:00:00,000
2024-01-06 09:00:00
2024-01-06 09:00,000
24-01-06 09:00:00,000
2024/01/06 09:00:00,000
2024-01-06 09:00:00.000
2024-01-06  09:00:00,000
2024-01-06 09:00:00,00
[2024-01-06 09:00:00,000]
2024-01-06 09:0a:00,000
2024-01-06 09:00:00,0000
2024-01-06 9:00:00,000
2024-01-06 09:00:00,000Z
2024-01-0609:00:00,000
2024-01-06 09-00-00,000
20240106 09:00:00,000
2024-01-06 09:00:00:000
2024_01_06 09:00:00,000
2024-01-06 09:00:00,
"""),
)

#: The hand-written tasks, in the order the table lists them.
HAND_TASKS: tuple[HandTask, ...] = (
    LOG_TIMESTAMPS,
    VERSION_TAGS,
    WINDOWS_PATHS,
    CURRENCY,
    IPV6_SHORT,
    YAML_KEYS,
)

#: The issue's own example (binary literals, 5 + 5): scored on strings drawn from the gold regex.
BINARY = HandTask(
    "binary literal",
    r"0b[01]+",
    ("0b101", "0b1", "0b1100", "0b0", "0b111001"),
    ("0b", "b101", "0b102", "0x1", "00b1"),
    (),
    (),
)
