package executor

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// nearestDistFixture is a search's distance col0 - centre, whose centre
// is a call counting its evaluations (a stand-in for ST_SetSRID(
// ST_MakePoint($1, $2), 4326)), and a count of the distance's own calls.
func nearestDistFixture() (dist, centre *ir.Func, centreCalls, distCalls *int) {
	centreCalls, distCalls = new(int), new(int)
	centre = &ir.Func{Name: "centre", Fn: func(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
		*centreCalls++
		return sqltypes.NewFloat(2), nil
	}}
	dist = &ir.Func{Name: "<->", Args: []ir.Expr{&ir.ColRef{Index: 0}, centre}, Fn: func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		*distCalls++
		return sqltypes.NewFloat(a[0].F - a[1].F), nil
	}}
	return dist, centre, centreCalls, distCalls
}

// TestNearestDistanceEvaluatesCentreOnce: once the search has its centre's
// value, the distance of each entry read takes it as the centre argument
// rather than evaluating the centre's expression again, and is the
// distance Eval gives.
func TestNearestDistanceEvaluatesCentreOnce(t *testing.T) {
	dist, centre, centreCalls, _ := nearestDistFixture()
	n := &optimizer.Scan{Nearest: &optimizer.NearestQuery{K: 3, Dist: dist, Center: centre}}
	r := (&execCtx{}).newNearest(n, n).(*nearestRows)
	v, err := centre.Eval(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.fixCentre(v)
	*centreCalls = 0
	for i := range 100 {
		row := []sqltypes.Value{sqltypes.NewFloat(float64(i))}
		got, err := r.distance(row)
		if err != nil {
			t.Fatal(err)
		}
		if got.F != float64(i)-2 {
			t.Fatalf("distance of %d = %v, want %v", i, got.F, float64(i)-2)
		}
	}
	if *centreCalls != 0 {
		t.Fatalf("the centre was evaluated %d times for 100 entries, want 0", *centreCalls)
	}
}

// TestProjectTakesNearestDistance: a projection over a nearest-neighbour
// search whose column is the search's own distance expression takes each
// row's distance from the search (no evaluation), and evaluates its other
// columns, and a different expression of the same shape, as before.
func TestProjectTakesNearestDistance(t *testing.T) {
	dist, _, _, distCalls := nearestDistFixture()
	other, _, _, otherCalls := nearestDistFixture()
	n := &optimizer.Scan{Nearest: &optimizer.NearestQuery{K: 3, Dist: dist}}
	r := (&execCtx{}).newNearest(n, n).(*nearestRows)
	r.started = true // the search has run: these are its candidates
	for i := range 5 {
		r.cands = append(r.cands, r.newCand([]sqltypes.Value{sqltypes.NewFloat(float64(10 + i))}, sqltypes.NewFloat(float64(i))))
	}
	exprs := []ir.Expr{&ir.ColRef{Index: 0}, dist, other}
	p := &projectRows{in: r, exprs: exprs, ec: &execCtx{}, out: make([]sqltypes.Value, len(exprs))}
	p.near, p.nearCol = nearestDistUnder(r, exprs)
	if p.near != r || p.nearCol != 1 {
		t.Fatalf("nearestDistUnder = %p, %d; want the search and column 1", p.near, p.nearCol)
	}
	for i := 0; ; i++ {
		row, ok, err := p.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if i != 5 {
				t.Fatalf("%d rows, want 5", i)
			}
			break
		}
		// The search's distance (i), not the expression's value over
		// the row (10 + i - 2), shows that it was taken, not evaluated.
		if row[0].F != float64(10+i) || row[1].F != float64(i) || row[2].F != float64(10+i-2) {
			t.Fatalf("row %d = %v", i, row)
		}
	}
	if *distCalls != 0 || *otherCalls != 5 {
		t.Fatalf("the search's distance evaluated %d times (want 0), the other expression %d (want 5)", *distCalls, *otherCalls)
	}
	if q, _ := nearestDistUnder(r, []ir.Expr{other}); q != nil {
		t.Fatal("nearestDistUnder took an expression that is not the search's own")
	}
	if q, _ := nearestDistUnder(emptyRows{}, exprs); q != nil {
		t.Fatal("nearestDistUnder took an input that is no search")
	}
}
