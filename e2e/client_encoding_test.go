package e2e

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// encConn connects with pgconn (the raw protocol: the test controls every
// byte) in client_encoding enc.
func encConn(t *testing.T, tg *target, enc string) *pgconn.PgConn {
	t.Helper()
	cfg, err := pgconn.ParseConfig(tg.connString)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["client_encoding"] = enc
	conn, err := pgconn.ConnectConfig(testCtx(t), cfg)
	if err != nil {
		t.Fatalf("connecting in %s: %v", enc, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	if got := conn.ParameterStatus("client_encoding"); got != enc {
		t.Fatalf("ParameterStatus client_encoding = %q, want %q", got, enc)
	}
	return conn
}

// wantPgError checks err is PostgreSQL's error code with message msg.
func wantPgError(t *testing.T, what string, err error, code, msg string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != code || pe.Message != msg {
		t.Errorf("%s: %v; want %s %s", what, err, code, msg)
	}
}

// TestClientEncodingSingleByte: in LATIN1 and WIN1252 the client's bytes
// are converted to UTF8 on the way in and back on the way out, in every
// place text crosses the protocol, as PostgreSQL converts them.
func TestClientEncodingSingleByte(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	for _, c := range []struct {
		enc   string
		table string
		// word is "élève" in enc; euro is € there, or "" when enc lacks it.
		word, euro string
	}{
		{"LATIN1", "enc_latin1", "\xe9l\xe8ve", ""},
		{"WIN1252", "enc_win1252", "\xe9l\xe8ve", "\x80"},
	} {
		t.Run(c.enc, func(t *testing.T) {
			ctx := testCtx(t)
			setup := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
			tg.CreateTable(t, setup, "CREATE TABLE "+c.table+" (k int PRIMARY KEY, v text)")
			conn := encConn(t, tg, c.enc)

			// A query with a non-ASCII literal and column name; the
			// length is the server's count of characters.
			res, err := conn.Exec(ctx, "INSERT INTO "+c.table+" VALUES (1, '"+c.word+"'); SELECT v AS \"caf\xe9\", length(v), v = U&'\\00e9l\\00e8ve' FROM "+c.table).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			sel := res[1]
			if got := string(sel.FieldDescriptions[0].Name); got != "caf\xe9" {
				t.Errorf("column name %q", got)
			}
			if got := sel.Rows[0]; string(got[0]) != c.word || string(got[1]) != "5" || string(got[2]) != "t" {
				t.Errorf("row %q", got)
			}

			// A text parameter, in text and in binary format; results
			// in both formats.
			for _, pf := range []int16{0, 1} {
				for _, rf := range []int16{0, 1} {
					r := conn.ExecParams(ctx, "SELECT $1::text || 'x', $1::text = U&'\\00e9l\\00e8ve'", [][]byte{[]byte(c.word)}, []uint32{25}, []int16{pf}, []int16{rf, 0}).Read()
					if r.Err != nil {
						t.Fatalf("param format %d, result format %d: %v", pf, rf, r.Err)
					}
					if got := r.Rows[0]; string(got[0]) != c.word+"x" || string(got[1]) != "t" {
						t.Errorf("param format %d, result format %d: %q", pf, rf, got)
					}
				}
			}

			// An error message naming a non-ASCII identifier.
			_, err = conn.Exec(ctx, "SELECT * FROM \"t\xe9st_missing\"").ReadAll()
			wantPgError(t, "missing table", err, "42P01", "relation \"t\xe9st_missing\" does not exist")

			// COPY FROM and TO in the client's encoding.
			if _, err := conn.CopyFrom(ctx, strings.NewReader("2\t\xe0 la "+c.word+"\n3\tna\xefve\n"), "COPY "+c.table+" FROM STDIN"); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := conn.CopyTo(ctx, &out, "COPY (SELECT * FROM "+c.table+" ORDER BY k) TO STDOUT (FORMAT csv, HEADER)"); err != nil {
				t.Fatal(err)
			}
			if want := "k,v\n1," + c.word + "\n2,\xe0 la " + c.word + "\n3,na\xefve\n"; out.String() != want {
				t.Errorf("COPY TO: %q, want %q", out.String(), want)
			}
			// COPY's ENCODING option overrides the client's.
			out.Reset()
			if _, err := conn.CopyTo(ctx, &out, "COPY (SELECT v FROM "+c.table+" WHERE k = 1) TO STDOUT (ENCODING 'UTF8')"); err != nil || out.String() != "élève\n" {
				t.Errorf("COPY TO in UTF8: %q, %v", out.String(), err)
			}
			res, err = conn.Exec(ctx, "SELECT count(*) FROM "+c.table+" WHERE v IN (U&'\\00e0 la \\00e9l\\00e8ve', U&'na\\00efve')").ReadAll()
			if err != nil || string(res[0].Rows[0][0]) != "2" {
				t.Errorf("COPY FROM converted wrongly: %v %v", res, err)
			}

			// The euro sign: WIN1252 has it; LATIN1 does not (22P05).
			res, err = conn.Exec(ctx, "SELECT chr(8364)").ReadAll()
			if c.euro != "" {
				if err != nil || string(res[0].Rows[0][0]) != c.euro {
					t.Errorf("chr(8364): %v %v", res, err)
				}
			} else {
				wantPgError(t, "chr(8364)", err, "22P05", `character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"`)
			}
			// A byte WIN1252 leaves undefined, and NUL, which no encoding
			// lets a query carry.
			if c.enc == "WIN1252" {
				_, err = conn.Exec(ctx, "SELECT 'a\x81b'").ReadAll()
				wantPgError(t, "0x81", err, "22P05", `character with byte sequence 0x81 in encoding "WIN1252" has no equivalent in encoding "UTF8"`)
			}
			r := conn.ExecParams(ctx, "SELECT $1::text", [][]byte{[]byte("a\x00b")}, []uint32{25}, nil, nil).Read()
			wantPgError(t, "NUL", r.Err, "22021", `invalid byte sequence for encoding "`+c.enc+`": 0x00`)

			// The connection is still in step, and knows its encoding.
			res, err = conn.Exec(ctx, "SELECT pg_client_encoding(), current_setting('client_encoding')").ReadAll()
			if err != nil || string(res[0].Rows[0][0]) != c.enc || string(res[0].Rows[0][1]) != c.enc {
				t.Errorf("pg_client_encoding: %v %v", res, err)
			}
		})
	}
}

// TestClientEncodingSet: SET, RESET and a rolled back SET change the
// encoding text is converted in at once; names are read as PostgreSQL
// reads them, unknown ones are 22023.
func TestClientEncodingSet(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn := encConn(t, tg, "UTF8")
	one := func(sql string) string {
		t.Helper()
		res, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatalf("%q: %v", sql, err)
		}
		last := res[len(res)-1]
		return string(last.Rows[0][0])
	}
	if got := one("SET client_encoding = 'latin-1'; SHOW client_encoding"); got != "LATIN1" {
		t.Errorf("SHOW after 'latin-1': %q", got)
	}
	if got := conn.ParameterStatus("client_encoding"); got != "LATIN1" {
		t.Errorf("ParameterStatus: %q", got)
	}
	if got := one("SELECT U&'\\00e9'"); got != "\xe9" {
		t.Errorf("é in LATIN1: %q", got)
	}
	if got := one("BEGIN; SET client_encoding = 'win1251'; ROLLBACK; SELECT U&'\\00e9'"); got != "\xe9" {
		t.Errorf("after the rollback: %q", got)
	}
	if got := one("SHOW client_encoding"); got != "LATIN1" {
		t.Errorf("rollback restored %q", got)
	}
	if got := one("SELECT set_config('client_encoding', 'WIN', false); SELECT U&'\\0416'"); got != "\xc6" {
		t.Errorf("Ж in WIN1251: %q", got)
	}
	if got := one("RESET client_encoding; SELECT U&'\\00e9'"); got != "é" {
		t.Errorf("after RESET: %q", got)
	}
	_, err := conn.Exec(ctx, "SET client_encoding = 'latin99'").ReadAll()
	wantPgError(t, "latin99", err, "22023", `invalid value for parameter "client_encoding": "latin99"`)
	_, err = conn.Exec(ctx, "SET client_encoding = 'auto'").ReadAll()
	wantPgError(t, "auto", err, "22023", `invalid value for parameter "client_encoding": "auto"`)
}

// TestClientEncodingSQLASCII: SQL_ASCII converts nothing; input must still
// be UTF-8, the server's encoding.
func TestClientEncodingSQLASCII(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn := encConn(t, tg, "SQL_ASCII")
	res, err := conn.Exec(ctx, "SELECT 'é€', length('é€')").ReadAll()
	if err != nil || string(res[0].Rows[0][0]) != "é€" || string(res[0].Rows[0][1]) != "2" {
		t.Errorf("SQL_ASCII: %v %v", res, err)
	}
	_, err = conn.Exec(ctx, "SELECT '\xe9';").ReadAll()
	wantPgError(t, "LATIN1 bytes", err, "22021", `invalid byte sequence for encoding "UTF8": 0xe9 0x27 0x3b`)
}

// TestPSQLClientEncoding: psql with PGCLIENTENCODING=WIN1252, as on a
// Windows console, connects and reads a non-ASCII value in its encoding.
func TestPSQLClientEncoding(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	psqlPath(t)
	s := startServer(t, "")
	stdout, stderr, err := runPSQLEnv(t, s, []string{"PGCLIENTENCODING=WIN1252"},
		"SHOW client_encoding;\nSELECT U&'\\00e9t\\00e9 \\20ac' AS v, 'caf\xe9' = U&'caf\\00e9' AS same;\n")
	if err != nil {
		t.Fatalf("psql: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	want := "client_encoding\nWIN1252\n(1 row)\nv|same\n\xe9t\xe9 \x80|t\n(1 row)\n"
	if stdout != want {
		t.Errorf("psql output:\n%q\nwant:\n%q", stdout, want)
	}
}
