package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ewkbPoint is the EWKB PostGIS sends for a 2D point: little-endian, the
// SRID flag and SRID when it has one.
func ewkbPoint(x, y float64, srid uint32) []byte {
	b := []byte{1}
	t := uint32(1)
	if srid != 0 {
		t |= 0x20000000
	}
	b = binary.LittleEndian.AppendUint32(b, t)
	if srid != 0 {
		b = binary.LittleEndian.AppendUint32(b, srid)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(y))
}

// TestPostGISRoundTrip writes geometry and geography values as text (EWKT
// and hex EWKB, in each of pgx's exec modes) and as binary EWKB
// parameters, reads them back as hex EWKB text and as binary EWKB, and
// checks a typmod violation's SQLSTATE on the binary path. Against
// PostgreSQL it needs a database with PostGIS (E2E_POSTGRES=...
// dbname=gis).
func TestPostGISRoundTrip(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "CREATE EXTENSION IF NOT EXISTS postgis")
	tg.CreateTable(t, setup, `CREATE TABLE geo_rt (id INT PRIMARY KEY, g geometry(Point, 4326), h geography)`)

	// Text: EWKT for g, hex EWKB for h, in every exec mode.
	for i, mode := range execModes {
		conn := tg.Connect(t, mode)
		x := float64(i) + 0.5
		hexH := strings.ToUpper(hex.EncodeToString(ewkbPoint(x, -x, 4326)))
		if _, err := conn.Exec(ctx, "INSERT INTO geo_rt VALUES ($1, $2, $3)", i, "POINT("+fmtF(x)+" "+fmtF(x+1)+")", hexH); err != nil {
			t.Fatalf("%v: insert: %v", mode, err)
		}
	}

	// Binary: the parameters' OIDs are PostGIS's, looked up as a client
	// does (an extension type's OID is not fixed).
	var geomOID, geogOID uint32
	if err := setup.QueryRow(ctx, "SELECT 'geometry'::regtype::oid, 'geography'::regtype::oid").Scan(&geomOID, &geogOID); err != nil {
		t.Fatal(err)
	}
	pc := setup.PgConn()
	res := pc.ExecParams(ctx, "INSERT INTO geo_rt VALUES (10, $1, $2)",
		[][]byte{ewkbPoint(7, 8, 4326), ewkbPoint(-70, 40, 4326)}, []uint32{geomOID, geogOID}, []int16{1, 1}, nil).Read()
	if res.Err != nil {
		t.Fatalf("binary insert: %v", res.Err)
	}
	// A geometry without an SRID takes the column's; another SRID is 22023.
	res = pc.ExecParams(ctx, "INSERT INTO geo_rt VALUES (11, $1, NULL)", [][]byte{ewkbPoint(1, 1, 0)}, []uint32{geomOID}, []int16{1}, nil).Read()
	if res.Err != nil {
		t.Fatalf("binary insert without SRID: %v", res.Err)
	}
	res = pc.ExecParams(ctx, "INSERT INTO geo_rt VALUES (12, $1, NULL)", [][]byte{ewkbPoint(1, 1, 3857)}, []uint32{geomOID}, []int16{1}, nil).Read()
	var pgErr *pgconn.PgError
	if !errors.As(res.Err, &pgErr) || pgErr.Code != "22023" || !strings.Contains(pgErr.Message, "Geometry SRID (3857) does not match column SRID (4326)") {
		t.Fatalf("binary insert in SRID 3857: %v, want 22023", res.Err)
	}

	// Read back as text (hex EWKB) and as binary (EWKB bytes).
	rows, err := setup.Query(ctx, "SELECT id, g::text, h::text FROM geo_rt ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[int32][2]string{}
	for rows.Next() {
		var id int32
		var g, h *string
		if err := rows.Scan(&id, &g, &h); err != nil {
			t.Fatal(err)
		}
		texts[id] = [2]string{deref(g), deref(h)}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	bin := pc.ExecParams(ctx, "SELECT id, g, h FROM geo_rt ORDER BY id", nil, nil, nil, []int16{0, 1, 1}).Read()
	if bin.Err != nil {
		t.Fatal(bin.Err)
	}
	if len(bin.Rows) != len(execModes)+2 || len(texts) != len(bin.Rows) {
		t.Fatalf("%d binary rows, %d text rows, want %d", len(bin.Rows), len(texts), len(execModes)+2)
	}
	for _, r := range bin.Rows {
		id := string(r[0])
		var wantG, wantH []byte
		switch id {
		case "10":
			wantG, wantH = ewkbPoint(7, 8, 4326), ewkbPoint(-70, 40, 4326)
		case "11":
			wantG = ewkbPoint(1, 1, 4326)
		default:
			x := float64(id[0]-'0') + 0.5
			wantG, wantH = ewkbPoint(x, x+1, 4326), ewkbPoint(x, -x, 4326)
		}
		if !bytes.Equal(r[1], wantG) || !bytes.Equal(r[2], wantH) {
			t.Errorf("row %s binary: g %x h %x, want %x %x", id, r[1], r[2], wantG, wantH)
		}
		var n int32
		for _, c := range id {
			n = n*10 + c - '0'
		}
		got := texts[n]
		if got[0] != strings.ToUpper(hex.EncodeToString(wantG)) || got[1] != strings.ToUpper(hex.EncodeToString(wantH)) {
			t.Errorf("row %s text: %q, want hex of %x and %x", id, got, wantG, wantH)
		}
	}

	// A query the way an application asks: points within 200 km of one.
	var ids []int32
	rows, err = setup.Query(ctx, "SELECT id FROM geo_rt WHERE ST_DWithin(h, ST_SetSRID(ST_MakePoint(-71, 40), 4326)::geography, 200000) ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int32
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 1 || ids[0] != 10 {
		t.Errorf("ST_DWithin: %v, want [10]", ids)
	}
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
