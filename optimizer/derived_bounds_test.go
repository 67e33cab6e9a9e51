package optimizer

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TestTruncationBoundsBruteForce checks the ranges derived from
// date_trunc(unit, col) op c against the function itself: for values
// around c and around every step boundary near it, a value is in the range
// exactly when the comparison holds. Time zones with daylight saving and
// half-hour offsets are included.
func TestTruncationBoundsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	units := []string{"microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "century", "millennium"}
	ops := []ir.BinOp{ir.OpEq, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe}
	zones := []string{"UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Europe/London"}
	steps := map[string]int64{"microseconds": 1, "milliseconds": 1000, "second": 1e6, "minute": 60e6, "hour": 3600e6,
		"day": 86400e6, "week": 7 * 86400e6, "month": 31 * 86400e6, "quarter": 92 * 86400e6, "year": 366 * 86400e6,
		"decade": 3653 * 86400e6, "century": 36525 * 86400e6, "millennium": 365250 * 86400e6}
	bounded := 0
	for iter := 0; iter < 3000; iter++ {
		unit := units[rng.Intn(len(units))]
		op := ops[rng.Intn(len(ops))]
		kind := sqltypes.KindTimestamp
		loc := time.UTC
		if rng.Intn(2) == 0 {
			kind = sqltypes.KindTimestampTZ
			loc, _ = builtins.LookupZone(zones[rng.Intn(len(zones))])
		}
		trunc := func(us int64) int64 {
			var r int64
			var err error
			if kind == sqltypes.KindTimestamp {
				r, err = builtins.TruncTimestamp(unit, us)
			} else {
				r, err = builtins.TruncTimestampTZ(unit, us, loc)
			}
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		// c: an instant between 1900 and 2100, on a step boundary half the time.
		c := int64(rng.Int63n(200*365*86400e6)) - 70*365*86400e6
		if rng.Intn(2) == 0 {
			c = trunc(c)
		}
		typ := sqltypes.Type{ID: sqltypes.Timestamp}
		if kind == sqltypes.KindTimestampTZ {
			typ = sqltypes.TypeTimestampTZ
		}
		fn := &ir.Func{Name: "date_trunc", Typ: typ, Args: []ir.Expr{
			&ir.Const{V: sqltypes.NewText(unit), Typ: sqltypes.TypeText},
			&ir.ColRef{Index: 0, Name: "ts", Typ: typ},
		}}
		cmp := &ir.Binary{Op: op, L: fn, R: &ir.Const{V: sqltypes.Value{K: kind, I: c}, Typ: typ}, Typ: sqltypes.TypeBool}
		if rng.Intn(2) == 0 { // the constant on the left
			cmp = &ir.Binary{Op: flip(op), L: cmp.R, R: fn, Typ: sqltypes.TypeBool}
		}
		ctx := &ir.EvalContext{Fn: builtins.Context{Location: loc}}
		col, set, ok := truncationBound(cmp, ctx)
		if !ok {
			continue // no bound: the filter alone decides, which is always right
		}
		if col != 0 {
			t.Fatalf("bound on column %d", col)
		}
		bounded++
		// Samples: around c and around the step boundaries next to it.
		step := steps[unit]
		var xs []int64
		for _, base := range []int64{c, trunc(c), trunc(c) + step, trunc(c) - 1} {
			for d := int64(-2); d <= 2; d++ {
				xs = append(xs, base+d)
			}
			xs = append(xs, base+rng.Int63n(2*step+1)-step)
		}
		for _, x := range xs {
			tx := trunc(x)
			want := ir.CompareHolds(op, cmpInt(tx, c))
			if got := set.Contains(sqltypes.Value{K: kind, I: x}); got != want {
				t.Fatalf("date_trunc(%q, ts) %s %d in %v: ts = %d (trunc %d) in range %v, comparison %v",
					unit, op, c, loc, x, tx, got, want)
			}
		}
	}
	if bounded < 2900 {
		t.Errorf("only %d of 3000 comparisons became ranges", bounded)
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestShiftedTruncationBoundsBruteForce does the same for a column read at
// a zone of one fixed offset (ts AT TIME ZONE 'EST'), alone, truncated or
// cast to date, with the reference computed by the zone conversions
// themselves. Zones with daylight saving time give no bound.
func TestShiftedTruncationBoundsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(15))
	units := []string{"", "date", "minute", "hour", "day", "week", "month", "year"}
	ops := []ir.BinOp{ir.OpEq, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe}
	zones := []string{"UTC", "EST", "+05", "UTC-5:30", "Etc/GMT-14"}
	session, _ := builtins.LookupZone("Asia/Kolkata")
	bounded := 0
	for iter := 0; iter < 2000; iter++ {
		unit := units[rng.Intn(len(units))]
		op := ops[rng.Intn(len(ops))]
		zone := zones[rng.Intn(len(zones))]
		loc, err := builtins.LookupZone(zone)
		if err != nil {
			t.Fatal(err)
		}
		colTyp, resTyp := sqltypes.TypeTimestamp, sqltypes.TypeTimestampTZ
		if rng.Intn(2) == 0 {
			colTyp, resTyp = resTyp, colTyp
		}
		// f is the expression's value for a column value, by the
		// functions the executor runs.
		f := func(us int64) int64 {
			if colTyp.ID == sqltypes.TimestampTZ {
				us = builtins.ToLocal(us, loc)
			} else {
				us = builtins.FromLocal(us, loc)
			}
			var err error
			switch {
			case unit == "":
			case unit == "date" && resTyp.ID == sqltypes.Timestamp:
				us, err = builtins.TruncTimestamp("day", us)
			case unit == "date":
				us = builtins.FromLocal(builtins.ToLocal(us, session)/86400e6*86400e6, session)
			case resTyp.ID == sqltypes.Timestamp:
				us, err = builtins.TruncTimestamp(unit, us)
			default:
				us, err = builtins.TruncTimestampTZ(unit, us, session)
			}
			if err != nil {
				t.Fatal(err)
			}
			return us
		}
		var e ir.Expr = &ir.Func{Name: "timezone", Typ: resTyp, Args: []ir.Expr{
			&ir.Const{V: sqltypes.NewText(zone), Typ: sqltypes.TypeText},
			&ir.ColRef{Index: 0, Name: "ts", Typ: colTyp},
		}}
		c := int64(rng.Int63n(100 * 365 * 86400e6)) // 1970 to 2070
		constant := &ir.Const{V: sqltypes.Value{K: resTyp.Kind(), I: c}, Typ: resTyp}
		switch unit {
		case "":
		case "date":
			e = &ir.Cast{E: e, To: sqltypes.TypeDate}
			constant = &ir.Const{V: sqltypes.NewDate(c/86400e6 + sqltypes.PGEpochDays), Typ: sqltypes.TypeDate}
		default:
			e = &ir.Func{Name: "date_trunc", Typ: resTyp, Args: []ir.Expr{
				&ir.Const{V: sqltypes.NewText(unit), Typ: sqltypes.TypeText}, e}}
			if rng.Intn(2) == 0 {
				c = f(c) // on a step boundary (of some column value's result)
				constant.V.I = c
			}
		}
		ref := constant.V.I // what f's results compare with
		if unit == "date" {
			ref = c / 86400e6 * 86400e6
			if resTyp.ID == sqltypes.TimestampTZ {
				ref = builtins.FromLocal(ref, session)
			}
		}
		cmp := &ir.Binary{Op: op, L: e, R: constant, Typ: sqltypes.TypeBool}
		ctx := &ir.EvalContext{Fn: builtins.Context{Location: session}}
		col, set, ok := truncationBound(cmp, ctx)
		if !ok {
			t.Fatalf("no bound for %s on a %s column in %s %s", unit, colTyp, zone, op)
		}
		if col != 0 {
			t.Fatalf("bound on column %d", col)
		}
		bounded++
		var xs []int64
		for _, base := range []int64{c, c - 14*3600e6, c + 14*3600e6} {
			for d := int64(-2); d <= 2; d++ {
				xs = append(xs, base+d)
			}
			xs = append(xs, base+rng.Int63n(400*86400e6)-200*86400e6)
		}
		// The values whose result is exactly ref, found by moving back by
		// the zone's offset.
		_, off := time.Unix(0, 0).In(loc).Zone()
		for d := int64(-2); d <= 2; d++ {
			xs = append(xs, ref-int64(off)*1e6+d, ref+int64(off)*1e6+d)
		}
		for _, x := range xs {
			want := ir.CompareHolds(op, cmpInt(f(x), ref))
			if got := set.Contains(sqltypes.Value{K: colTyp.Kind(), I: x}); got != want {
				t.Fatalf("%q of %s AT TIME ZONE %q %s %d: ts = %d (f %d) in range %v, comparison %v",
					unit, colTyp, zone, op, ref, x, f(x), got, want)
			}
		}
	}
	// A zone with daylight saving time: no bound.
	e := &ir.Func{Name: "timezone", Typ: sqltypes.TypeTimestamp, Args: []ir.Expr{
		&ir.Const{V: sqltypes.NewText("America/New_York"), Typ: sqltypes.TypeText},
		&ir.ColRef{Index: 0, Name: "ts", Typ: sqltypes.TypeTimestampTZ},
	}}
	cmp := &ir.Binary{Op: ir.OpGe, L: e, R: &ir.Const{V: sqltypes.NewTimestamp(0), Typ: sqltypes.TypeTimestamp}, Typ: sqltypes.TypeBool}
	if _, _, ok := truncationBound(cmp, &ir.EvalContext{}); ok {
		t.Error("a bound through a zone with daylight saving time")
	}
}

// TestEpochBoundsBruteForce: extract(epoch from col) op n, for whole and
// fractional n (in seconds, exactly), on plain and shifted columns.
func TestEpochBoundsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	ops := []ir.BinOp{ir.OpEq, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe}
	for iter := 0; iter < 2000; iter++ {
		op := ops[rng.Intn(len(ops))]
		typ := sqltypes.TypeTimestampTZ
		if rng.Intn(2) == 0 {
			typ = sqltypes.TypeTimestamp
		}
		var arg ir.Expr = &ir.ColRef{Index: 0, Name: "ts", Typ: typ}
		var shift int64
		if rng.Intn(2) == 0 {
			arg = &ir.Func{Name: "timezone", Args: []ir.Expr{&ir.Const{V: sqltypes.NewText("EST"), Typ: sqltypes.TypeText}, arg}}
			shift = -5 * 3600e6
			if typ.ID == sqltypes.Timestamp {
				shift = -shift
			}
		}
		e := &ir.Func{Name: "extract", Typ: sqltypes.TypeNumeric, Args: []ir.Expr{
			&ir.Const{V: sqltypes.NewText("epoch"), Typ: sqltypes.TypeText}, arg}}
		// n: whole seconds, whole µs, or finer than a µs.
		us := rng.Int63n(100 * 365 * 86400e6)
		text := fmt.Sprintf("%d.%06d", us/1e6, us%1e6)
		switch rng.Intn(3) {
		case 0:
			text = fmt.Sprint(us / 1e6)
			us = us / 1e6 * 1e6
		case 1:
			text += "5"
		}
		n, err := sqltypes.ParseNumeric(text)
		if err != nil {
			t.Fatal(err)
		}
		cmp := &ir.Binary{Op: op, L: e, R: &ir.Const{V: n, Typ: sqltypes.TypeNumeric}, Typ: sqltypes.TypeBool}
		_, set, ok := truncationBound(cmp, &ir.EvalContext{})
		if !ok {
			t.Fatalf("no bound for extract(epoch) %s %s", op, text)
		}
		want := new(big.Rat)
		want.SetString(text)
		for d := int64(-3); d <= 3; d++ {
			// The column value x (µs from 2000) whose epoch (from
			// 1970) is near n.
			x := sqltypes.TimestampFromUnixMicro(us) - shift + d
			got := new(big.Rat).SetFrac64(x+shift+sqltypes.PGEpochMicros, 1e6)
			holds := ir.CompareHolds(op, got.Cmp(want))
			if in := set.Contains(sqltypes.Value{K: typ.Kind(), I: x}); in != holds {
				t.Fatalf("extract(epoch from %s, shift %d) %s %s: ts = %d in range %v, comparison %v", typ, shift, op, text, x, in, holds)
			}
		}
	}
}
