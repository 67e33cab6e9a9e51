package parser

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// TestNotOperands checks the parentheses put around a prefix NOT that is
// an operator's right operand: its operand reaches over every operator
// that binds tighter than NOT, up to AND, OR, a comma or a clause's word.
func TestNotOperands(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{"SELECT true = NOT false", "select true = (not false)"},
		{"SELECT a = NOT b = NOT c OR d", "select a = (not b = (not c)) or d"},
		{"SELECT a = NOT b IS NULL AND c", "select a = (not b is null) and c"},
		{"SELECT a = NOT b x FROM t", "select a = (not b) x from t"},
		{"SELECT a <> NOT NOT b, f(a = NOT b)", "select a <> (not not b), f(a = (not b))"},
		{"SELECT NOT a = b AND NOT c", "select not a = b and not c"},
	} {
		sts, err := Parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got := sts[0].SQL; got != c.want {
			t.Errorf("%s: TiDB text %q, want %q", c.sql, got, c.want)
		}
	}
}

// TestParseLinearInNotOperands checks that following the NOT operands
// costs no more than the statement's length.
func TestParseLinearInNotOperands(t *testing.T) {
	if testing.Short() {
		t.Skip("parses statements of 8,000 NOT operands")
	}
	statement := func(n int) string {
		var b strings.Builder
		b.WriteString("SELECT a FROM t WHERE ")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(" OR ")
			}
			fmt.Fprintf(&b, "a = NOT b = NOT c%d IS NULL", i)
		}
		return b.String()
	}
	best := func(sql string) time.Duration {
		least := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			if _, err := Parse(sql); err != nil {
				t.Fatal(err)
			}
			least = min(least, time.Since(start))
		}
		return least
	}
	small, large := best(statement(500)), best(statement(8000))
	t.Logf("500 terms %v, 8,000 terms %v (%.1fx)", small, large, float64(large)/float64(small))
	if large > 64*small {
		t.Errorf("16 times the NOT operands took %.0f times as long to parse (%v, %v): not linear", float64(large)/float64(small), small, large)
	}
}
