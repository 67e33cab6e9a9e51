package e2e

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestXMLSysTypesRoundTrip writes xml, pg_lsn, xid, xid8 and tid values as
// parameters through each of pgx's exec modes and through binary COPY,
// then reads them back in binary (xml_send's text, pg_lsn_send's and
// xid8send's uint64, xidsend's uint32, tidsend's block and offset) and in
// text.
func TestXMLSysTypesRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE sys_rt (id INTEGER PRIMARY KEY, d XML, l PG_LSN, x XID, x8 XID8, t TID)`)
	// pgx has no pg_lsn codec: its binary form is an int8's.
	lsnType := &pgtype.Type{Name: "pg_lsn", OID: 3220, Codec: pgtype.Int8Codec{}}

	type row struct {
		d  string
		l  int64
		x  uint32
		x8 uint64
		tb uint32
		to uint16
	}
	values := []row{
		{"<a>x</a>", 0, 0, 0, 0, 1},
		{"text &amp; <b c=\"1\"/>", 0x16B374D848, 4294967295, 18446744073709551615, 4294967295, 65535},
		{"", -1, 7, 9, 1, 2},
	}
	lsn := func(u int64) string { return fmt.Sprintf("%X/%X", uint64(u)>>32, uint64(u)&0xffffffff) }
	text := func(v row) string { return fmt.Sprintf("%s|%s|%d|%d|(%d,%d)", v.d, lsn(v.l), v.x, v.x8, v.tb, v.to) }
	tid := func(v row) pgtype.TID { return pgtype.TID{BlockNumber: v.tb, OffsetNumber: v.to, Valid: true} }
	id := 0
	want := map[int]string{}
	for _, mode := range execModes {
		conn := tg.Connect(t, mode)
		conn.TypeMap().RegisterType(lsnType)
		for _, v := range values {
			id++
			mustExec(t, conn, "INSERT INTO sys_rt VALUES ($1, $2, $3::text::pg_lsn, $4, $5, $6)", id, v.d, lsn(v.l), v.x, v.x8, tid(v))
			want[id] = text(v)
		}
		// Malformed xml is 2200N, from a parameter as from a literal.
		if _, err := conn.Exec(ctx, "INSERT INTO sys_rt (id, d) VALUES ($1, $2)", 9999, "<a>"); err == nil {
			t.Fatalf("%v: malformed xml stored", mode)
		}
	}
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	conn.TypeMap().RegisterType(lsnType)
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"sys_rt"}, []string{"id", "d", "l", "x", "x8", "t"},
		pgx.CopyFromRows([][]any{{500, "<c/>", int64(0x100000000), uint32(5), uint64(6), pgtype.TID{BlockNumber: 3, OffsetNumber: 4, Valid: true}},
			{501, nil, nil, nil, nil, nil}}))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}
	want[500] = "<c/>|1/0|5|6|(3,4)"
	want[501] = "<nil>|<nil>|<nil>|<nil>|<nil>"

	rows, err := conn.Query(ctx, "SELECT id, d, l, x, x8, t FROM sys_rt ORDER BY id", pgx.QueryResultFormats{pgx.BinaryFormatCode})
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for rows.Next() {
		var rid int
		var d pgtype.Text
		var l pgtype.Int8
		var x pgtype.Uint32
		var x8 pgtype.Uint64
		var tt pgtype.TID
		if err := rows.Scan(&rid, &d, &l, &x, &x8, &tt); err != nil {
			t.Fatal(err)
		}
		s := "<nil>|<nil>|<nil>|<nil>|<nil>"
		if d.Valid {
			s = text(row{d.String, l.Int64, x.Uint32, x8.Uint64, tt.BlockNumber, tt.OffsetNumber})
		}
		if s != want[rid] {
			t.Errorf("binary row %d: %s, want %s", rid, s, want[rid])
		}
		got++
	}
	if err := rows.Err(); err != nil || got != len(want) {
		t.Fatalf("binary read: %d rows, %v", got, err)
	}

	// In text: xml_out, pg_lsn_out, xidout, xid8out and tidout.
	var d, l, x, x8, tt string
	if err := conn.QueryRow(ctx, "SELECT d::text, l::text, x::text, x8::text, t::text FROM sys_rt WHERE id = 2", pgx.QueryResultFormats{pgx.TextFormatCode}).Scan(&d, &l, &x, &x8, &tt); err != nil {
		t.Fatal(err)
	}
	if s := d + "|" + l + "|" + x + "|" + x8 + "|" + tt; s != want[2] {
		t.Errorf("text: %s, want %s", s, want[2])
	}
	mustExec(t, setup, "DROP TABLE sys_rt")
}
