package ir

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestDeparseModes checks ruleutils' parenthesization in both modes on
// trees built directly (e2e/clients' TestDeparseGolden checks bound
// definitions against PostgreSQL's own output).
func TestDeparseModes(t *testing.T) {
	i4 := sqltypes.Type{ID: sqltypes.Int4}
	num := sqltypes.Type{ID: sqltypes.Numeric}
	col := func(name string, typ sqltypes.Type) Expr { return &ColRef{Name: name, Typ: typ} }
	c := func(n int64) Expr { return &Const{V: sqltypes.NewInt(n), Typ: i4} }
	bin := func(op BinOp, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r, Typ: i4} }
	a, b, x := col("a", i4), col("b", i4), col("x", num)
	tests := []struct {
		name          string
		e             Expr
		plain, pretty string
	}{
		{"comparison", bin(OpGt, a, c(0)), "(a > 0)", "a > 0"},
		{"left same priority", bin(OpSub, bin(OpSub, a, b), c(1)), "((a - b) - 1)", "a - b - 1"},
		{"right same priority", bin(OpSub, a, bin(OpSub, b, c(1))), "(a - (b - 1))", "a - (b - 1)"},
		{"higher priority inside", bin(OpAdd, a, bin(OpMul, b, c(2))), "(a + (b * 2))", "a + b * 2"},
		{"lower priority inside", bin(OpMul, a, bin(OpAdd, b, c(2))), "(a * (b + 2))", "a * (b + 2)"},
		{"arithmetic in comparison", bin(OpGt, bin(OpAdd, a, b), c(0)), "((a + b) > 0)", "(a + b) > 0"},
		{"and of comparisons", bin(OpAnd, bin(OpGt, a, c(0)), bin(OpLt, b, c(9))), "((a > 0) AND (b < 9))", "a > 0 AND b < 9"},
		{"or inside and", bin(OpAnd, bin(OpOr, bin(OpGt, a, c(0)), bin(OpGt, b, c(0))), bin(OpLt, b, c(9))),
			"(((a > 0) OR (b > 0)) AND (b < 9))", "(a > 0 OR b > 0) AND b < 9"},
		{"not of and", &Not{E: bin(OpAnd, bin(OpGt, a, c(0)), bin(OpGt, b, c(0)))}, "(NOT ((a > 0) AND (b > 0)))", "NOT (a > 0 AND b > 0)"},
		{"negative constant", bin(OpGe, a, c(-5)), "(a >= '-5'::integer)", "a >= '-5'::integer"},
		{"integer beside numeric", bin(OpGe, x, c(0)), "(x >= (0)::numeric)", "x >= 0::numeric"},
		{"is null in and", bin(OpAnd, &IsNull{E: a}, &IsNull{E: b, Neg: true}), "((a IS NULL) AND (b IS NOT NULL))", "a IS NULL AND b IS NOT NULL"},
		{"unary minus", bin(OpGt, a, &Neg{E: bin(OpSub, b, c(1))}), "(a > (- (b - 1)))", "a > (- (b - 1))"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []struct {
				pretty bool
				want   string
			}{{false, tc.plain}, {true, tc.pretty}} {
				got, ok := DeparseMode(tc.e, m.pretty)
				if !ok || got != m.want {
					t.Errorf("pretty=%v: got %q (ok %v), want %q", m.pretty, got, ok, m.want)
				}
			}
		})
	}
}
