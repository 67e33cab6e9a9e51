package session_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

var updateOperators = flag.Bool("update-operators", false, "rewrite catalog/pgcatalog/operators_gen.go with the PostgreSQL operators zproxy binds (TestOperatorsAgainstPostgres)")

const (
	pgOperatorsFile  = "../catalog/pgcatalog/testdata/pg_operator.txt"
	operatorsGenFile = "../catalog/pgcatalog/operators_gen.go"
)

// TestOperatorsAgainstPostgres makes zproxy's pg_operator a property of
// what it binds rather than a list kept by hand. It binds every operator
// of PostgreSQL 15's pg_operator (testdata/pg_operator.txt, written by
// scripts/gen-pg-operators.sh) whose operand types zproxy has, with NULLs
// of those types (a polymorphic operand: a value of a type it stands for),
// and fails unless operators_gen.go lists exactly those that bind with
// PostgreSQL's result type. That list is zproxy's pg_operator rows, and
// the operators whose implementation functions a query may call by name
// (int4pl(1, 2), jsonb_exists(doc, 'k')), so neither can claim an
// operator zproxy lacks or miss one it has. -update-operators rewrites it.
func TestOperatorsAgainstPostgres(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TYPE zp_operand_enum AS ENUM ('a', 'b')`)
	data, err := os.ReadFile(pgOperatorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var binds []string // the rows of the operators zproxy binds, in OID order
	bound := map[string]bool{}
	tried := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := operatorRowFields(line)
		if f == nil {
			t.Fatalf("%s: bad row %q", pgOperatorsFile, line)
		}
		sqls, result, ok := operatorProbe(f)
		if !ok {
			continue
		}
		tried++
		for _, sql := range sqls {
			stmts, err := sess.Parse(ctx, sql, nil)
			if err != nil {
				continue
			}
			_, cols, err := stmts[0].Describe(ctx)
			if err != nil || len(cols) != 1 || (result != 0 && cols[0].Type.OID() != result) {
				continue
			}
			binds = append(binds, line)
			bound[f[0]] = true
			break
		}
	}
	if *updateOperators {
		writeOperatorsGen(t, binds)
		return
	}
	listed := listedOperators(t)
	for oid, line := range listed {
		if !bound[oid] {
			t.Errorf("operators_gen.go lists %s, which zproxy does not bind with PostgreSQL's result type", line)
		}
	}
	for _, line := range binds {
		if oid := operatorRowFields(line)[0]; listed[oid] == "" {
			t.Errorf("zproxy binds %s but operators_gen.go does not list it (go test ./session -run TestOperatorsAgainstPostgres -update-operators)", line)
		}
	}
	t.Logf("%d of PostgreSQL's operators are over types zproxy has; %d bind", tried, len(binds))
}

// operatorRowFields splits a pg_operator row into its 12 fields; the
// name may hold "|" (||, |/, @@@ are single names; ||/ too).
func operatorRowFields(line string) []string {
	f := strings.Split(line, "|")
	if len(f) < 12 {
		return nil
	}
	name := strings.Join(f[1:len(f)-10], "|")
	return append([]string{f[0], name}, f[len(f)-10:]...)
}

// operatorProbe is a query binding the operator of row f over operands of
// its types, written bare and as OPERATOR(pg_catalog.op), and the result
// type's OID to expect (0: a polymorphic result, not compared); ok false
// when zproxy has no type for an operand or the result.
func operatorProbe(f []string) (sqls []string, result uint32, ok bool) {
	num := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
	left, right, res := num(f[5]), num(f[6]), num(f[7])
	l, lok := operandOf(left)
	r, rok := operandOf(right)
	if !rok || (left != 0 && !lok) {
		return nil, 0, false
	}
	if t, known := sqltypes.TypeByOID(res); known {
		result = t.OID()
	} else if _, poly := polymorphicOperands[res]; !poly {
		return nil, 0, false
	}
	for _, op := range []string{f[1], "OPERATOR(pg_catalog." + f[1] + ")"} {
		if left == 0 {
			sqls = append(sqls, fmt.Sprintf("SELECT %s %s", op, r))
		} else {
			sqls = append(sqls, fmt.Sprintf("SELECT %s %s %s", l, op, r))
		}
	}
	return sqls, result, true
}

// polymorphicOperands are values of a type each polymorphic pseudo-type
// of an operator's operands stands for.
var polymorphicOperands = map[uint32]string{
	2277: "NULL::int4[]",          // anyarray
	2283: "NULL::int4",            // anyelement
	2776: "NULL::int4",            // anynonarray
	3500: "NULL::zp_operand_enum", // anyenum
	3831: "NULL::int4range",       // anyrange
	4537: "NULL::int4multirange",  // anymultirange
	// record: a record value that is not a row constructor, which
	// operators take item by item (so the record image operators, which
	// no item type has, would never bind).
	2249: "(SELECT ROW(1, 'a'::text))",
	5077: "NULL::int4",   // anycompatible
	5078: "NULL::int4[]", // anycompatiblearray
	5079: "NULL::int4",   // anycompatiblenonarray
	2276: "NULL::int4",   // "any"
}

// operandOf is an operand of the type whose OID is oid.
func operandOf(oid uint32) (string, bool) {
	if s, ok := polymorphicOperands[oid]; ok {
		return s, true
	}
	t, ok := sqltypes.TypeByOID(oid)
	if !ok || t.ID == sqltypes.Unknown {
		return "", false
	}
	return "CAST(NULL AS " + t.String() + ")", true
}

// listedOperators are operators_gen.go's rows by OID.
func listedOperators(t *testing.T) map[string]string {
	src, err := os.ReadFile(operatorsGenFile)
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(src), "const pgOperatorTable = `")
	if !ok {
		t.Fatalf("%s: no pgOperatorTable", operatorsGenFile)
	}
	body, _, _ = strings.Cut(body, "`")
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		if f := operatorRowFields(line); f != nil {
			out[f[0]] = line
		}
	}
	return out
}

// writeOperatorsGen writes rows as operators_gen.go.
func writeOperatorsGen(t *testing.T, rows []string) {
	rows = slices.Clone(rows)
	var b strings.Builder
	b.WriteString(`// Code generated by TestOperatorsAgainstPostgres (session/operators_complete_test.go,
// -update-operators) from PostgreSQL 15's pg_operator (testdata/pg_operator.txt,
// scripts/gen-pg-operators.sh): the operators zproxy binds, with PostgreSQL's
// result type, on the types it has: oid|name|kind|canmerge|canhash|left|right|
// result|commutator|negator|function OID|function. DO NOT EDIT.

package pgcatalog

// pgOperatorTable lists the operators of pg_operator.
const pgOperatorTable = ` + "`\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	b.WriteString("`\n")
	if err := os.WriteFile(operatorsGenFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d operators to %s", len(rows), operatorsGenFile)
}
