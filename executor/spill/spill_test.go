package spill

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// sampleValues are values of every kind, with the edge cases each has.
func sampleValues(t testing.TB) []sqltypes.Value {
	num := func(s string) sqltypes.Value {
		v, err := sqltypes.ParseNumeric(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rng := func(id sqltypes.TypeID, s string) sqltypes.Value {
		v, err := sqltypes.ParseText(sqltypes.Type{ID: id}, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	parse := func(typ sqltypes.Type, s string) sqltypes.Value {
		v, err := sqltypes.ParseText(typ, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	j, err := sqltypes.ParseJSONB(`{"a": [1, 2.50, "x"], "b": null}`)
	if err != nil {
		t.Fatal(err)
	}
	return []sqltypes.Value{
		sqltypes.Null, sqltypes.NewInt(0), sqltypes.NewInt(math.MinInt64), sqltypes.NewInt(math.MaxInt64),
		sqltypes.NewFloat(-0.5), sqltypes.NewFloat(math.Inf(1)), sqltypes.NewFloat(math.NaN()),
		sqltypes.NewBool(true), sqltypes.NewBool(false), sqltypes.NewText(""), sqltypes.NewText("héllo\x00"),
		sqltypes.NewBytes([]byte{0, 1, 255}), sqltypes.NewTimestamp(-1), sqltypes.NewTimestampTZ(1 << 50),
		sqltypes.NewDate(-719162), sqltypes.NewUUID([16]byte{1, 2, 3}), num("1.50"), num("-0.000001"), num("NaN"),
		num("Infinity"), sqltypes.NewInterval(sqltypes.IntervalValue{Months: -1, Days: 40, Micros: -7}),
		sqltypes.NewBPChar("ab  "), sqltypes.NewJSON(` {"x":1} `), sqltypes.NewJSONB(j),
		sqltypes.NewArray1(sqltypes.TypeInt4, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.Null}),
		sqltypes.NewArray(&sqltypes.ArrayValue{Elem: sqltypes.TypeText, Dims: []int32{2, 1}, Lower: []int32{0, 3},
			Elems: []sqltypes.Value{sqltypes.NewText("a"), sqltypes.NewText("b")}}),
		sqltypes.NewArray1(sqltypes.TypeNumeric, nil),
		sqltypes.NewBit([]byte{0xa8}, 5), sqltypes.NewBit(nil, 0), sqltypes.NewMoney(-123456),
		rng(sqltypes.NumRange, "(1.50,)"), rng(sqltypes.Int4Range, "empty"), rng(sqltypes.TstzRange, "[2024-01-01 00:00+00,infinity]"),
		rng(sqltypes.Int8Multirange, "{[1,3),(5,)}"), rng(sqltypes.DateMultirange, "{}"),
		parse(sqltypes.RangeOf(userRange), "[1.5,2]"), parse(sqltypes.MultirangeOfUser(userRange), "{[1,2),(3,)}"),
		parse(sqltypes.TypeInet, "10.1.2.3/8"), parse(sqltypes.TypeCidr, "2001:db8::/32"),
		parse(sqltypes.TypeMacAddr, "08:00:2b:01:02:03"), parse(sqltypes.TypeMacAddr8, "08:00:2b:01:02:03:04:05"),
		parse(sqltypes.Type{ID: sqltypes.GeoPoint}, "(1.5,-0)"), parse(sqltypes.Type{ID: sqltypes.GeoLSeg}, "[(0,0),(1,NaN)]"),
		parse(sqltypes.Type{ID: sqltypes.GeoBox}, "(1,1),(0,0)"), parse(sqltypes.Type{ID: sqltypes.GeoLine}, "{1,2,3}"),
		parse(sqltypes.Type{ID: sqltypes.GeoPath}, "[(0,0),(1,1)]"), parse(sqltypes.Type{ID: sqltypes.GeoPolygon}, "(0,0),(1,1),(2,0)"),
		parse(sqltypes.Type{ID: sqltypes.GeoCircle}, "<(1,2),inf>"),
	}
}

// userRange is a user-defined range type's definition (CREATE TYPE
// floatrange AS RANGE (subtype = float8)): its values spill with their
// run's number for it (Types).
var userRange = &sqltypes.RangeType{OID: 70000, ArrayOID: 70001, MultiOID: 70002, MultiArrayOID: 70003,
	Name: "floatrange", MultiName: "floatmultirange", Subtype: sqltypes.TypeFloat8}

func same(a, b sqltypes.Value) bool {
	if a.K == sqltypes.KindFloat && b.K == sqltypes.KindFloat {
		return math.Float64bits(a.F) == math.Float64bits(b.F)
	}
	return sqltypes.Identical(a, b)
}

func TestCodecRoundTrip(t *testing.T) {
	vals := sampleValues(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var ts Types
	for i := 0; i < 500; i++ {
		row := make([]sqltypes.Value, rng.IntN(8))
		for j := range row {
			row[j] = vals[rng.IntN(len(vals))]
		}
		got, err := DecodeRow(AppendRow(nil, row, &ts), &ts)
		if err != nil || len(got) != len(row) {
			t.Fatalf("row %v: decoded %v, %v", row, got, err)
		}
		for j := range row {
			if !same(got[j], row[j]) {
				t.Fatalf("value %d of %v: decoded %v", j, row, got[j])
			}
		}
	}
}

func FuzzDecodeRow(f *testing.F) {
	ts := &Types{}
	f.Add(AppendRow(nil, sampleValues(f), ts))
	f.Add([]byte{3, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		row, err := DecodeRow(b, ts)
		if err == nil {
			// What decodes encodes back to something that decodes the same.
			again, err := DecodeRow(AppendRow(nil, row, ts), ts)
			if err != nil || len(again) != len(row) {
				t.Fatalf("re-decoding %v: %v, %v", row, again, err)
			}
		}
	})
}

func TestRunsAndQuota(t *testing.T) {
	root := t.TempDir()
	s := New(root)
	defer s.Close()
	q := &Quota{Limit: -1}
	runs := make([]*Run, 3)
	for i := range runs {
		r, err := s.NewRun(q)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 5000; k++ {
			if err := r.Add([]sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewInt(int64(k)), sqltypes.NewText(strconv.Itoa(k))}); err != nil {
				t.Fatal(err)
			}
		}
		runs[i] = r
	}
	for i, r := range runs {
		for pass := 0; pass < 2; pass++ {
			rd, err := r.Reader()
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for {
				row, ok, err := rd.Next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if row[0].I != int64(i) || row[1].I != int64(k) || row[2].S != strconv.Itoa(k) {
					t.Fatalf("run %d row %d: %v", i, k, row)
				}
				k++
			}
			rd.Close()
			if k != 5000 || r.Len() != 5000 {
				t.Fatalf("run %d: read %d of %d rows", i, k, r.Len())
			}
		}
	}
	if q.Used() == 0 || q.Peak() < q.Used() {
		t.Fatalf("quota used %d, peak %d", q.Used(), q.Peak())
	}
	for _, r := range runs {
		r.Release()
	}
	if q.Used() != 0 {
		t.Fatalf("released runs still hold %d bytes", q.Used())
	}

	small := &Quota{Limit: 1 << 10}
	r, err := s.NewRun(small)
	if err != nil {
		t.Fatal(err)
	}
	var qerr error
	for k := 0; k < 1000 && qerr == nil; k++ {
		qerr = r.Add([]sqltypes.Value{sqltypes.NewText("0123456789")})
	}
	if pgerr.CodeOf(qerr) != pgerr.ConfigurationLimitExceeded {
		t.Fatalf("past temp_file_limit: %v, want 53400", qerr)
	}
	r.Release()

	dir := s.Dir()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("store dir: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("Close left %s (%v)", dir, err)
	}
}

func TestSweep(t *testing.T) {
	root := t.TempDir()
	dead := filepath.Join(root, dirPrefix+"999999999-1")
	mine := filepath.Join(root, dirPrefix+strconv.Itoa(os.Getpid())+"-7")
	other := filepath.Join(root, "unrelated")
	for _, d := range []string{dead, mine, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if n := Sweep(root); n != 1 {
		t.Fatalf("Sweep removed %d directories, want 1", n)
	}
	for d, want := range map[string]bool{dead: false, mine: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", d, err == nil, want)
		}
	}
}

// files lists the regular files under dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestReleaseRemovesFiles: a released run's file goes at once, and a
// statement's Quota.Close removes the runs its operators left, even one
// being written or read.
func TestReleaseRemovesFiles(t *testing.T) {
	root := t.TempDir()
	s := New(root)
	defer s.Close()
	q := &Quota{Limit: -1}
	row := []sqltypes.Value{sqltypes.NewText("x")}
	a, _ := s.NewRun(q)
	b, _ := s.NewRun(q)
	c, err := s.NewRun(q)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Run{a, b, c} {
		if err := r.Add(row); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(files(t, root)); n != 3 {
		t.Fatalf("%d files for 3 runs", n)
	}
	a.Release()
	if n := len(files(t, root)); n != 2 || q.Live() != 2 {
		t.Fatalf("after a release: %d files, %d live runs", n, q.Live())
	}
	rd, err := b.Reader()
	if err != nil {
		t.Fatal(err)
	}
	q.Close() // b is being read, c written
	if f := files(t, root); len(f) != 0 || q.Live() != 0 || q.Used() != 0 {
		t.Fatalf("after Quota.Close: files %v, %d live runs, %d bytes", f, q.Live(), q.Used())
	}
	if _, _, err := rd.Next(); err == nil {
		t.Fatal("reading a run closed with its statement succeeded")
	}
	rd.Close()
	if err := c.Add(row); err == nil {
		t.Fatal("writing a run closed with its statement succeeded")
	}
}

// TestRunsKeepTheirRangeTypes: two runs written at once whose rows are of
// two different user-defined range types with the same OID (two databases'
// catalogs of one process) each read back their own type.
func TestRunsKeepTheirRangeTypes(t *testing.T) {
	s := New(t.TempDir())
	defer s.Close()
	q := &Quota{Limit: -1}
	defer q.Close()
	types := []*sqltypes.RangeType{
		userRange,
		{OID: userRange.OID, ArrayOID: userRange.ArrayOID, MultiOID: userRange.MultiOID, MultiArrayOID: userRange.MultiArrayOID,
			Name: "app.intrange", MultiName: "app.intmultirange", Subtype: sqltypes.TypeInt4},
	}
	var runs []*Run
	for _, rt := range types {
		r, err := s.NewRun(q)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
		v, err := sqltypes.ParseText(sqltypes.RangeOf(rt), "[1,2)")
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Add([]sqltypes.Value{v}); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range runs {
		rd, err := r.Reader()
		if err != nil {
			t.Fatal(err)
		}
		row, ok, err := rd.Next()
		rd.Close()
		if err != nil || !ok {
			t.Fatalf("run %d: %v, %v", i, ok, err)
		}
		if got := row[0].Range().Typ.Range; got != types[i] {
			t.Errorf("run %d: read back range type %q, want %q", i, got.Name, types[i].Name)
		}
	}
}
