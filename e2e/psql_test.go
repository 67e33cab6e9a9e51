package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// readingsSession is the psql session of the README (issue 2, item 2).
const readingsSession = `CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
  lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts DESC)) WITH (shards = 4);
INSERT INTO readings VALUES (1, '2024-01-01 10:00:00', 21.5, 40.7, -73.9, 'ok'), (1, '2024-01-02 10:00:00', NULL, 40.8, -74.0, NULL);
SELECT * FROM readings WHERE sensor_id = 1 ORDER BY ts DESC LIMIT 10;
SELECT count(*), avg(celsius) FROM readings WHERE lat > 40.75;
`

// psqlPath finds psql, skipping the test when it is absent outside CI.
func psqlPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("psql is not installed, and CI=true: `make test` (scripts/install-test-deps.sh) installs it")
		}
		t.Skip("psql is not installed; `make test` installs it (Debian package postgresql-client)")
	}
	return path
}

// runPSQL runs psql against s with a script on stdin and returns stdout and
// stderr. Unaligned output (-A) with a '|' separator makes the expected text
// exact; ON_ERROR_STOP turns any SQL error into a non-zero exit.
func runPSQL(t *testing.T, s *server, script string, extra ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runPSQLEnv(t, s, nil, script, extra...)
}

// runPSQLEnv is runPSQL with more environment variables (PGCLIENTENCODING).
func runPSQLEnv(t *testing.T, s *server, env []string, script string, extra ...string) (stdout, stderr string, err error) {
	t.Helper()
	host, port := s.HostPort()
	args := append([]string{"-X", "-A", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "zproxy"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, psqlPath(t), args...)
	cmd.Stdin = strings.NewReader(script)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Env = append(append(harness.CleanEnv(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=prefer", "PGPASSWORD=", "PGDATABASE=zproxy"), env...)
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

func TestPSQLReadingsSession(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	psqlPath(t)
	s := startServer(t, "")
	stdout, stderr, err := runPSQL(t, s, readingsSession)
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	// What PostgreSQL 15 prints for the same session: float8 in shortest
	// form (-74.0 is -74), NULL as an empty field, timestamps in ISO style.
	// Only the second row has lat > 40.75, and its celsius is NULL, so the
	// average is NULL.
	want := strings.Join([]string{
		"CREATE TABLE",
		"INSERT 0 2",
		"sensor_id|ts|celsius|lat|lon|note",
		"1|2024-01-02 10:00:00||40.8|-74|",
		"1|2024-01-01 10:00:00|21.5|40.7|-73.9|ok",
		"(2 rows)",
		"count|avg",
		"1|",
		"(1 row)",
	}, "\n")
	if got := nonEmptyLines(stdout); got != want {
		t.Errorf("psql output:\n%s\nwant:\n%s", got, want)
	}
	checkOnlyNotices(t, stderr)

	// psql's default aligned format right-aligns numbers, so it also shows
	// that the result columns carry the right types.
	stdout, stderr, err = runPSQL(t, s, "SELECT * FROM readings WHERE sensor_id = 1 ORDER BY ts DESC LIMIT 10;\n", "-P", "format=aligned")
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	wantAligned := "" +
		" sensor_id |         ts          | celsius | lat  |  lon  | note \n" +
		"-----------+---------------------+---------+------+-------+------\n" +
		"         1 | 2024-01-02 10:00:00 |         | 40.8 |   -74 | \n" +
		"         1 | 2024-01-01 10:00:00 |    21.5 | 40.7 | -73.9 | ok\n" +
		"(2 rows)\n\n"
	if stdout != wantAligned {
		t.Errorf("aligned psql output:\n%q\nwant:\n%q", stdout, wantAligned)
	}
	checkOnlyNotices(t, stderr)

	// A second psql session, on a new connection, sees the same data and
	// the average over both rows.
	stdout, stderr, err = runPSQL(t, s, "SELECT count(*), avg(celsius), min(note), max(lon) FROM readings;\n", "-t")
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if got, want := nonEmptyLines(stdout), "2|21.5|ok|-73.9"; got != want {
		t.Errorf("psql output %q, want %q", got, want)
	}
	checkOnlyNotices(t, stderr)
	s.Stop()
}

func TestPSQLErrorKeepsSession(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	psqlPath(t)
	s := startServer(t, "")
	// Without ON_ERROR_STOP psql carries on after an error on the same
	// connection: the statements after it must work.
	script := `CREATE TABLE t (id INTEGER NOT NULL, PRIMARY KEY (id));
SELECT * FROM missing_table;
INSERT INTO t VALUES (1), (2);
SELEC 1;
SELECT id FROM t ORDER BY id;
`
	stdout, stderr, err := runPSQL(t, s, script, "-t", "-v", "ON_ERROR_STOP=0", "-v", "VERBOSITY=verbose")
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if got, want := nonEmptyLines(stdout), "CREATE TABLE\nINSERT 0 2\n1\n2"; got != want {
		t.Errorf("psql output:\n%s\nwant:\n%s", got, want)
	}
	for _, code := range []string{"ERROR:  42P01", "ERROR:  42601"} {
		if !strings.Contains(stderr, code) {
			t.Errorf("psql stderr lacks %q:\n%s", code, stderr)
		}
	}
	s.Stop()
}

// nonEmptyLines drops blank lines (psql's layout, not zproxy's output).
func nonEmptyLines(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// checkOnlyNotices fails on anything but NOTICE/WARNING lines (a full-scan
// notice, say) on psql's stderr.
func checkOnlyNotices(t *testing.T, stderr string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l != "" && !strings.HasPrefix(l, "NOTICE:") && !strings.HasPrefix(l, "WARNING:") &&
			!strings.HasPrefix(l, "DETAIL:") && !strings.HasPrefix(l, "HINT:") {
			t.Errorf("unexpected psql stderr line %q", l)
		}
	}
}
