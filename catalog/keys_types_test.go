package catalog_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

func parse(t testing.TB, typ sqltypes.Type, s string) sqltypes.Value {
	t.Helper()
	v, err := sqltypes.ParseText(typ, s)
	if err != nil {
		t.Fatalf("%s %q: %v", typ, s, err)
	}
	return v
}

func randNumericText(r *rand.Rand) string {
	switch r.IntN(30) {
	case 0:
		return "NaN"
	case 1:
		return "Infinity"
	case 2:
		return "-Infinity"
	case 3:
		return "0"
	case 4:
		return "-0.000"
	}
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	for i := 1 + r.IntN(25); i > 0; i-- {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		for i := r.IntN(15); i >= 0; i-- {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	if r.IntN(3) == 0 {
		b.WriteString("e" + strconv.Itoa(r.IntN(400)-200))
	}
	return b.String()
}

func randInterval(r *rand.Rand) sqltypes.Value {
	pick := func(n int64) int64 {
		if r.IntN(3) == 0 {
			return r.Int64N(61) - 30
		}
		return r.Int64N(2*n+1) - n
	}
	return sqltypes.NewInterval(sqltypes.IntervalValue{
		Months: int32(pick(math.MaxInt32)), Days: int32(pick(math.MaxInt32)), Micros: pick(math.MaxInt64 / 2),
	})
}

// randTimeTZ picks times and offsets from small sets, so equal UTC times
// with different offsets (distinct values) and equal values are common.
func randTimeTZ(r *rand.Rand) sqltypes.Value {
	offsets := []int32{-14 * 3600, -5*3600 - 1800, -3600, 0, 3600, 2 * 3600, 14 * 3600}
	return sqltypes.NewTimeTZ(sqltypes.TimeTZValue{Micros: r.Int64N(25) * 3600e6, Offset: offsets[r.IntN(len(offsets))]})
}

// checkKeyOrder asserts that the key bytes of a and b, ascending and
// descending, order as Compare does and are equal exactly when the values
// are.
func checkKeyOrder(t *testing.T, a, b sqltypes.Value) {
	t.Helper()
	want := sqltypes.Compare(a, b)
	for _, desc := range []bool{false, true} {
		ka, kb := catalog.AppendKeyValue(nil, a, desc), catalog.AppendKeyValue(nil, b, desc)
		got := bytes.Compare(ka, kb)
		if desc {
			got = -got
		}
		if got != want {
			t.Fatalf("%s vs %s (desc %v): keys compare %d, values %d", sqltypes.FormatText(a), sqltypes.FormatText(b), desc, got, want)
		}
		// Keys are prefix-free: a following column never changes the order.
		if want != 0 && bytes.Compare(append(ka, 0xff), append(kb, 0)) != bytes.Compare(ka, kb) {
			t.Fatalf("%s vs %s: keys not prefix-free", sqltypes.FormatText(a), sqltypes.FormatText(b))
		}
	}
}

// TestNumericKeyOrder: the key encoding of numeric orders by value
// (negatives, zero, tiny and huge magnitudes, NaN above Infinity) and
// 1.0, 1.00 share a key.
func TestNumericKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	edge := []string{"-Infinity", "-1e300", "-1", "-0.5", "-0.49999999999999999999", "-1e-300", "0", "0.00", "1e-300", "0.1",
		"0.10", "1", "1.0", "1.0000000000000000000001", "9.99", "10", "1e300", "Infinity", "NaN"}
	var vals []sqltypes.Value
	for _, s := range edge {
		vals = append(vals, parse(t, sqltypes.TypeNumeric, s))
	}
	for i := 0; i < 3000; i++ {
		vals = append(vals, parse(t, sqltypes.TypeNumeric, randNumericText(r)))
	}
	for i := 0; i < 20000; i++ {
		checkKeyOrder(t, vals[r.IntN(len(vals))], vals[r.IntN(len(vals))])
	}
	for i := range edge {
		for j := range edge {
			checkKeyOrder(t, vals[i], vals[j])
		}
	}
}

func TestIntervalAndCharKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for i := 0; i < 20000; i++ {
		a, b := randInterval(r), randInterval(r)
		if i%4 == 0 {
			iv := a.Interval()
			if iv.Months > math.MinInt32 && iv.Days < math.MaxInt32-30 {
				iv.Months--
				iv.Days += 30 // the same span: keys must collide
			}
			b = sqltypes.NewInterval(iv)
		}
		checkKeyOrder(t, a, b)
	}
	chars := []string{"", " ", "a", "a ", "a  ", "a\t", "ab", "b", "é"}
	for _, x := range chars {
		for _, y := range chars {
			checkKeyOrder(t, sqltypes.NewBPChar(x), sqltypes.NewBPChar(y))
		}
	}
	for i := 0; i < 5000; i++ {
		checkKeyOrder(t, randTimeTZ(r), randTimeTZ(r))
	}
	// Bit strings key in bit_cmp's order: bytes, then length.
	bits := []string{"", "0", "00", "000000000", "1", "10", "100000000", "100000001", "01", "11111111", "111111111", "0111"}
	for _, x := range bits {
		for _, y := range bits {
			a, _ := sqltypes.ParseBit(x, 0, true)
			b, _ := sqltypes.ParseBit(y, 0, true)
			checkKeyOrder(t, a, b)
		}
	}
	for _, us := range []int64{sqltypes.TimestampNegInfinity, sqltypes.MinTimestamp, 0, sqltypes.TimestampInfinity - 1, sqltypes.TimestampInfinity} {
		checkKeyOrder(t, sqltypes.NewTimestamp(us), sqltypes.NewTimestamp(0))
	}
}

// TestNetworkKeyOrder: inet and cidr keys sort as PostgreSQL's
// network_cmp (family, network part, mask length, whole address), the
// two types alike; macaddr keys bytewise.
func TestNetworkKeyOrder(t *testing.T) {
	sorted := []string{"0.0.0.0/0", "10.0.0.0/7", "10.0.0.0/8", "10.0.0.1/8", "10.0.0.0/16", "10.0.0.0", "10.0.0.1",
		"10.255.255.255", "11.0.0.0/8", "255.255.255.255", "::/0", "::", "::1", "::ffff:1.2.3.4", "2001:db8::/32", "2001:db8::1"}
	for i := range sorted {
		for j := range sorted {
			a, b := parse(t, sqltypes.TypeInet, sorted[i]), parse(t, sqltypes.TypeInet, sorted[j])
			if c := sqltypes.Compare(a, b); (c < 0) != (i < j) || (c == 0) != (i == j) {
				t.Errorf("Compare(%s, %s) = %d", sorted[i], sorted[j], c)
			}
			checkKeyOrder(t, a, b)
		}
	}
	// A cidr keys as the inet of the same address and mask.
	if !bytes.Equal(catalog.AppendKeyValue(nil, parse(t, sqltypes.TypeCidr, "10.0.0.0/8"), false),
		catalog.AppendKeyValue(nil, parse(t, sqltypes.TypeInet, "10.0.0.0/8"), false)) {
		t.Error("cidr and inet 10.0.0.0/8 key apart")
	}
	r := rand.New(rand.NewPCG(45, 46))
	for i := 0; i < 2000; i++ {
		a, b := make([]byte, 6), make([]byte, 6)
		for k := range a {
			a[k], b[k] = byte(r.IntN(3)), byte(r.IntN(3))
		}
		checkKeyOrder(t, sqltypes.NewMacAddr(a), sqltypes.NewMacAddr(b))
	}
}

// TestNewTypeAttrRoundTrip: every new type stores as attributes and loads
// back equal, numerics as numbers when that is lossless.
func TestNewTypeAttrRoundTrip(t *testing.T) {
	cases := []struct {
		typ  sqltypes.Type
		text string
		kind kv.AttrKind
	}{
		{sqltypes.TypeNumeric, "42", kv.AttrInt},
		{sqltypes.TypeNumeric, "-9223372036854775808", kv.AttrInt},
		{sqltypes.TypeNumeric, "9223372036854775808", kv.AttrString}, // float text would be 9223372036854776000
		{sqltypes.TypeNumeric, "1.5", kv.AttrFloat},
		{sqltypes.TypeNumeric, "0.1", kv.AttrFloat},
		{sqltypes.TypeNumeric, "1e20", kv.AttrFloat},
		{sqltypes.TypeNumeric, "1.50", kv.AttrString},
		{sqltypes.TypeNumeric, "0.000", kv.AttrString},
		{sqltypes.TypeNumeric, "123456789012345678901234567890.5", kv.AttrString},
		{sqltypes.TypeNumeric, "NaN", kv.AttrString},
		{sqltypes.TypeNumeric, "-Infinity", kv.AttrString},
		{sqltypes.NumericType(10, 2), "3.10", kv.AttrString},
		{sqltypes.TypeInterval, "1 year 2 mons -3 days +04:05:06.789", kv.AttrString},
		{sqltypes.TypeInterval, "0", kv.AttrString},
		{sqltypes.IntervalType(sqltypes.IntervalDay, -1), "5 days", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.BPChar, Width: 4}, "ab", kv.AttrString},
		{sqltypes.TypeJSON, ` {"b": 1, "a": [1,  2]} `, kv.AttrString},
		{sqltypes.TypeJSONB, `{"b": 1, "a": [1.50, "x"]}`, kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.TypeInt8), "{1,NULL,3}", kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.TypeText), `[0:1]={"a b",NULL}`, kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.TypeFloat4), "{1.1,NaN}", kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.NumericType(5, 2)), "{1.50,{}}", kv.AttrString},
		{sqltypes.TypeTimestamp, "infinity", kv.AttrInt},
		{sqltypes.TypeDate, "-infinity", kv.AttrInt},
		{sqltypes.TypeTimestampTZ, "20000-01-01 00:00:00.5+00", kv.AttrInt},
		{sqltypes.TypeTime, "24:00", kv.AttrInt},
		{sqltypes.TypeTime, "10:00:00.000001", kv.AttrInt},
		{sqltypes.TypeTimeTZ, "10:00:00.5-05:30", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.Bit, Width: 5}, "10101", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.VarBit, Width: 20}, "", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.VarBit}, "x0F1", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.Money}, "-$1,234.56", kv.AttrInt},
		{sqltypes.TypeInet, "10.1.2.3/8", kv.AttrString},
		{sqltypes.TypeInet, "::ffff:1.2.3.4", kv.AttrString},
		{sqltypes.TypeCidr, "10.0.0.0/32", kv.AttrString},
		{sqltypes.TypeMacAddr, "08:00:2b:01:02:03", kv.AttrString},
		{sqltypes.TypeMacAddr8, "08:00:2b:01:02:03:04:05", kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.TypeCidr), "{10.0.0.0/8,::/0}", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoPoint}, "(0.1,-1e-300)", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoLSeg}, "[(0,0),(1,NaN)]", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoBox}, "(1,1),(0,0)", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoLine}, "{1,-1,0.30000000000000004}", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoPath}, "[(0,0),(1,1)]", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoPolygon}, "(0,0),(1,1),(2,0)", kv.AttrString},
		{sqltypes.Type{ID: sqltypes.GeoCircle}, "<(1,2),inf>", kv.AttrString},
		{sqltypes.ArrayOf(sqltypes.Type{ID: sqltypes.GeoBox}), "{(1,1),(0,0);(3,3),(2,2)}", kv.AttrString},
	}
	for _, c := range cases {
		v, err := sqltypes.ParseText(c.typ, c.text)
		if err != nil {
			if c.typ.ID == sqltypes.Array && strings.Contains(c.text, "{}") {
				continue // not a valid array, nothing to store
			}
			t.Fatalf("%s %q: %v", c.typ, c.text, err)
		}
		a := catalog.ValueAttr("c", v)
		if a.Kind != c.kind {
			t.Errorf("%s %q stored as kind %d, want %d", c.typ, c.text, a.Kind, c.kind)
		}
		back, err := catalog.AttrValue(a, c.typ)
		if err != nil || back.K != v.K || !sqltypes.Equal(back, v) ||
			string(sqltypes.AppendTextAs(nil, c.typ, back)) != string(sqltypes.AppendTextAs(nil, c.typ, v)) {
			t.Errorf("%s %q came back as %q, %v", c.typ, c.text, sqltypes.FormatText(back), err)
		}
	}
}

// TestNumericAttrProperty: random numerics survive the attribute form,
// scale included.
func TestNumericAttrProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	for i := 0; i < 5000; i++ {
		v := parse(t, sqltypes.TypeNumeric, randNumericText(r))
		back, err := catalog.AttrValue(catalog.ValueAttr("c", v), sqltypes.TypeNumeric)
		if err != nil || sqltypes.FormatText(back) != sqltypes.FormatText(v) {
			t.Fatalf("%s came back as %s, %v", sqltypes.FormatText(v), sqltypes.FormatText(back), err)
		}
	}
}

// TestZCodeNumericMonotone: Z-order codes of numerics, intervals and timetz never reverse two
// values, and the box bounds from ZAbove/ZBelow keep every matching value,
// at every width.
func TestZCodeNumericMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	var vals []sqltypes.Value
	for i := 0; i < 400; i++ {
		vals = append(vals, parse(t, sqltypes.TypeNumeric, randNumericText(r)))
		vals = append(vals, randInterval(r), randTimeTZ(r))
	}
	for _, width := range []int{64, 32, 12} {
		for _, nullable := range []bool{false, true} {
			for _, kind := range []sqltypes.Kind{sqltypes.KindNumeric, sqltypes.KindInterval, sqltypes.KindTimeTZ} {
				typ := sqltypes.KindType(kind)
				a := zorder.Attr{Name: "x", Type: catalog.ZType(typ), Width: width, Nullable: nullable}
				for _, x := range vals {
					if x.K != kind {
						continue
					}
					for _, y := range vals {
						if y.K != kind {
							continue
						}
						cx, cy := catalog.ZCode(a, x), catalog.ZCode(a, y)
						c := sqltypes.Compare(x, y)
						if c < 0 && cx > cy || c > 0 && cx < cy || c == 0 && cx != cy {
							t.Fatalf("width %d: %s vs %s: codes %d %d", width, sqltypes.FormatText(x), sqltypes.FormatText(y), cx, cy)
						}
						for _, inc := range []bool{false, true} {
							// y satisfies x > y / x >= y: its code is in the box.
							if c > 0 || c == 0 && inc {
								if iv := catalog.ZAbove(a, y, inc); cx < iv.Lo || cx > iv.Hi {
									t.Fatalf("%s > %s but code %d outside %+v", sqltypes.FormatText(x), sqltypes.FormatText(y), cx, iv)
								}
							}
							if c < 0 || c == 0 && inc {
								if iv := catalog.ZBelow(a, y, inc); cx < iv.Lo || cx > iv.Hi {
									t.Fatalf("%s < %s but code %d outside %+v", sqltypes.FormatText(x), sqltypes.FormatText(y), cx, iv)
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestCheckKeyType(t *testing.T) {
	cases := []struct {
		typ  sqltypes.Type
		code string
	}{
		{sqltypes.TypeNumeric, ""},
		{sqltypes.TypeInterval, ""},
		{sqltypes.Type{ID: sqltypes.BPChar, Width: 3}, ""},
		{sqltypes.TypeJSON, pgerr.UndefinedObject.String()},
		{sqltypes.TypeJSONB, pgerr.FeatureNotSupported.String()},
		{sqltypes.ArrayOf(sqltypes.TypeInt4), pgerr.FeatureNotSupported.String()},
		{sqltypes.TypeTime, ""},
		{sqltypes.TypeTimeTZ, ""},
	}
	for _, c := range cases {
		for _, kind := range []catalog.IndexKind{catalog.KindPrimary, catalog.KindBTree, catalog.KindZOrder} {
			err := catalog.CheckKeyType(c.typ, kind)
			if code := pgerr.CodeOf(err).String(); err != nil && code != c.code || err == nil && c.code != "" {
				t.Errorf("CheckKeyType(%s, %s): %s, want %q", c.typ, kind, code, c.code)
			}
		}
	}
}

// TestTimestampStoredForm pins the stored form of timestamps, which
// counts µs from 1970 (zproxy's count before it took PostgreSQL's, from
// 2000): stores written before read the same, in keys and attributes.
// PostgreSQL's last thirty years, past that count in an int64, are an
// attribute's text and key after every storable timestamp.
func TestTimestampStoredForm(t *testing.T) {
	y2000 := sqltypes.NewTimestamp(0)
	if a := catalog.ValueAttr("c", y2000); a.Kind != kv.AttrInt || a.I != sqltypes.PGEpochMicros {
		t.Fatalf("2000-01-01 stored as %+v, want µs since 1970", a)
	}
	if k := catalog.AppendKeyValue(nil, y2000, false); !bytes.Equal(k, zorder.AppendInt(nil, sqltypes.PGEpochMicros, false)) {
		t.Fatalf("2000-01-01 keyed %x", k)
	}
	if v, err := catalog.AttrValue(kv.Attr{Kind: kv.AttrInt}, sqltypes.TypeTimestampTZ); err != nil || sqltypes.FormatText(v) != "1970-01-01 00:00:00+00" {
		t.Fatalf("a stored 0 reads %s, %v", sqltypes.FormatText(v), err)
	}
	if s, ok := sqltypes.StoredTimestamp(sqltypes.MaxStoredTimestamp - 1 - sqltypes.PGEpochMicros); !ok || s != sqltypes.MaxStoredTimestamp-1 {
		t.Fatalf("the last timestamp stored as a count: %d, %v", s, ok)
	}
	ordered := []sqltypes.Value{
		sqltypes.NewTimestamp(sqltypes.TimestampNegInfinity),
		sqltypes.NewTimestamp(sqltypes.MinTimestamp),
		sqltypes.NewTimestamp(sqltypes.MaxStoredTimestamp - 2 - sqltypes.PGEpochMicros),
		sqltypes.NewTimestamp(sqltypes.MaxStoredTimestamp - 1 - sqltypes.PGEpochMicros),
		sqltypes.NewTimestamp(sqltypes.MaxStoredTimestamp - sqltypes.PGEpochMicros),     // 294247-01-10 04:00:54.775806
		sqltypes.NewTimestamp(sqltypes.MaxStoredTimestamp + 1 - sqltypes.PGEpochMicros), // 294247-01-10 04:00:54.775807
		sqltypes.NewTimestamp(sqltypes.EndTimestamp - 1),                                // 294276-12-31 23:59:59.999999
		sqltypes.NewTimestamp(sqltypes.TimestampInfinity),
	}
	for i, v := range ordered {
		a := catalog.ValueAttr("c", v)
		back, err := catalog.AttrValue(a, sqltypes.TypeTimestamp)
		if err != nil || back != v {
			t.Fatalf("%s stored as %+v reads %s, %v", sqltypes.FormatText(v), a, sqltypes.FormatText(back), err)
		}
		for _, w := range ordered[i:] {
			checkKeyOrder(t, v, w) // both directions, prefix-free
		}
	}
	// A count written before reads as the same instant.
	if v, err := catalog.AttrValue(kv.Attr{Kind: kv.AttrInt, I: sqltypes.MaxStoredTimestamp}, sqltypes.TypeTimestamp); err != nil || sqltypes.FormatText(v) != "294247-01-10 04:00:54.775806" {
		t.Fatalf("the last stored count reads %s, %v", sqltypes.FormatText(v), err)
	}
	if got := sqltypes.FormatText(ordered[6]); got != "294276-12-31 23:59:59.999999" {
		t.Fatalf("last timestamp prints %s", got)
	}
}
