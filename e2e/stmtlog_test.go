package e2e

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestStatementLogSettingsNeedSuperuser checks that the statement log's
// settings are a superuser's, as PostgreSQL's superuser context makes
// them: an ordinary role's SET fails with 42501. It runs against
// PostgreSQL too (E2E_POSTGRES).
func TestStatementLogSettingsNeedSuperuser(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	admin := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	mustExec(t, admin, "DROP ROLE IF EXISTS slowlog_plain")
	mustExec(t, admin, "CREATE ROLE slowlog_plain LOGIN")
	t.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP ROLE IF EXISTS slowlog_plain") })
	plain := (&target{connString: userRE.ReplaceAllString(tg.connString, "user=slowlog_plain")}).Connect(t, pgx.QueryExecModeSimpleProtocol)
	for _, name := range []string{"log_statement", "log_duration", "log_min_duration_statement", "log_min_duration_sample", "log_statement_sample_rate"} {
		value := map[string]string{"log_statement": "'all'", "log_duration": "on", "log_statement_sample_rate": "0.5"}[name]
		if value == "" {
			value = "0"
		}
		_, err := plain.Exec(testCtx(t), "SET "+name+" = "+value)
		var pe *pgconn.PgError
		if want := `permission denied to set parameter "` + name + `"`; !errors.As(err, &pe) || pe.Code != "42501" || pe.Message != want {
			t.Errorf("SET %s by an ordinary role: %v, want 42501 %s", name, err, want)
		}
		mustExec(t, admin, "SET "+name+" = "+value)
	}
	var v string
	if err := admin.QueryRow(testCtx(t), "SHOW log_statement").Scan(&v); err != nil || v != "all" {
		t.Errorf("SHOW log_statement: %q %v", v, err)
	}
}

// TestStatementLog runs statements over pgx, in the simple and the
// extended protocol, on a proxy with the statement log on, and reads the
// records from its log: PostgreSQL's messages, with the fields apart, and
// no password.
func TestStatementLog(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	s := startServer(t, "", "--log-statement", "ddl")
	simple := s.ConnectMode(t, pgx.QueryExecModeSimpleProtocol)
	// The server's setting: DDL is logged from the start.
	mustExec(t, simple, "CREATE TABLE slog_t (a INT PRIMARY KEY)")
	mustExec(t, simple, "INSERT INTO slog_t VALUES (1), (2)") // not DDL
	mustExec(t, simple, "CREATE ROLE slog_r LOGIN PASSWORD 'zq-slowlog-pw'")
	mustExec(t, simple, "SET log_statement = 'all'")
	mustExec(t, simple, "SELECT a FROM slog_t WHERE a = 1")
	mustExec(t, simple, "SET log_statement = 'none'")
	mustExec(t, simple, "SET log_min_duration_statement = 0")
	mustExec(t, simple, "SELECT 2")
	mustExec(t, simple, "RESET log_min_duration_statement")
	mustExec(t, simple, "SET auto_explain.log_min_duration = 0")
	mustExec(t, simple, "SELECT count(*) FROM slog_t")
	mustExec(t, simple, "RESET auto_explain.log_min_duration")

	ext := s.Connect(t)
	mustExec(t, ext, "SET log_statement = 'all'")
	var a int
	if err := ext.QueryRow(testCtx(t), "SELECT a FROM slog_t WHERE a = $1", 2).Scan(&a); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"statement: CREATE TABLE slog_t (a INT PRIMARY KEY)",
		"statement: CREATE ROLE slog_r LOGIN PASSWORD $1",
		"statement: SELECT a FROM slog_t WHERE a = 1",
		"statement: SET log_statement = 'none'",
		"duration: * ms  statement: SET log_min_duration_statement = 0",
		"duration: * ms  statement: SELECT 2",
		"duration: * ms  plan:\nQuery Text: SELECT count(*) FROM slog_t\n*",
		"execute *: SELECT a FROM slog_t WHERE a = $1",
	}
	var recs []logLine
	deadline := time.Now().Add(10 * time.Second)
	for {
		recs = statementLog(s.Log())
		if len(recs) >= len(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(recs) != len(want) {
		t.Fatalf("records:\n%+v\nwant %d", recs, len(want))
	}
	for i, w := range want {
		if !globMatch(w, recs[i].msg) {
			t.Errorf("record %d: %q, want %q", i, recs[i].msg, w)
		}
		if recs[i].fields["user"] != "zproxy" || recs[i].fields["database"] != "zproxy" || recs[i].fields["pid"] == "" {
			t.Errorf("record %d: fields %v", i, recs[i].fields)
		}
	}
	if p := recs[len(recs)-1].fields["parameters"]; p != "$1 = '2'" {
		t.Errorf("execute's parameters: %q", p)
	}
	if recs[6].fields["plan"] == "" || recs[5].fields["duration_ms"] == "" {
		t.Errorf("fields: %v, %v", recs[6].fields, recs[5].fields)
	}
	if strings.Contains(s.Log(), "zq-slowlog-pw") {
		t.Error("the log holds the password")
	}
}

// logLine is one record of zproxy's log: its message and fields.
type logLine struct {
	msg    string
	fields map[string]string
}

// statementLog reads the statement log's records (those with a user
// field) from zproxy's text log.
func statementLog(log string) []logLine {
	var out []logLine
	for _, line := range strings.Split(log, "\n") {
		fields := map[string]string{}
		rest := line
		for rest != "" {
			key, after, ok := strings.Cut(rest, "=")
			if !ok {
				break
			}
			value := after
			if strings.HasPrefix(after, `"`) {
				q, err := strconv.QuotedPrefix(after)
				if err != nil {
					break
				}
				value, _ = strconv.Unquote(q)
				after = after[len(q):]
			} else if i := strings.IndexByte(after, ' '); i >= 0 {
				value, after = after[:i], after[i:]
			} else {
				after = ""
			}
			fields[key] = value
			rest = strings.TrimPrefix(after, " ")
		}
		if _, ok := fields["user"]; ok && fields["msg"] != "" {
			out = append(out, logLine{msg: fields["msg"], fields: fields})
		}
	}
	return out
}

// globMatch matches s against pattern, where * stands for any text.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, p)
		}
		j := strings.Index(s, p)
		if j < 0 {
			return false
		}
		s = s[j+len(p):]
	}
	return s == ""
}
