package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// logRecord is one record of the statement log, as the JSON handler
// writes it.
type logRecord struct {
	Msg        string  `json:"msg"`
	User       string  `json:"user"`
	Database   string  `json:"database"`
	PID        uint32  `json:"pid"`
	Statement  string  `json:"statement"`
	Parameters string  `json:"parameters"`
	DurationMS float64 `json:"duration_ms"`
	Plan       string  `json:"plan"`
}

// loggingEngine is an engine whose log goes to the returned buffer.
func loggingEngine(t *testing.T, settings map[string]string) (*session.Engine, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true,
		Logger: slog.New(slog.NewJSONHandler(&buf, nil)), Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	return eng, &buf
}

// superuserSession opens a session of user admin, who is no role: a
// superuser, as under trust authentication.
func superuserSession(t *testing.T, eng *session.Engine) wire.Session {
	t.Helper()
	sess, err := eng.NewSession(context.Background(), wire.SessionParams{User: "admin", Database: "postgres", PID: 7, Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	return sess
}

// records reads the statement log's records from buf and empties it.
func records(t *testing.T, buf *bytes.Buffer) []logRecord {
	t.Helper()
	var out []logRecord
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var r logRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if r.User != "" { // the engine's own records have no user
			out = append(out, r)
		}
	}
	buf.Reset()
	return out
}

// simpleCommand runs sql as the wire layer runs a Query message: logged
// when received, its duration (elapsed, so that the test decides it)
// when all its statements succeeded.
func simpleCommand(t *testing.T, sess wire.Session, sql string, elapsed time.Duration) error {
	t.Helper()
	ctx := context.Background()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return err
	}
	sl := sess.(wire.StatementLogger)
	cmd := &wire.LoggedCommand{Message: "statement", SQL: sql, Statements: stmts}
	sl.CommandReceived(cmd)
	for _, st := range stmts {
		if err := drain(ctx, st, nil); err != nil {
			return err
		}
	}
	sl.CommandDone(cmd, elapsed)
	return nil
}

// drain executes st and reads its result to the end.
func drain(ctx context.Context, st wire.Statement, params []sqltypes.Value) error {
	res, err := st.Execute(ctx, params)
	if err != nil {
		return err
	}
	for {
		_, ok, err := res.Next(ctx)
		if err != nil {
			res.Close()
			return err
		}
		if !ok {
			return res.Close()
		}
	}
}

func TestStatementLog(t *testing.T) {
	type step struct {
		sql     string
		elapsed time.Duration
	}
	for _, tt := range []struct {
		name     string
		settings map[string]string
		steps    []step
		want     []string // the records' messages
	}{
		{"log_statement none", nil, []step{{"SELECT 1", 0}}, nil},
		{"log_statement all", map[string]string{"log_statement": "all"},
			[]step{{"SELECT 1", 0}, {"SELECT 2; SELECT 3", 0}},
			[]string{"statement: SELECT 1", "statement: SELECT 2; SELECT 3"}},
		{"log_statement mod", map[string]string{"log_statement": "mod"},
			[]step{{"CREATE TABLE t (a INT PRIMARY KEY)", 0}, {"INSERT INTO t VALUES (1)", 0}, {"SELECT a FROM t", 0},
				{"UPDATE t SET a = 2", 0}, {"EXPLAIN SELECT a FROM t", 0}, {"EXPLAIN ANALYZE DELETE FROM t", 0},
				{"SELECT 1; DELETE FROM t", 0}, {"TRUNCATE t", 0}, {"SET application_name = 'x'", 0}},
			// mod is DDL and writes.
			[]string{"statement: CREATE TABLE t (a INT PRIMARY KEY)", "statement: INSERT INTO t VALUES (1)", "statement: UPDATE t SET a = 2",
				"statement: EXPLAIN ANALYZE DELETE FROM t", "statement: SELECT 1; DELETE FROM t", "statement: TRUNCATE t"}},
		{"log_statement ddl", map[string]string{"log_statement": "ddl"},
			[]step{{"CREATE TABLE t (a INT PRIMARY KEY)", 0}, {"INSERT INTO t VALUES (1)", 0}, {"CREATE INDEX ON t (a)", 0},
				{"CREATE ROLE r", 0}, {"GRANT SELECT ON t TO r", 0}, {"DROP TABLE t", 0}},
			[]string{"statement: CREATE TABLE t (a INT PRIMARY KEY)", "statement: CREATE INDEX ON t (a)",
				"statement: CREATE ROLE r", "statement: GRANT SELECT ON t TO r", "statement: DROP TABLE t"}},
		// A statement naming a table its string creates cannot bind
		// before the string runs: its syntax gives its class.
		{"log_statement mod before binding", map[string]string{"log_statement": "mod"},
			[]step{{"CREATE TABLE u (a INT PRIMARY KEY); SELECT 1", 0}, {"SELECT 1; INSERT INTO u VALUES (1)", 0}, {"SELECT 1; INSERT INTO v VALUES (1)", 0}},
			[]string{"statement: CREATE TABLE u (a INT PRIMARY KEY); SELECT 1", "statement: SELECT 1; INSERT INTO u VALUES (1)",
				"statement: SELECT 1; INSERT INTO v VALUES (1)"}},
		{"prepared statements", map[string]string{"log_statement": "mod"},
			[]step{{"CREATE TABLE t (a INT PRIMARY KEY)", 0}, {"PREPARE ins AS INSERT INTO t VALUES ($1)", 0},
				{"PREPARE sel AS SELECT a FROM t", 0}, {"EXECUTE ins(1)", 0}, {"EXECUTE sel", 0}},
			[]string{"statement: CREATE TABLE t (a INT PRIMARY KEY)", "statement: PREPARE ins AS INSERT INTO t VALUES ($1)", "statement: EXECUTE ins(1)"}},
		{"log_min_duration_statement", map[string]string{"log_min_duration_statement": "100ms"},
			[]step{{"SELECT 1", 99999 * time.Microsecond}, {"SELECT 2", 100 * time.Millisecond}, {"SELECT 3", 1234567 * time.Microsecond}},
			[]string{"duration: 100.000 ms  statement: SELECT 2", "duration: 1234.567 ms  statement: SELECT 3"}},
		{"log_duration", map[string]string{"log_duration": "on"},
			[]step{{"SELECT 1", 1500 * time.Microsecond}},
			[]string{"duration: 1.500 ms"}},
		// A statement log_statement logged has its duration logged alone.
		{"log_statement and log_min_duration_statement", map[string]string{"log_statement": "all", "log_min_duration_statement": "0"},
			[]step{{"SELECT 1", 2 * time.Millisecond}},
			[]string{"statement: SELECT 1", "duration: 2.000 ms"}},
		{"log_statement ddl and log_min_duration_statement", map[string]string{"log_statement": "ddl", "log_min_duration_statement": "0"},
			[]step{{"SELECT 1", 2 * time.Millisecond}},
			[]string{"duration: 2.000 ms  statement: SELECT 1"}},
		{"log_min_duration_sample, all sampled", map[string]string{"log_min_duration_sample": "10"},
			[]step{{"SELECT 1", 9 * time.Millisecond}, {"SELECT 2", 10 * time.Millisecond}},
			[]string{"duration: 10.000 ms  statement: SELECT 2"}},
		{"log_min_duration_sample, none sampled", map[string]string{"log_min_duration_sample": "0", "log_statement_sample_rate": "0"},
			[]step{{"SELECT 1", 9 * time.Millisecond}},
			nil},
		// SET's own duration is decided with the new value.
		{"SET logs its own duration", nil,
			[]step{{"SET log_min_duration_statement = 0", time.Millisecond}, {"SET log_min_duration_statement = -1", time.Millisecond}},
			[]string{"duration: 1.000 ms  statement: SET log_min_duration_statement = 0"}},
		{"a failed statement logs no duration", map[string]string{"log_statement": "all", "log_duration": "on"},
			[]step{{"SELECT 1/0", time.Millisecond}},
			[]string{"statement: SELECT 1/0"}},
		{"passwords", map[string]string{"log_statement": "ddl", "log_min_duration_statement": "0"},
			[]step{{"CREATE ROLE r LOGIN PASSWORD 'sekrit'", time.Millisecond}, {"SELECT 1; ALTER ROLE r PASSWORD 'sekrit2'", time.Millisecond}},
			[]string{"statement: CREATE ROLE r LOGIN PASSWORD $1", "duration: 1.000 ms",
				"statement: SELECT 1; ALTER ROLE r PASSWORD $1", "duration: 1.000 ms"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eng, buf := loggingEngine(t, tt.settings)
			sess := superuserSession(t, eng)
			buf.Reset()
			for _, s := range tt.steps {
				_ = simpleCommand(t, sess, s.sql, s.elapsed)
			}
			var got []string
			for _, r := range records(t, buf) {
				got = append(got, r.Msg)
				if r.User != "admin" || r.Database != "postgres" {
					t.Errorf("%q: user %q, database %q", r.Msg, r.User, r.Database)
				}
				if strings.Contains(r.Msg, "sekrit") || strings.Contains(r.Statement, "sekrit") {
					t.Errorf("a password in the log: %+v", r)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestStatementLogExtended checks the extended protocol's records: parse,
// bind and execute, named as PostgreSQL names them, with the parameters.
func TestStatementLogExtended(t *testing.T) {
	eng, buf := loggingEngine(t, map[string]string{"log_statement": "all", "log_min_duration_statement": "0"})
	sess := superuserSession(t, eng)
	ctx := context.Background()
	sql := "SELECT $1::text, $2::int"
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := []sqltypes.Value{sqltypes.NewText("it's"), sqltypes.Null}
	sl := sess.(wire.StatementLogger)
	buf.Reset()
	sl.CommandDone(&wire.LoggedCommand{Message: "parse", Name: "s1", SQL: sql, Statements: stmts}, time.Millisecond)
	sl.CommandDone(&wire.LoggedCommand{Message: "bind", Name: "s1", Portal: "p1", SQL: sql, Statements: stmts, Params: params}, time.Millisecond)
	exec := &wire.LoggedCommand{Message: "execute", SQL: sql, Statements: stmts, Params: params}
	sl.CommandReceived(exec)
	if err := drain(ctx, stmts[0], params); err != nil {
		t.Fatal(err)
	}
	sl.CommandDone(exec, time.Millisecond)
	want := []logRecord{
		{Msg: "duration: 1.000 ms  parse s1: " + sql, Statement: sql, DurationMS: 1},
		{Msg: "duration: 1.000 ms  bind s1/p1: " + sql, Statement: sql, DurationMS: 1, Parameters: "$1 = 'it''s', $2 = NULL"},
		{Msg: "execute <unnamed>: " + sql, Statement: sql, Parameters: "$1 = 'it''s', $2 = NULL"},
		{Msg: "duration: 1.000 ms", DurationMS: 1},
	}
	got := records(t, buf)
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		g := got[i]
		g.User, g.Database, g.PID = "", "", 0
		if g != want[i] {
			t.Errorf("record %d: got %+v, want %+v", i, g, want[i])
		}
	}
}

// TestAutoExplain checks auto_explain's records: the plan of a statement
// over auto_explain.log_min_duration, with row counts under log_analyze.
func TestAutoExplain(t *testing.T) {
	for _, tt := range []struct {
		name     string
		settings map[string]string
		sql      string
		want     []string // what the record's message holds, in order; nil: no record
	}{
		{"off", nil, "SELECT a FROM t WHERE a > 0", nil},
		{"all", map[string]string{"auto_explain.log_min_duration": "0"}, "SELECT a FROM t WHERE a > 0",
			[]string{"duration: ", " ms  plan:\nQuery Text: SELECT a FROM t WHERE a > 0\n", "Scan t"}},
		{"writes", map[string]string{"auto_explain.log_min_duration": "0"}, "UPDATE t SET b = 1 WHERE a = 1",
			[]string{" ms  plan:\nQuery Text: UPDATE t SET b = 1 WHERE a = 1\n", "Update"}},
		{"analyze", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_analyze": "on"}, "SELECT a FROM t WHERE a > 0",
			[]string{" ms  plan:\n", "actual rows=2"}},
		// The structured formats, laid out as auto_explain logs them.
		{"json", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_format": "json"}, "SELECT a FROM t WHERE a > 0",
			[]string{" ms  plan:\n{\n  \"Query Text\": \"SELECT a FROM t WHERE a > 0\",\n  \"Plan\": {\n    \"Node Type\": ", "\"Relation Name\": \"t\"", "\n  }\n}"}},
		{"yaml", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_format": "yaml", "auto_explain.log_analyze": "on"}, "SELECT a FROM t WHERE a > 0",
			[]string{" ms  plan:\nQuery Text: \"SELECT a FROM t WHERE a > 0\"\nPlan: \n  Node Type: ", "Actual Rows: 2"}},
		{"xml", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_format": "xml"}, "SELECT a FROM t WHERE a > 0",
			[]string{" ms  plan:\n<explain xmlns=\"http://www.postgresql.org/2009/explain\">\n  <Query-Text>SELECT a FROM t WHERE a &gt; 0</Query-Text>\n  <Plan>\n", "</Plan>\n</explain>"}},
		// log_wal, log_buffers, log_verbose and log_settings: EXPLAIN's
		// options; costs on every node, as auto_explain's.
		{"wal", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_format": "json", "auto_explain.log_analyze": "on",
			"auto_explain.log_wal": "on", "auto_explain.log_buffers": "on", "auto_explain.log_verbose": "on", "auto_explain.log_timing": "off"},
			"UPDATE t SET b = 1 WHERE a = 1",
			[]string{"\"Operation\": \"Update\"", "\"Total Cost\": ", "\"Plan Width\": ", "\"Actual Rows\": 1", "\"Shared Read Blocks\": 1", "\"WAL Records\": 1", "\"WAL FPI\": 0", "\"WAL Bytes\": "}},
		{"text costs and settings", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.log_settings": "on"},
			"SET enable_hashjoin = off; SELECT a FROM t WHERE a > 0", []string{"Scan t", "(cost=", " rows=", " width=", "\nSettings: enable_hashjoin = 'off'"}},
		{"over the threshold only", map[string]string{"auto_explain.log_min_duration": "1h"}, "SELECT a FROM t WHERE a > 0", nil},
		{"not sampled", map[string]string{"auto_explain.log_min_duration": "0", "auto_explain.sample_rate": "0"}, "SELECT a FROM t", nil},
		{"no plan", map[string]string{"auto_explain.log_min_duration": "0"}, "SET application_name = 'x'", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eng, buf := loggingEngine(t, tt.settings)
			sess := superuserSession(t, eng)
			mustExec(t, sess, "CREATE TABLE t (a INT PRIMARY KEY, b INT)")
			mustExec(t, sess, "INSERT INTO t VALUES (1, 0), (2, 0)")
			buf.Reset()
			mustExec(t, sess, tt.sql)
			got := records(t, buf)
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %+v", got)
			}
			rest := got[0].Msg
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%q not in %q", w, got[0].Msg)
				}
				rest = rest[i+len(w):]
			}
			if !strings.HasSuffix(tt.sql, got[0].Statement) || !strings.HasSuffix(got[0].Msg, got[0].Plan) {
				t.Errorf("record %+v", got[0])
			}
		})
	}
}

// TestStatementLogSettings checks who may set the statement log's
// settings (superusers only, 42501 else, as PostgreSQL's superuser
// context), the values refused, and the server's settings.
func TestStatementLogSettings(t *testing.T) {
	eng, _ := loggingEngine(t, map[string]string{"log_min_duration_statement": "250ms", "auto_explain.log_analyze": "true"})
	admin := superuserSession(t, eng)
	mustExec(t, admin, "CREATE ROLE plain LOGIN")
	plain, _, err := connectAs(t, eng, "plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	for _, tt := range []struct {
		sess wire.Session
		sql  string
		code pgerr.Code
		msg  string
	}{
		{plain, "SET log_statement = 'all'", pgerr.InsufficientPrivilege, `permission denied to set parameter "log_statement"`},
		{plain, "SET log_min_duration_statement = 0", pgerr.InsufficientPrivilege, `permission denied to set parameter "log_min_duration_statement"`},
		{plain, "SET log_duration = on", pgerr.InsufficientPrivilege, `permission denied to set parameter "log_duration"`},
		{plain, "SET auto_explain.log_min_duration = 0", pgerr.InsufficientPrivilege, `permission denied to set parameter "auto_explain.log_min_duration"`},
		{plain, "RESET log_min_duration_statement", pgerr.InsufficientPrivilege, `permission denied to set parameter "log_min_duration_statement"`},
		{admin, "SET log_statement = 'some'", pgerr.InvalidParameterValue, `invalid value for parameter "log_statement": "some"`},
		{admin, "SET auto_explain.log_format = json", pgerr.SuccessfulCompletion, ""},
		{admin, "SET auto_explain.log_format = html", pgerr.InvalidParameterValue, `invalid value for parameter "auto_explain.log_format": "html"`},
		{admin, "SET auto_explain.nosuch = 1", pgerr.InvalidName, `invalid configuration parameter name "auto_explain.nosuch"`},
		{admin, "SET auto_explain.log_nested_statements = on", pgerr.SuccessfulCompletion, ""},
		{admin, "SET log_statement = 'mod'", pgerr.SuccessfulCompletion, ""},
	} {
		expectSQL(t, tt.sess, tt.sql, tt.code, tt.msg)
	}
	for _, tt := range []struct {
		sess wire.Session
		sql  string
		want string
	}{
		{plain, "SHOW log_min_duration_statement", "250ms"},
		{plain, "SHOW auto_explain.log_analyze", "on"},
		{admin, "SHOW log_statement", "mod"},
		{admin, "RESET log_statement; SHOW log_statement", "none"},
		{admin, "SET log_min_duration_statement = 5; RESET log_min_duration_statement; SHOW log_min_duration_statement", "250ms"},
	} {
		rows, err := runSQL(context.Background(), tt.sess, tt.sql)
		if err != nil || strings.Join(rows, ",") != tt.want {
			t.Errorf("%s: %q %v, want %q", tt.sql, rows, err, tt.want)
		}
	}
	for _, bad := range []map[string]string{{"log_statement": "some"}, {"work_mem": "1MB"}, {"nosuch": "1"}} {
		if _, err := session.New(context.Background(), session.Config{Store: memStore(t), Settings: bad}); err == nil {
			t.Errorf("server settings %v accepted", bad)
		}
	}
}
