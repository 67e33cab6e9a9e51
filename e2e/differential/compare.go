package differential

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// result is what one server returned for one statement, values in their
// text form (the simple query protocol), nil for NULL.
type result struct {
	err  error
	code string // SQLSTATE when err is a server error
	cols []string
	oids []uint32
	rows [][]*string
	tag  string
	dur  time.Duration
}

func (r result) failed() bool { return r.err != nil }

// lost reports an error that is not a server's answer: a broken connection,
// a timeout.
func (r result) lost() bool { return r.err != nil && r.code == "" }

// maxResultRows bounds what is read of one result; a statement that
// returns more is cut short on both sides alike (and compared as cut).
const maxResultRows = 20000

// run executes sql on conn in the simple protocol.
func run(ctx context.Context, conn *pgx.Conn, sql string, timeout time.Duration) (res result) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	defer func() { res.dur = time.Since(start) }()
	rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return withErr(res, err)
	}
	for _, fd := range rows.FieldDescriptions() {
		res.cols = append(res.cols, fd.Name)
		res.oids = append(res.oids, fd.DataTypeOID)
	}
	for rows.Next() {
		raw := rows.RawValues()
		row := make([]*string, len(raw))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		if len(res.rows) < maxResultRows {
			res.rows = append(res.rows, row)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return withErr(res, err)
	}
	res.tag = rows.CommandTag().String()
	return res
}

func withErr(res result, err error) result {
	res.err = err
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		res.code = pe.Code
	}
	return res
}

// mismatch is one way two results differ.
type mismatch struct {
	kind   string
	detail string
}

// Mismatch kinds. The informational ones are counted and reported but do
// not fail a campaign.
const (
	mError      = "error"         // one side failed
	mSQLState   = "sqlstate"      // both failed, different SQLSTATE class
	mColumns    = "columns"       // different number of columns
	mNames      = "names"         // different column names
	mTypes      = "types"         // different column types
	mRows       = "rows"          // different rows
	mTag        = "tag"           // different command tag (rows affected)
	mTable      = "table"         // a write left the table different
	mLost       = "lost"          // the connection to zproxy broke (it died, most likely)
	mTimeout    = "timeout"       // zproxy took longer than the timeout; PostgreSQL did not
	iCode       = "i:sqlstate"    // same class, another code in it
	iPGLimited  = "i:pg-0A000"    // PostgreSQL does not support what zproxy ran
	iErrorOrder = "i:error-order" // both hit a data error, not the same one first
)

func informational(kind string) bool { return strings.HasPrefix(kind, "i:") }

// runtimeError: the SQLSTATE is about a value (cardinality 21, data 22,
// integrity 23), which depends on which row is processed first.
func runtimeError(code string) bool {
	return strings.HasPrefix(code, "21") || strings.HasPrefix(code, "22") || strings.HasPrefix(code, "23")
}

// orderSpec says how rows are compared: keys are 0-based output positions
// of a positional ORDER BY (empty: as multisets).
type orderSpec struct{ keys []int }

// orderOf is the comparison order of a query: its ORDER BY when every key
// is an output position, else none.
func orderOf(q query) orderSpec {
	var items []orderItem
	switch q := q.(type) {
	case *selectStmt:
		items = q.orderBy
	case *setStmt:
		items = q.orderBy
	}
	var spec orderSpec
	for _, o := range items {
		if o.e != nil {
			return orderSpec{}
		}
		spec.keys = append(spec.keys, o.pos-1)
	}
	return spec
}

// compareResults lists how zp differs from pg, PostgreSQL being right.
func compareResults(pg, zp result, order orderSpec) []mismatch {
	switch {
	case pg.failed() && zp.failed():
		if pg.code == zp.code {
			return nil
		}
		if len(pg.code) == 5 && len(zp.code) == 5 && pg.code[:2] == zp.code[:2] {
			return []mismatch{{iCode, fmt.Sprintf("PostgreSQL %s, zproxy %s (%v)", pg.code, zp.code, zp.err)}}
		}
		if runtimeError(pg.code) && runtimeError(zp.code) {
			// Both hit a data error, each on the row it came to first:
			// SQL leaves the order of rows (and so which error) open.
			return []mismatch{{iErrorOrder, fmt.Sprintf("PostgreSQL %s (%v), zproxy %s (%v)", pg.code, pg.err, zp.code, zp.err)}}
		}
		return []mismatch{{mSQLState, fmt.Sprintf("PostgreSQL %s (%v), zproxy %s (%v)", pg.code, pg.err, zp.code, zp.err)}}
	case pg.failed():
		if pg.code == pgerr.FeatureNotSupported.String() {
			return []mismatch{{iPGLimited, pg.err.Error()}}
		}
		return []mismatch{{mError, fmt.Sprintf("PostgreSQL failed: %v; zproxy succeeded", pg.err)}}
	case zp.failed():
		return []mismatch{{mError, fmt.Sprintf("zproxy failed: %v", zp.err)}}
	}
	var out []mismatch
	if len(pg.cols) != len(zp.cols) {
		return []mismatch{{mColumns, fmt.Sprintf("PostgreSQL %d columns %v, zproxy %d %v", len(pg.cols), pg.cols, len(zp.cols), zp.cols)}}
	}
	if !slices.Equal(pg.cols, zp.cols) {
		out = append(out, mismatch{mNames, fmt.Sprintf("PostgreSQL %v, zproxy %v", pg.cols, zp.cols)})
	}
	if !slices.Equal(pg.oids, zp.oids) {
		out = append(out, mismatch{mTypes, fmt.Sprintf("PostgreSQL %v, zproxy %v", typeNames(pg.oids), typeNames(zp.oids))})
	}
	numeric := make([]bool, len(pg.oids))
	for i := range pg.oids {
		numeric[i] = isFloatOID(pg.oids[i]) || isFloatOID(zp.oids[i])
	}
	if d := compareRows(pg.rows, zp.rows, numeric, order); d != "" {
		out = append(out, mismatch{mRows, d})
	}
	return out
}

func isFloatOID(oid uint32) bool { return oid == 700 || oid == 701 || oid == 1700 }

var oidNames = map[uint32]string{16: "boolean", 20: "bigint", 21: "smallint", 23: "integer", 25: "text",
	700: "real", 701: "double precision", 1043: "varchar", 1082: "date", 1114: "timestamp",
	1184: "timestamptz", 1700: "numeric", 705: "unknown", 1042: "char", 19: "name", 26: "oid", enumOIDMark: enumName}

func typeNames(oids []uint32) []string {
	var out []string
	for _, o := range oids {
		if n, ok := oidNames[o]; ok {
			out = append(out, n)
		} else {
			out = append(out, strconv.Itoa(int(o)))
		}
	}
	return out
}

// relTolerance is how far apart two floats may be and still be equal:
// sums and averages come out of a different order of additions.
const relTolerance = 1e-9

func valueEqual(a, b *string, numeric bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if *a == *b {
		return true
	}
	if !numeric {
		return false
	}
	x, err1 := strconv.ParseFloat(*a, 64)
	y, err2 := strconv.ParseFloat(*b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if x == y {
		return true // also -0 and 0
	}
	return math.Abs(x-y) <= relTolerance*math.Max(math.Abs(x), math.Abs(y))
}

// canon is a row's sort key for matching: floats rounded well inside the
// tolerance, NULL distinct from every string.
func canon(row []*string, numeric []bool, cols []int) string {
	var b strings.Builder
	for _, i := range cols {
		v := row[i]
		switch {
		case v == nil:
			b.WriteString("\x00N")
		case numeric[i]:
			if f, err := strconv.ParseFloat(*v, 64); err == nil {
				if f == 0 {
					f = 0 // -0
				}
				b.WriteString(strconv.FormatFloat(f, 'g', 10, 64))
				break
			}
			b.WriteString(*v)
		default:
			b.WriteString(*v)
		}
		b.WriteString("\x00")
	}
	return b.String()
}

func allCols(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// compareRows compares rows as multisets, or, with ORDER BY keys, as
// sequences of runs of equal keys (the rows inside a run may come in any
// order; with every column a key, that is a sequence). An empty string
// means equal.
func compareRows(pg, zp [][]*string, numeric []bool, order orderSpec) string {
	if len(pg) != len(zp) {
		return fmt.Sprintf("PostgreSQL %d rows, zproxy %d rows", len(pg), len(zp))
	}
	if len(pg) == 0 {
		return ""
	}
	n := len(pg[0])
	all := allCols(n)
	if len(order.keys) == 0 {
		if !sameMultiset(pg, zp, numeric, all) {
			return "different rows (compared as multisets)"
		}
		return ""
	}
	for start := 0; start < len(pg); {
		key := canon(pg[start], numeric, order.keys)
		end := start + 1
		for end < len(pg) && canon(pg[end], numeric, order.keys) == key {
			end++
		}
		for i := start; i < end; i++ {
			if canon(zp[i], numeric, order.keys) != key {
				return fmt.Sprintf("row %d: ORDER BY keys differ (ORDER BY positions %v)", i+1, plus1(order.keys))
			}
		}
		if !sameMultiset(pg[start:end], zp[start:end], numeric, all) {
			return fmt.Sprintf("rows %d-%d (equal ORDER BY keys) differ", start+1, end)
		}
		start = end
	}
	return ""
}

func plus1(keys []int) []int {
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = k + 1
	}
	return out
}

func sameMultiset(a, b [][]*string, numeric []bool, cols []int) bool {
	sa, sb := sortedCopy(a, numeric, cols), sortedCopy(b, numeric, cols)
	for i := range sa {
		for j := range sa[i] {
			if !valueEqual(sa[i][j], sb[i][j], numeric[j]) {
				return false
			}
		}
	}
	return true
}

// sortedCopy sorts rows by cols: NULL first, numeric columns by value,
// the others by text. Sorting by value, not by a rounded text, pairs
// values that are equal within the tolerance even when they are large.
func sortedCopy(rows [][]*string, numeric []bool, cols []int) [][]*string {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(x, y []*string) int {
		for _, i := range cols {
			if c := compareValues(x[i], y[i], numeric[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

func compareValues(a, b *string, numeric bool) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	if numeric {
		x, err1 := strconv.ParseFloat(*a, 64)
		y, err2 := strconv.ParseFloat(*b, 64)
		if err1 == nil && err2 == nil {
			return cmp.Compare(x, y)
		}
	}
	return strings.Compare(*a, *b)
}

// formatResult renders a result for a report, at most limit rows.
func formatResult(r result, limit int) string {
	if r.err != nil {
		if r.code != "" {
			return fmt.Sprintf("ERROR %s: %v", r.code, r.err)
		}
		return fmt.Sprintf("ERROR: %v", r.err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s  [%s]", strings.Join(r.cols, " | "), strings.Join(typeNames(r.oids), ", "))
	for i, row := range r.rows {
		if i == limit {
			fmt.Fprintf(&b, "\n... %d rows in all", len(r.rows))
			break
		}
		b.WriteString("\n")
		for j, v := range row {
			if j > 0 {
				b.WriteString(" | ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.WriteString(strconv.Quote(*v)[1 : len(strconv.Quote(*v))-1])
			}
		}
	}
	if r.tag != "" {
		b.WriteString("\n(" + r.tag + ")")
	}
	return b.String()
}
