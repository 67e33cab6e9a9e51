package e2e

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestBitMoneyRoundTrip writes bit(n), bit varying and money values as
// parameters through each of pgx's exec modes (pgx sends bit strings in
// binary, bit_recv's form) and through binary COPY, then reads them back
// in text and in binary: money's binary form is cash_send's int8 of cents,
// which pgx's int8 codec reads.
func TestBitMoneyRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, `CREATE TABLE bit_rt (id INTEGER PRIMARY KEY, b BIT(10), v BIT VARYING(20), m MONEY)`)

	bits := func(s string) pgtype.Bits {
		var b pgtype.Bits
		if err := b.Scan(s); err != nil {
			t.Fatal(err)
		}
		return b
	}
	values := []struct {
		b, v  string
		cents int64
	}{
		{"1010101010", "", 0},
		{"0000000001", "1", -1},
		{"1111111111", "10000000000000000001", 123456},
		{"0100000000", "0111", -922337203685477580},
	}
	id := 0
	for _, mode := range execModes {
		conn := tg.Connect(t, mode)
		for _, v := range values {
			id++
			m := fmt.Sprintf("%d.%02d", v.cents/100, abs(v.cents%100))
			if v.cents < 0 && v.cents > -100 {
				m = "-" + m
			}
			mustExec(t, conn, "INSERT INTO bit_rt VALUES ($1, $2, $3, $4::text::money)", id, bits(v.b), bits(v.v), m)
		}
		// A bit string of another length is 22026, as bit_recv checks.
		if _, err := conn.Exec(ctx, "INSERT INTO bit_rt VALUES ($1, $2, NULL, NULL)", 9999, bits("101")); err == nil {
			t.Fatalf("%v: bit(3) stored in bit(10)", mode)
		}
	}
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	conn.TypeMap().RegisterType(&pgtype.Type{Name: "money", OID: 790, Codec: pgtype.Int8Codec{}})
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"bit_rt"}, []string{"id", "b", "v", "m"},
		pgx.CopyFromRows([][]any{{500, bits("0011001100"), bits("1"), int64(250)}, {501, nil, nil, nil}}))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}

	want := map[int]string{500: "0011001100|1|250", 501: "<nil>|<nil>|<nil>"}
	for i := 0; i < id; i++ {
		v := values[i%len(values)]
		want[i+1] = fmt.Sprintf("%s|%s|%d", v.b, v.v, v.cents)
	}
	rows, err := conn.Query(ctx, "SELECT id, b, v, m FROM bit_rt ORDER BY id", pgx.QueryResultFormats{pgx.BinaryFormatCode})
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for rows.Next() {
		var rid int
		var b, v pgtype.Bits
		var m pgtype.Int8
		if err := rows.Scan(&rid, &b, &v, &m); err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprintf("%s|%s|%d", bitText(b), bitText(v), m.Int64)
		if !m.Valid {
			s = fmt.Sprintf("%s|%s|<nil>", bitText(b), bitText(v))
		}
		if s != want[rid] {
			t.Errorf("binary row %d: %s, want %s", rid, s, want[rid])
		}
		got++
	}
	if err := rows.Err(); err != nil || got != len(want) {
		t.Fatalf("binary read: %d rows, %v", got, err)
	}

	// In text: bit_out's digits and cash_out's amounts.
	var b, v, m string
	if err := conn.QueryRow(ctx, "SELECT b::text, v::text, m::text FROM bit_rt WHERE id = 3", pgx.QueryResultFormats{pgx.TextFormatCode}).Scan(&b, &v, &m); err != nil {
		t.Fatal(err)
	}
	if b != "1111111111" || v != "10000000000000000001" || m != "$1,234.56" {
		t.Errorf("text: %s %s %s", b, v, m)
	}
	mustExec(t, setup, "DROP TABLE bit_rt")
}

// bitText is a pgtype.Bits as bit_out prints it ("<nil>" when NULL).
func bitText(b pgtype.Bits) string {
	if !b.Valid {
		return "<nil>"
	}
	var out bytes.Buffer
	for i := int32(0); i < b.Len; i++ {
		if b.Bytes[i/8]&(0x80>>(i%8)) != 0 {
			out.WriteByte('1')
		} else {
			out.WriteByte('0')
		}
	}
	return out.String()
}

func abs(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}
