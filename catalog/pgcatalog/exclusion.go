package pgcatalog

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Exclusion constraints in the catalogs: pg_constraint's contype 'x' row
// (conexclop, conindid), pg_get_constraintdef's EXCLUDE clause, and the
// index as PostgreSQL's (the declared access method, indisexclusion,
// indimmediate false for a deferrable one).

// exclusionOpArg is the operand type an exclusion operator is declared on
// for a column of type t: the polymorphic range operators' anyrange and
// anymultirange, text for varchar.
func exclusionOpArg(t sqltypes.Type) uint32 {
	switch {
	case t.Kind() == sqltypes.KindRange:
		return 3831
	case t.Kind() == sqltypes.KindMultirange:
		return 4537
	case t.ID == sqltypes.Varchar:
		return sqltypes.TypeText.OID()
	}
	return t.OID()
}

// exclusionOperators are conexclop: each element's operator OID (0 when
// pg_operator has none of that name on the column's type).
func exclusionOperators(t *catalog.Table, ix *catalog.Index) []int64 {
	x := ix.Exclusion
	out := make([]int64, len(x.Elements))
	for i, el := range x.Elements {
		arg := strconv.FormatUint(uint64(exclusionOpArg(t.KeyType(ix.Columns[el.Key]))), 10)
		for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
			f := operatorFields(line)
			if f != nil && f[1] == el.Op && f[2] == "b" && f[5] == arg && f[6] == arg {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				out[i] = n
				break
			}
		}
	}
	return out
}

// exclusionRow is the pg_constraint row of the exclusion constraint of ix.
func exclusionRow(t *catalog.Table, ix *catalog.Index, rel uint32) *pgConstraintRow {
	var keys []int64
	for _, c := range ix.Exclusion.ExclusionColumns() {
		if c < 0 {
			keys = append(keys, 0) // an expression, as in indkey
			continue
		}
		keys = append(keys, int64(attnum(t, c)))
	}
	r := constraintRow(ObjectOID(ix.ID, slotPKey), ix.Name, 'x', rel, ObjectOID(ix.ID, 0), keys, "")
	r.Condeferrable, r.Condeferred = boolV(ix.Exclusion.Deferrable), boolV(ix.Exclusion.InitiallyDeferred)
	var ops []sqltypes.Value
	for _, op := range exclusionOperators(t, ix) {
		ops = append(ops, oidV(uint32(op)))
	}
	r.Conexclop = sqltypes.NewArray1(sqltypes.Type{ID: sqltypes.Oid}, ops)
	return r
}

// exclusionDef is pg_get_constraintdef of an exclusion constraint; pred
// prints a stored expression (deparsed as the session shows it): the
// elements' and the predicate.
func exclusionDef(t *catalog.Table, ix *catalog.Index, pred func(string) string) string {
	var elems []string
	for _, el := range ix.Exclusion.Elements {
		k := ix.Columns[el.Key]
		def := t.KeyDef(k)
		if k.Column < 0 {
			def = catalog.IndexKeyDef(pred(k.Expr))
		}
		elems = append(elems, def+" WITH "+el.Op)
	}
	s := "EXCLUDE USING " + ix.Exclusion.Method + " (" + strings.Join(elems, ", ") + ")"
	if ix.Predicate != "" {
		s += " WHERE (" + pred(ix.Predicate) + ")"
	}
	return s + deferralClause(ix.Exclusion.Deferrable, ix.Exclusion.InitiallyDeferred)
}

// exclusionAm is the pg_am OID of an exclusion constraint's method.
func exclusionAm(method string) uint32 {
	switch method {
	case "gist":
		return AmGist
	case "hash":
		return AmHash
	}
	return AmBtree
}
