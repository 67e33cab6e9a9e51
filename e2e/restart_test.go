package e2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestRestartKeepsData stops zproxy with SIGTERM and starts it again on the
// same data directory: the catalog and every row are still there.
func TestRestartKeepsData(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	dir := t.TempDir()
	first := startServer(t, dir)
	conn := first.Connect(t)
	mustExec(t, conn, `CREATE TABLE kept (id BIGINT NOT NULL, v TEXT, PRIMARY KEY (id DESC)) WITH (shards = 4)`)
	var want [][]any
	for i := int64(1); i <= 40; i++ {
		v := strings.Repeat(fmt.Sprint(i%10), int(i))
		mustExec(t, conn, "INSERT INTO kept VALUES ($1, $2)", i, v)
		want = append(want, []any{41 - i, strings.Repeat(fmt.Sprint((41-i)%10), int(41-i))})
	}
	_ = conn.Close(context.Background())
	first.Stop()

	second := startServer(t, dir)
	conn = second.Connect(t)
	if got := queryAll(t, conn, "SELECT id, v FROM kept ORDER BY id DESC"); !rowsEqual(got, want) {
		t.Fatalf("after restart: %v\nwant %v", got, want)
	}
	_, err := conn.Exec(testCtx(t), `CREATE TABLE kept (id BIGINT NOT NULL, PRIMARY KEY (id))`)
	if code := sqlstate(err); code != "42P07" {
		t.Errorf("re-creating the table after a restart: %v (SQLSTATE %q), want 42P07", err, code)
	}
	mustExec(t, conn, "INSERT INTO kept VALUES (100, 'new')")
	var n int64
	if err := conn.QueryRow(testCtx(t), "SELECT count(*) FROM kept").Scan(&n); err != nil || n != 41 {
		t.Errorf("count after restart and insert: %d, %v; want 41", n, err)
	}
	second.Stop()
}

// TestKillKeepsAcknowledgedWrites SIGKILLs zproxy while writers are busy;
// after a restart every acknowledged row is there, and every statement,
// acknowledged or not, is all or nothing.
func TestKillKeepsAcknowledgedWrites(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir)
	setup := s.Connect(t)
	mustExec(t, setup, `CREATE TABLE acked (id BIGINT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (id)) WITH (shards = 4)`)
	// Indexes make every statement a multi-item atomic batch: after the kill
	// each index must still agree with the table (issue 4).
	mustExec(t, setup, `CREATE INDEX acked_payload ON acked (payload)`)
	mustExec(t, setup, `CREATE INDEX acked_z ON acked USING zorder (id, payload) WITH (shards = 2)`)

	const writers = 4
	const target = 300 // acknowledged statements before the kill
	payload := func(id int64) string { return fmt.Sprintf("row-%d-%s", id, strings.Repeat("x", int(id%37))) }
	// Statement k of writer w inserts ids base, or base..base+2 every other
	// time (a multi-row statement).
	type stmt struct {
		base int64
		rows int
	}
	var (
		mu    sync.Mutex
		acked []stmt
		sent  []stmt
	)
	enough := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for w := range writers {
		conn := s.Connect(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				st := stmt{base: int64(w)*1_000_000 + int64(k)*10, rows: 1 + 2*(k%2)}
				var sql strings.Builder
				sql.WriteString("INSERT INTO acked VALUES ")
				var args []any
				for i := 0; i < st.rows; i++ {
					if i > 0 {
						sql.WriteString(", ")
					}
					fmt.Fprintf(&sql, "($%d, $%d)", 2*i+1, 2*i+2)
					args = append(args, st.base+int64(i), payload(st.base+int64(i)))
				}
				mu.Lock()
				sent = append(sent, st)
				mu.Unlock()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := conn.Exec(ctx, sql.String(), args...)
				cancel()
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked = append(acked, st)
				if len(acked) >= target {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		}()
	}
	select {
	case <-enough:
	case <-time.After(2 * time.Minute):
		t.Fatalf("writers did not get %d statements acknowledged within 2 minutes", target)
	}
	s.Kill()
	wg.Wait()

	restarted := startServer(t, dir)
	conn := restarted.Connect(t)
	present := map[int64]string{}
	rows, err := conn.Query(testCtx(t), "SELECT id, payload FROM acked")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			t.Fatal(err)
		}
		present[id] = p
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	isAcked := map[int64]bool{}
	for _, st := range acked {
		isAcked[st.base] = true
	}
	total := 0
	for _, st := range sent {
		n := 0
		for i := 0; i < st.rows; i++ {
			id := st.base + int64(i)
			if p, ok := present[id]; ok {
				n++
				if p != payload(id) {
					t.Errorf("row %d: payload %q, want %q", id, p, payload(id))
				}
			}
		}
		total += n
		switch {
		case isAcked[st.base] && n != st.rows:
			t.Errorf("acknowledged statement at id %d (%d rows): %d rows survived the kill", st.base, st.rows, n)
		case n != 0 && n != st.rows:
			t.Errorf("statement at id %d (%d rows) is half written: %d rows", st.base, st.rows, n)
		}
	}
	if total != len(present) {
		t.Errorf("%d rows present, but only %d belong to statements sent", len(present), total)
	}
	t.Logf("%d statements acknowledged, %d sent, %d rows present after SIGKILL and restart", len(acked), len(sent), len(present))
	check, err := conn.Query(testCtx(t), "CHECK TABLE acked")
	if err != nil {
		t.Fatal(err)
	}
	for check.Next() {
		var table, index string
		var nrows, entries, missing, orphaned int64
		var ok bool
		if err := check.Scan(&table, &index, &nrows, &entries, &missing, &orphaned, &ok); err != nil {
			t.Fatal(err)
		}
		if !ok || nrows != int64(len(present)) {
			t.Errorf("index %s after the kill: %d rows, %d entries, %d missing, %d orphaned", index, nrows, entries, missing, orphaned)
		}
	}
	if err := check.Err(); err != nil {
		t.Fatal(err)
	}
	restarted.Stop()
}

// TestPasswordAuth checks SCRAM-SHA-256 password authentication with users
// from --users.
func TestPasswordAuth(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	s := startServer(t, "", "--users", "alice:s3cret,bob:pa:ss")
	host, port := s.HostPort()
	tests := []struct {
		user, password string
		wantCode       string // "" for success
	}{
		{user: "alice", password: "s3cret"},
		{user: "bob", password: "pa:ss"},
		{user: "alice", password: "wrong", wantCode: "28P01"},
		{user: "mallory", password: "s3cret", wantCode: "28P01"},
		{user: "alice", password: "", wantCode: "28P01"},
	}
	for _, tt := range tests {
		connString := fmt.Sprintf("host=%s port=%s user=%s password='%s' dbname=zproxy sslmode=disable connect_timeout=10", host, port, tt.user, tt.password)
		conn, err := pgx.Connect(testCtx(t), connString)
		if tt.wantCode == "" {
			if err != nil {
				t.Errorf("%s/%s: %v", tt.user, tt.password, err)
				continue
			}
			if err := conn.Ping(testCtx(t)); err != nil {
				t.Errorf("%s: ping: %v", tt.user, err)
			}
			_ = conn.Close(context.Background())
			continue
		}
		if err == nil {
			_ = conn.Close(context.Background())
			t.Errorf("%s/%s: connected, want SQLSTATE %s", tt.user, tt.password, tt.wantCode)
			continue
		}
		if code := sqlstate(err); code != tt.wantCode {
			t.Errorf("%s/%s: %v (SQLSTATE %q), want %s", tt.user, tt.password, err, code, tt.wantCode)
		}
	}
	if strings.Contains(s.Log(), "s3cret") {
		t.Errorf("the log reveals a password:\n%s", s.Log())
	}
	s.Stop()
}

// sqlstate returns the SQLSTATE of a PostgreSQL error, or "".
func sqlstate(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}
