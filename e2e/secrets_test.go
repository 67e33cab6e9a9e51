package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// secretWorkload is a varied workload whose every constant is a marker:
// a string constant holds "zq" and a tag, a number is 7 digits from 7340001
// up, so a marker found on /metrics, in pg_stat_statements or in the log can
// only have come from a statement's text. It spells string constants every
// way PostgreSQL does, sets passwords, and sends comments with quotes.
var secretWorkload = []string{
	`CREATE TABLE sec (id INTEGER NOT NULL, note TEXT DEFAULT 'zq-default', d DATE, n NUMERIC, PRIMARY KEY (id))`,
	`INSERT INTO sec VALUES (7340001, 'zq-plain', DATE '2031-07-19', 7340002.5)`,
	`INSERT INTO sec VALUES (7340003, E'zq-escape\'s', '2032-08-21', -7340004)`,
	`INSERT INTO sec VALUES (7340005, 'zq-exponent', NULL, 7340006e0)`,
	`INSERT INTO sec VALUES (7340007, $$zq-dollar's$$, NULL, NULL)`,
	`INSERT INTO sec VALUES (7340008, $tag$zq-tagged $$ nested$tag$, NULL, NULL)`,
	`SELECT id FROM sec WHERE note = 'zq-where' OR id = 7340009`,
	`SELECT B'1011001', X'7A71FF', N'zq-national', interval '7340010 seconds', '{7340011,7340012}'::int[], ARRAY[7340013, 7340014]`,
	`SELECT timestamp '2033-09-23 10:00:00', time '11:22:33', 'zq-cast'::text, CAST('7340015' AS int)`,
	`SELECT /* comment 'zq-comment' */ id FROM sec -- 'zq-line-comment'
	WHERE id > 7340016`,
	`SELECT 'zq-concat' || note FROM sec WHERE id IN (7340017, 7340018)`,
	`UPDATE sec SET note = 'zq-update' WHERE id = 7340019`,
	`DELETE FROM sec WHERE note = 'zq-delete'`,
	`SET application_name = 'zq-setting'`,
	`CREATE ROLE zqrole LOGIN PASSWORD 'zq-create-role-pw'`,
	`ALTER ROLE zqrole PASSWORD 'zq-alter-role-pw'`,
	`ALTER ROLE zqrole WITH ENCRYPTED PASSWORD E'zq-escape-pw'`,
	`ALTER USER zqrole WITH PASSWORD $pw$zq-dollar-pw$pw$`,
	`CREATE USER zquser PASSWORD 'zq-create-user-pw'`,
	`ALTER USER zquser PASSWORD 'SCRAM-SHA-256$4096:zqsalt$zqstoredkey:zqserverkey'`,
	`EXPLAIN SELECT id FROM sec WHERE note = 'zq-explain'`,
	`SELECT 'zq-multi-1'; SELECT 7340020`,
	`SELECT U&'zq-unicode\0061'`,
}

// Statements of the workload that fail: their text reaches the error path
// (and its logging) but not the statistics.
var secretFailures = []string{
	`SELECT 'zq-missing' FROM no_such_table WHERE x = 7340021`,
	`SELECT 'zq-syntax' FROM`,
	`SELECT 'zq-unterminated`,
	`ALTER ROLE no_such_role PASSWORD 'zq-missing-role-pw'`,
	`SELECT 7340022 / 0`,
	// A Unicode escape that names no character (22025).
	`SELECT U&'zq-badescape\00zz'`,
	`INSERT INTO sec VALUES (7340001, 'zq-duplicate')`,
}

// markerRE finds the workload's markers in any text.
var markerRE = regexp.MustCompile(`(?i)zq-[a-z0-9-]*|zq(salt|storedkey|serverkey)|734\d{4}|2031-07-19|2032-08-21|2033-09-23|11:22:33|7A71FF|1011001`)

// TestNoSecretsInMetricsOrLogs runs a workload with passwords and constants
// of every spelling, through pgx (simple and extended protocol) and psql, on
// a proxy logging at debug level, and checks that no constant of any
// statement reaches a label on /metrics, pg_stat_statements' text or the
// proxy's log, and that the per-statement series stay within
// --metrics-statements.
func TestNoSecretsInMetricsOrLogs(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	const limit = 5
	s := startServer(t, "", "--log-level", "debug", "--metrics-statements", fmt.Sprint(limit))
	simple := s.ConnectMode(t, pgx.QueryExecModeSimpleProtocol)
	for _, q := range secretWorkload {
		mustExec(t, simple, q)
	}
	for _, q := range secretFailures {
		if _, err := simple.Exec(testCtx(t), q); err == nil {
			t.Fatalf("%s: no error", q)
		}
	}
	// The extended protocol: constants in the text next to parameters.
	ext := s.Connect(t)
	for i := range 3 {
		queryAll(t, ext, `SELECT id, 'zq-extended' FROM sec WHERE id = $1 OR id = 7340023`, 7340001+i)
	}
	// More statement shapes than the limit, each called a different number
	// of times, so some fall outside the top.
	for i := range 3 * limit {
		for range i + 1 {
			mustExec(t, simple, fmt.Sprintf(`SELECT 'zq-shape-%d' AS c%d, 73400%02d`, i, i, 30+i))
		}
	}
	if path := psqlPathOrEmpty(); path != "" {
		script := strings.Join([]string{
			`SELECT note FROM sec WHERE note = 'zq-psql' OR id = 7340024;`,
			`ALTER ROLE zqrole PASSWORD 'zq-psql-pw';`,
			`SELECT $$zq-psql-dollar$$, E'zq-psql-escape';`,
		}, "\n") + "\n"
		if out, errOut, err := runPSQL(t, s, script); err != nil {
			t.Fatalf("psql: %v\n%s\n%s", err, out, errOut)
		}
	}

	// pg_stat_statements: the normalised text, as PostgreSQL's shows it,
	// and nothing of a constant, in the text or in the plan's shape.
	texts := map[string]bool{}
	for _, row := range queryAll(t, simple, `SELECT queryid, query, plan::text FROM pg_stat_statements`) {
		q := fmt.Sprint(row[1])
		texts[q] = true
		if m := markerRE.FindString(q); m != "" {
			t.Errorf("pg_stat_statements holds %q in %q", m, q)
		}
		if m := markerRE.FindString(fmt.Sprint(row[2])); m != "" {
			t.Errorf("pg_stat_statements' plan holds %q in %v", m, row[2])
		}
		if fmt.Sprint(row[0]) == "0" {
			t.Errorf("pg_stat_statements: queryid 0 for %q", q)
		}
	}
	for _, want := range []string{
		"ALTER ROLE zqrole PASSWORD $1",
		"CREATE ROLE zqrole LOGIN PASSWORD $1",
		"SELECT id, $2 FROM sec WHERE id = $1 OR id = $3",
		"INSERT INTO sec VALUES ($1, $2, DATE $3, $4)",
	} {
		if !texts[want] {
			t.Errorf("pg_stat_statements has no %q", want)
		}
	}

	// /metrics: no label value holds a constant, and each per-statement
	// metric has at most the limit's series plus the other one.
	samples := scrape(t, s.MetricsURL())
	perMetric := map[string]int{}
	other := false
	for series := range samples {
		if m := markerRE.FindString(series); m != "" {
			t.Errorf("/metrics series carries %q: %s", m, series)
		}
		name := metricName(series)
		if strings.HasPrefix(name, "zproxy_statement_") {
			perMetric[name]++
			other = other || strings.Contains(series, `queryid="other"`)
		}
	}
	if len(perMetric) == 0 {
		t.Fatal("no zproxy_statement_* series on /metrics")
	}
	for name, n := range perMetric {
		if n > limit+1 {
			t.Errorf("%s has %d series, want at most %d", name, n, limit+1)
		}
	}
	if !other {
		t.Errorf(`no queryid="other" series, though the workload has more statements than %d`, limit)
	}

	// The log, at debug level, through shutdown.
	s.Stop()
	log := s.Log()
	if !strings.Contains(log, "level=DEBUG") && !strings.Contains(log, "level=INFO") {
		t.Fatalf("the proxy's log is empty or not slog's text:\n%s", log)
	}
	for _, m := range markerRE.FindAllString(log, -1) {
		t.Errorf("the proxy's log holds %q", m)
	}
}

// psqlPathOrEmpty is psql's path, or "" when it is not installed (the
// workload then runs through pgx alone).
func psqlPathOrEmpty() string {
	path, err := exec.LookPath("psql")
	if err != nil {
		return ""
	}
	return path
}
