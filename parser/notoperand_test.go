package parser

import (
	"fmt"
	"strings"
	"testing"
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
	parsesLinearly(t, "NOT operands", statement)
}

// TestDistinctFromNotChainsParseLinearly: a chain of IS DISTINCT FROM NOT
// nests each NOT's operand in the one before it (x IS DISTINCT FROM NOT
// (y IS DISTINCT FROM NOT (z ...))); finding each operand's end must not
// walk the rest of the chain again.
func TestDistinctFromNotChainsParseLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("parses statements of 16,000 IS DISTINCT FROM NOT operands")
	}
	statement := func(n int) string {
		var b strings.Builder
		b.WriteString("SELECT a")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " IS DISTINCT FROM NOT c%d", i)
		}
		return b.String() + " FROM t"
	}
	parsesLinearly(t, "IS DISTINCT FROM NOT operands", statement)
}
