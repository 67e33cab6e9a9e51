package clients

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/e2e/harness"
)

// TestNotify: LISTEN and NOTIFY between two sessions, delivered while the
// listener is idle and between its statements, at COMMIT for a NOTIFY
// inside a transaction block and never for one rolled back; UNLISTEN stops
// them. Against zproxy or, with E2E_POSTGRES, PostgreSQL.
func TestNotify(t *testing.T) {
	t.Parallel()
	tg := newClientTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	connect := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, tg.dsn())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	listener, sender := connect(), connect()
	exec := func(c *pgx.Conn, sql string) {
		t.Helper()
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	wait := func(what string, wantChannel, wantPayload string, wantPID uint32) {
		t.Helper()
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
		defer wcancel()
		n, err := listener.WaitForNotification(wctx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n.Channel != wantChannel || n.Payload != wantPayload || n.PID != wantPID {
			t.Fatalf("%s: got %+v, want %s %q from %d", what, n, wantChannel, wantPayload, wantPID)
		}
	}
	none := func(what string) {
		t.Helper()
		wctx, wcancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer wcancel()
		if n, err := listener.WaitForNotification(wctx); err == nil {
			t.Fatalf("%s: unexpected notification %+v", what, n)
		}
	}
	senderPID := sender.PgConn().PID()
	exec(listener, "LISTEN chan_a")
	exec(listener, `LISTEN "Chan B"`)

	// The listener is idle: the notification arrives without a query.
	exec(sender, "NOTIFY chan_a, 'idle delivery'")
	wait("while idle", "chan_a", "idle delivery", senderPID)

	// Inside a block: sent at COMMIT, once for repeated identical ones.
	exec(sender, "BEGIN")
	exec(sender, `NOTIFY "Chan B", 'in a block'`)
	exec(sender, `NOTIFY "Chan B", 'in a block'`)
	none("before COMMIT")
	exec(sender, "COMMIT")
	wait("at COMMIT", "Chan B", "in a block", senderPID)
	none("a repeated NOTIFY of one transaction")

	// Rolled back: never sent. Unknown channels reach nobody.
	exec(sender, "BEGIN")
	exec(sender, "NOTIFY chan_a, 'rolled back'")
	exec(sender, "ROLLBACK")
	exec(sender, "NOTIFY nobody_listens")
	none("after ROLLBACK")

	// A notification while the listener runs statements comes with them.
	exec(sender, "NOTIFY chan_a")
	var one int
	if err := listener.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	wait("between statements", "chan_a", "", senderPID)

	// A session hears its own notifications; pg_notify is NOTIFY.
	exec(listener, "NOTIFY chan_a, 'self'")
	wait("its own", "chan_a", "self", listener.PgConn().PID())
	var void string
	if err := sender.QueryRow(ctx, "SELECT pg_notify('chan_a', 'by function')::text").Scan(&void); err != nil || void != "" {
		t.Fatalf("pg_notify: %q, %v", void, err)
	}
	wait("pg_notify", "chan_a", "by function", senderPID)

	// A LISTEN inside a rolled-back block never took effect; UNLISTEN * stops all.
	exec(listener, "BEGIN")
	exec(listener, "LISTEN chan_c")
	exec(listener, "ROLLBACK")
	exec(sender, "NOTIFY chan_c, 'not listening'")
	none("LISTEN rolled back")
	exec(listener, "UNLISTEN *")
	exec(sender, "NOTIFY chan_a, 'after unlisten'")
	none("after UNLISTEN *")

	// LISTEN and NOTIFY in one transaction (a multi-statement query's
	// implicit one): the session hears it, since it listens once the
	// transaction commits; with an UNLISTEN after them, it does not.
	exec(listener, "LISTEN chan_d; NOTIFY chan_d, 'same transaction'")
	wait("LISTEN and NOTIFY together", "chan_d", "same transaction", listener.PgConn().PID())
	exec(listener, "LISTEN chan_e; NOTIFY chan_e, 'unlistened'; UNLISTEN chan_e")
	none("LISTEN, NOTIFY and UNLISTEN together")

	// Errors.
	for _, tc := range []struct{ sql, code string }{
		{"NOTIFY chan_a, '" + strings.Repeat("x", 8000) + "'", "22023"},
		{`NOTIFY ""`, "42601"},
	} {
		_, err := sender.Exec(ctx, tc.sql)
		if pe, ok := err.(*pgconn.PgError); !ok || pe.Code != tc.code {
			t.Errorf("%.40s: %v, want %s", tc.sql, err, tc.code)
		}
	}
}

// TestSessionTimeZone: timestamptz values shown in the session's
// TimeZone, text parameters without an offset read in it, ParameterStatus
// when it changes, and TimeZone given at startup.
func TestSessionTimeZone(t *testing.T) {
	t.Parallel()
	tg := newClientTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg, err := pgconn.ParseConfig(tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["options"] = "-c TimeZone=Asia/Kolkata"
	pc, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(context.Background())
	if got := pc.ParameterStatus("TimeZone"); got != "Asia/Kolkata" {
		t.Errorf("TimeZone at startup: %q", got)
	}
	text := func(sql string) []string {
		t.Helper()
		res, err := pc.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		last := res[len(res)-1]
		var out []string
		for _, row := range last.Rows {
			for _, v := range row {
				out = append(out, string(v))
			}
		}
		return out
	}
	for _, sql := range []string{"DROP TABLE IF EXISTS tz_t", "CREATE TABLE tz_t (id int PRIMARY KEY, at timestamptz)",
		"INSERT INTO tz_t VALUES (1, '2024-07-01 12:00:00+00')"} {
		text(sql)
	}
	if got := text("SELECT at FROM tz_t"); len(got) != 1 || got[0] != "2024-07-01 17:30:00+05:30" {
		t.Errorf("in Asia/Kolkata: %q", got)
	}
	text("SET TIME ZONE 'America/St_Johns'")
	if got := pc.ParameterStatus("TimeZone"); got != "America/St_Johns" {
		t.Errorf("ParameterStatus after SET: %q", got)
	}
	if got := text("SELECT at FROM tz_t"); len(got) != 1 || got[0] != "2024-07-01 09:30:00-02:30" {
		t.Errorf("in America/St_Johns: %q", got)
	}
	text("SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE")
	if got := text("SHOW TimeZone"); len(got) != 1 || got[0] != "<+02>-02" {
		t.Errorf("SHOW after SET TIME ZONE INTERVAL: %q", got)
	}
	// A text parameter without an offset is local time in the session's zone.
	text("SET TIME ZONE 'Europe/Paris'")
	rr := pc.ExecParams(ctx, "INSERT INTO tz_t VALUES (2, $1)", [][]byte{[]byte("2024-01-15 10:00:00")}, []uint32{1184}, nil, nil).Read()
	if rr.Err != nil {
		t.Fatal(rr.Err)
	}
	text("SET TIME ZONE 'UTC'")
	if got := text("SELECT at FROM tz_t WHERE id = 2"); len(got) != 1 || got[0] != "2024-01-15 09:00:00+00" {
		t.Errorf("a parameter read in Europe/Paris, shown in UTC: %q", got)
	}
	if _, err := pc.Exec(ctx, "SET TIME ZONE 'Nowhere/Land'").ReadAll(); err == nil {
		t.Error("an unknown zone was accepted")
	}
}

// TestPSQLCursorsAndCopy: psql's FETCH_COUNT (a cursor fetched in
// batches) and \copy both ways, the output compared with what the same
// statements print without them.
func TestPSQLCursorsAndCopy(t *testing.T) {
	t.Parallel()
	psql := requireTool(t, "psql", "Debian package postgresql-client")
	tg := newClientTarget(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var data strings.Builder
	data.WriteString("id,name,score\n")
	for i := 1; i <= 250; i++ {
		name := "row " + strings.Repeat("x", i%5)
		if i == 7 {
			name = `"quoted, with comma"`
		}
		data.WriteString(strings.Join([]string{strconv.Itoa(i), name, strconv.Itoa(i % 13)}, ",") + "\n")
	}
	if err := os.WriteFile(in, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.txt")
	run := func(script string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, psql, "-X", "-A", "-q", "-v", "ON_ERROR_STOP=1", tg.dsn())
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(script)
		cmd.Env = append(harness.CleanEnv(), "PGCONNECT_TIMEOUT=10")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("psql: %v\n%s", err, b)
		}
		return string(b)
	}
	run(`DROP TABLE IF EXISTS psql_copy;
CREATE TABLE psql_copy (id int PRIMARY KEY, name text, score int);
\copy psql_copy FROM 'in.csv' WITH (FORMAT csv, HEADER)
`)
	query := "SELECT id, name, score FROM psql_copy ORDER BY id;\n"
	plain := run(query)
	batched := run("\\set FETCH_COUNT 17\n" + query)
	if !strings.Contains(plain, "7|quoted, with comma|7\n") || !strings.HasSuffix(plain, "(250 rows)\n") {
		t.Errorf("after \\copy FROM:\n%s", plain)
	}
	if batched != plain {
		t.Errorf("FETCH_COUNT output differs:\n%s\nwithout:\n%s", batched, plain)
	}
	run(`\copy (SELECT id, name FROM psql_copy WHERE id <= 8 ORDER BY id) TO 'out.txt'` + "\n")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "1\trow x\n2\trow xx\n3\trow xxx\n4\trow xxxx\n5\trow \n6\trow x\n7\tquoted, with comma\n8\trow xxx\n"
	if string(got) != want {
		t.Errorf("\\copy TO:\n%q\nwant\n%q", got, want)
	}
	if got := run(`\copy psql_copy (id, score) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)` + "\n"); strings.Count(got, "\n") != 250 || !strings.Contains(got, "\n\"7\",\"7\"\n") {
		t.Errorf("\\copy TO STDOUT: %.80q", got)
	}
}
