package clients

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"
)

// TestPgxCopy: pgx's CopyFrom (binary COPY FROM STDIN after describing
// the table with a prepared SELECT) and pgconn's CopyFrom and CopyTo in text
// and CSV, against zproxy or, with E2E_POSTGRES, PostgreSQL.
func TestPgxCopy(t *testing.T) {
	t.Parallel()
	tg := newClientTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	count := func(where string) int {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pgx_copy WHERE "+where).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	exec("DROP TABLE IF EXISTS pgx_copy")
	exec("CREATE TABLE pgx_copy (id bigint PRIMARY KEY, name text NOT NULL, score double precision, at timestamptz, raw bytea)")

	base := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	rows := make([][]any, 5000)
	for i := range rows {
		rows[i] = []any{int64(i + 1), fmt.Sprintf("name %d", i+1), float64(i) / 8, base.Add(time.Duration(i) * time.Second), []byte{byte(i), 0, 0xff}}
	}
	rows[10][2], rows[11][3], rows[12][4] = nil, nil, nil
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"pgx_copy"}, []string{"id", "name", "score", "at", "raw"}, pgx.CopyFromRows(rows))
	if err != nil || n != 5000 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}
	var name string
	var score *float64
	var at time.Time
	var raw []byte
	if err := conn.QueryRow(ctx, "SELECT name, score, at, raw FROM pgx_copy WHERE id = 11").Scan(&name, &score, &at, &raw); err != nil {
		t.Fatal(err)
	}
	if name != "name 11" || score != nil || !at.Equal(base.Add(10*time.Second)) || !bytes.Equal(raw, []byte{10, 0, 0xff}) {
		t.Errorf("row 11: %q %v %v %x", name, score, at, raw)
	}

	// A duplicate key in the middle of the stream: nothing of it is kept.
	dup := [][]any{{int64(6000), "new", nil, nil, nil}, {int64(42), "duplicate", nil, nil, nil}, {int64(6001), "new", nil, nil, nil}}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"pgx_copy"}, []string{"id", "name", "score", "at", "raw"}, pgx.CopyFromRows(dup))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" || pe.Where != "COPY pgx_copy, line 2" {
		t.Fatalf("duplicate in CopyFrom: %v (%+v)", err, pe)
	}
	if got := count("id >= 6000"); got != 0 {
		t.Errorf("%d rows of the failed COPY were kept", got)
	}

	// pgconn: text and CSV through a reader and a writer.
	pc := conn.PgConn()
	tag, err := pc.CopyFrom(ctx, strings.NewReader("7000,\"comma, quote \"\"\",1.5,2024-03-01 13:00:00+01,\\x00ff\n7001,plain,,,\n"),
		"COPY pgx_copy FROM STDIN (FORMAT csv)")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("pgconn CopyFrom CSV: %v %v", tag, err)
	}
	var out bytes.Buffer
	tag, err = pc.CopyTo(ctx, &out, "COPY (SELECT id, name, score, at, raw FROM pgx_copy WHERE id >= 7000 ORDER BY id) TO STDOUT")
	if err != nil || tag.String() != "COPY 2" {
		t.Fatalf("pgconn CopyTo: %v %v", tag, err)
	}
	want := "7000\tcomma, quote \"\t1.5\t2024-03-01 12:00:00+00\t\\\\x00ff\n7001\tplain\t\\N\t\\N\t\\N\n"
	if out.String() != want {
		t.Errorf("CopyTo text:\n got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	if _, err := pc.CopyTo(ctx, &out, "COPY pgx_copy (id, name) TO STDOUT WITH CSV HEADER FORCE QUOTE name"); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(out.String(), "\n"); len(lines) != 5004 || lines[0] != "id,name" || !strings.Contains(out.String(), "\n7001,\"plain\"\n") {
		t.Errorf("CopyTo CSV: %d lines, starting %q", len(lines), lines[0])
	}
	// CopyFail from the client: the COPY fails with 57014 and writes nothing.
	_, err = pc.CopyFrom(ctx, errReader{}, "COPY pgx_copy (id, name) FROM STDIN")
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("CopyFail: %v", err)
	}
	if got := count("id = 8000"); got != 0 {
		t.Errorf("a failed COPY kept %d rows", got)
	}
	// In a transaction block COPY's rows are the block's: ROLLBACK drops
	// them, COMMIT keeps them with the block's other writes, and a failed
	// COPY fails the whole block.
	cols := []string{"id", "name", "score", "at", "raw"}
	block := func(rows [][]any, end string) error {
		t.Helper()
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, "UPDATE pgx_copy SET name = 'in block' WHERE id = 1"); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"pgx_copy"}, cols, pgx.CopyFromRows(rows)); err != nil {
			return err
		}
		if got := count("id >= 9000"); got != len(rows) {
			t.Errorf("the block reads %d of the %d rows it copied", got, len(rows))
		}
		if end == "commit" {
			return tx.Commit(ctx)
		}
		return tx.Rollback(ctx)
	}
	fresh := [][]any{{int64(9000), "a", nil, nil, nil}, {int64(9001), "b", nil, nil, nil}}
	if err := block(fresh, "rollback"); err != nil {
		t.Fatal(err)
	}
	if got := count("id >= 9000 OR name = 'in block'"); got != 0 {
		t.Errorf("ROLLBACK kept %d rows of the block", got)
	}
	if err := block([][]any{{int64(9000), "a", nil, nil, nil}, {int64(1), "dup", nil, nil, nil}}, "commit"); !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("duplicate in a block's COPY: %v", err)
	}
	if got := count("id >= 9000 OR name = 'in block'"); got != 0 {
		t.Errorf("a block whose COPY failed kept %d rows", got)
	}
	if err := block(fresh, "commit"); err != nil {
		t.Fatal(err)
	}
	if got := count("id >= 9000 OR name = 'in block'"); got != 3 {
		t.Errorf("COMMIT kept %d rows of the block, want 3", got)
	}
}

// errReader fails at once, which pgconn reports with CopyFail.
type errReader struct{}

func (errReader) Read(p []byte) (int, error) { return 0, errors.New("the client gave up") }

// TestLibPQCopyIn: lib/pq's CopyIn, a prepared COPY FROM STDIN in text
// format fed row by row inside a transaction.
func TestLibPQCopyIn(t *testing.T) {
	t.Parallel()
	tg := newClientTarget(t)
	db, err := sql.Open("postgres", tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, s := range []string{"DROP TABLE IF EXISTS pq_copy", "CREATE TABLE pq_copy (id int PRIMARY KEY, name text, at timestamp)"} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	load := func(ids ...int) error {
		txn, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer txn.Rollback()
		stmt, err := txn.Prepare(pq.CopyIn("pq_copy", "id", "name", "at"))
		if err != nil {
			return err
		}
		for _, id := range ids {
			var name any = fmt.Sprintf("tab\there %d\\", id)
			if id%2 == 0 {
				name = nil
			}
			if _, err := stmt.Exec(id, name, time.Date(2024, 1, 2, 3, 4, 5, 600000000, time.UTC)); err != nil {
				return err
			}
		}
		if _, err := stmt.Exec(); err != nil {
			return err
		}
		if err := stmt.Close(); err != nil {
			return err
		}
		return txn.Commit()
	}
	ids := make([]int, 300)
	for i := range ids {
		ids[i] = i + 1
	}
	if err := load(ids...); err != nil {
		t.Fatal(err)
	}
	var n int
	var name string
	if err := db.QueryRowContext(ctx, "SELECT count(*), max(name) FROM pq_copy WHERE name IS NOT NULL").Scan(&n, &name); err != nil {
		t.Fatal(err)
	}
	if n != 150 || name != "tab\there 9\\" {
		t.Errorf("after CopyIn: %d named rows, max %q", n, name)
	}
	err = load(1000, 1001, 5)
	var pqe *pq.Error
	if !errors.As(err, &pqe) || pqe.Code != "23505" {
		t.Fatalf("CopyIn of a duplicate: %v", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pq_copy").Scan(&n); err != nil || n != 300 {
		t.Errorf("after the failed CopyIn: %d rows, %v", n, err)
	}
}
