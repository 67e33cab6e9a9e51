package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Exclusion constraints (EXCLUDE USING method (column WITH op, ...)
// [WHERE (pred)]) are checked as PostgreSQL's DefineIndex checks them:
// the access method must have an operator class for each column's type
// (gist has range_ops for ranges and multiranges, and btree_gist's classes
// for the scalar types, btree_gist being built in), the operator must be
// commutative and a member of that class's family. The constraint's index
// is a btree over the columns, equality elements first
// (catalog.Exclusion).

// exclusionMarker reports which exclusion constraint a table constraint is
// the rewriter's placeholder of (parser.ExcludeMarker), or -1.
func exclusionMarker(c *ast.Constraint) int {
	if c.Tp != ast.ConstraintCheck {
		return -1
	}
	call, ok := c.Expr.(*ast.FuncCallExpr)
	if !ok || call.FnName.L != parser.ExcludeMarker || len(call.Args) != 1 {
		return -1
	}
	v, ok := call.Args[0].(*driver.ValueExpr)
	if !ok {
		return -1
	}
	return int(v.GetInt64())
}

// exclusionIndex builds the index of exclusion constraint n of the
// statement (named name, "" for the default name) over table t.
func (b *Binder) exclusionIndex(t *catalog.Table, name string, n int) (*catalog.Index, error) {
	cs := b.stmt.Constraints
	if cs == nil || n < 0 || n >= len(cs.Excludes) {
		return nil, pgerr.New(pgerr.InternalError, "exclusion constraint %d was not lifted", n)
	}
	syn := cs.Excludes[n]
	method := strings.ToLower(syn.Method)
	switch method {
	case "gist", "btree", "hash":
	case "brin", "gin":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support exclusion constraints", method)
	case "spgist":
		return nil, unsupported("exclusion constraints using spgist are not supported")
	default:
		return nil, pgerr.New(pgerr.UndefinedObject, "access method %q does not exist", method)
	}
	x := &catalog.Exclusion{Method: method, Deferrable: syn.Deferral != "", InitiallyDeferred: syn.Deferral == parser.InitiallyDeferred}
	ix := &catalog.Index{Kind: catalog.KindBTree, Shards: t.Shards, Constraint: true, Exclusion: x}
	var colNames []string
	keys := make([]catalog.KeyColumn, len(syn.Elements))
	for i, el := range syn.Elements {
		var typ sqltypes.Type
		if el.Expr {
			e, err := b.bindIndexExpr(t, el.SQL, false)
			if err != nil {
				return nil, err
			}
			typ = e.Type()
			keys[i] = catalog.KeyColumn{Column: -1, Expr: b.storedIndexText(t, e, el.SQL, false), ExprType: &typ}
			for _, c := range ir.Columns(e) {
				if !slices.Contains(ix.ExprColumns, c) {
					ix.ExprColumns = append(ix.ExprColumns, c)
				}
			}
			colNames = append(colNames, catalog.ExprAttName(keys[i].Expr))
		} else {
			col := t.ColumnIndex(el.SQL)
			if col < 0 || t.Columns[col].Hidden {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q named in key does not exist", el.SQL)
			}
			typ = t.Columns[col].Type
			keys[i] = catalog.KeyColumn{Column: col}
			colNames = append(colNames, t.Columns[col].Name)
		}
		if err := exclusionOpclass(method, typ); err != nil {
			return nil, err
		}
		if _, err := b.exclusionOp(el.Op, typ); err != nil {
			return nil, err
		}
		if err := exclusionMember(method, el.Op, typ); err != nil {
			return nil, err
		}
		if err := catalog.CheckKeyType(typ, catalog.KindBTree); err != nil {
			return nil, err
		}
		x.Elements = append(x.Elements, catalog.ExclusionElement{Column: keys[i].Column, Op: el.Op})
	}
	switch {
	case name == "":
		name = chooseName(t.BareName()+"_"+strings.Join(colNames, "_"), "excl", b.nameTaken(t, true))
	case t.Index(name) != nil || b.snap.HasRelation(name) || name == t.Name:
		return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	case b.nameTaken(t, true)(name):
		return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, t.Name)
	}
	ix.Name = name
	// Equality elements lead, so a row's candidates are one key prefix; a
	// column named twice is one key part.
	for pass := 0; pass < 2; pass++ {
		for i := range x.Elements {
			el := &x.Elements[i]
			if el.IsEquality() != (pass == 0) {
				continue
			}
			el.Key = len(ix.Columns)
			for j, k := range ix.Columns {
				if k.Column >= 0 && k.Column == keys[i].Column {
					el.Key = j
				}
			}
			if el.Key == len(ix.Columns) {
				ix.Columns = append(ix.Columns, keys[i])
			}
		}
	}
	// A row's candidates share its equality values: placed by them, they
	// are in one shard (one request on DynamoDB); without equality
	// elements every row is a candidate, in one shard too.
	// (Shard columns are columns: an expression ends them.)
	lead := 0
	for lead < len(ix.Columns) && leadsEquality(x, lead) && ix.Columns[lead].Column >= 0 {
		lead++
	}
	switch {
	case lead > 0:
		ix.ShardColumns = lead
	case !leadsEquality(x, 0):
		ix.Shards = 1
	}
	if syn.Where != "" {
		e, err := b.bindIndexExpr(t, syn.Where, true)
		if err != nil {
			return nil, err
		}
		ix.Predicate = b.storedIndexText(t, e, syn.Where, true)
	}
	return ix, nil
}

// leadsEquality reports whether key part i of the exclusion index is an
// equality element's.
func leadsEquality(x *catalog.Exclusion, i int) bool {
	for _, el := range x.Elements {
		if el.Key == i && el.IsEquality() {
			return true
		}
	}
	return false
}

// btreeGistTypes are the scalar types btree_gist gives a gist operator
// class (zproxy has btree_gist built in).
var btreeGistTypes = map[sqltypes.TypeID]bool{
	sqltypes.Int2: true, sqltypes.Int4: true, sqltypes.Int8: true, sqltypes.Float4: true, sqltypes.Float8: true,
	sqltypes.Numeric: true, sqltypes.Text: true, sqltypes.Varchar: true, sqltypes.Char: true, sqltypes.Bytea: true,
	sqltypes.Bool: true, sqltypes.Date: true, sqltypes.Time: true, sqltypes.TimeTZ: true, sqltypes.Timestamp: true,
	sqltypes.TimestampTZ: true, sqltypes.Interval: true, sqltypes.Oid: true, sqltypes.UUID: true,
	sqltypes.Inet: true, sqltypes.Cidr: true, sqltypes.MacAddr: true, sqltypes.MacAddr8: true,
	sqltypes.Bit: true, sqltypes.VarBit: true, sqltypes.Money: true, sqltypes.Enum: true,
}

func isRangeType(t sqltypes.Type) bool {
	return t.Kind() == sqltypes.KindRange || t.Kind() == sqltypes.KindMultirange
}

// exclusionOpclass refuses a column type the access method has no default
// operator class for (42704, as ResolveOpClass).
func exclusionOpclass(method string, t sqltypes.Type) error {
	ok := false
	switch method {
	case "gist":
		ok = isRangeType(t) || btreeGistTypes[t.ID]
	default:
		ok = catalog.CheckKeyType(t, catalog.KindBTree) == nil
	}
	if !ok {
		return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t, method).
			WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
	}
	return nil
}

// commutativeOps are the operators that are their own commutator among
// those an exclusion constraint's operator classes hold.
var commutativeOps = map[string]bool{"=": true, "<>": true, "&&": true, "-|-": true, "~=": true}

// exclusionOp binds element operator op between two values of type t,
// over a row holding the new row's value then the other row's; it refuses
// an operator that is not commutative (42809, as ComputeIndexAttrs).
func (b *Binder) exclusionOp(op string, t sqltypes.Type) (ir.Expr, error) {
	l := &ir.ColRef{Index: 0, Name: "new", Typ: t}
	r := &ir.ColRef{Index: 1, Name: "old", Typ: t}
	e, err := b.bindInfixOp(op, l, r)
	if err != nil {
		return nil, err
	}
	if e.Type().ID != sqltypes.Bool {
		return nil, pgerr.New(pgerr.WrongObjectType, "operator %s(%s,%s) is not a member of operator family", op, opArgName(t), opArgName(t))
	}
	if !commutativeOps[op] {
		return nil, pgerr.New(pgerr.WrongObjectType, "operator %s(%s,%s) is not commutative", op, opArgName(t), opArgName(t)).
			WithDetail("Only commutative operators can be used in exclusion constraints.")
	}
	return e, nil
}

// bindInfixOp binds l op r for any infix operator spelling.
func (b *Binder) bindInfixOp(op string, l, r ir.Expr) (ir.Expr, error) {
	if geoOperand(l) || geoOperand(r) {
		return b.bindRegisteredOp(op, l, r)
	}
	for _, typed := range typedOps[op] {
		if e, ok, err := typed(b, l, r); ok {
			return e, err
		}
	}
	if bind, ok := otherOps[op]; ok {
		return bind(b, l, r)
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=", "@>", "<@", "&&", "&", "|", "#", "<<", ">>", "<<=", ">>=",
		"~", "~*", "!~", "!~*", "~~", "~~*", "!~~", "!~~*", "^@":
		return b.bindOperator(op, l, r)
	}
	if _, ok := recordImageOps[op]; ok {
		return b.bindRecordImageValues(op, l, r)
	}
	return b.bindRegisteredOp(op, l, r)
}

// opArgName is how PostgreSQL names an operator's argument type of t in
// its messages: the polymorphic anyrange for the range operators.
func opArgName(t sqltypes.Type) string {
	switch t.Kind() {
	case sqltypes.KindRange:
		return "anyrange"
	case sqltypes.KindMultirange:
		return "anymultirange"
	}
	return t.String()
}

// exclusionMember refuses an operator outside the operator family of the
// column's default class for the method (42809).
func exclusionMember(method, op string, t sqltypes.Type) error {
	ok := false
	family := ""
	switch {
	case method == "gist" && isRangeType(t):
		ok = op == "&&" || op == "=" || op == "-|-"
		family = "range_ops"
		if t.Kind() == sqltypes.KindMultirange {
			family = "multirange_ops"
		}
	case method == "gist":
		ok = op == "=" || op == "<>"
		family = "gist_" + btreeFamily(t) + "_ops"
	default:
		ok = op == "="
		family = btreeFamily(t) + "_ops"
	}
	if !ok {
		return pgerr.New(pgerr.WrongObjectType, "operator %s(%s,%s) is not a member of operator family %q", op, opArgName(t), opArgName(t), family).
			WithDetail("The exclusion operator must be related to the index operator class for the constraint.")
	}
	return nil
}

// btreeFamily names the btree operator family of t's default class,
// without its _ops suffix.
func btreeFamily(t sqltypes.Type) string {
	switch t.ID {
	case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8:
		return "integer"
	case sqltypes.Float4, sqltypes.Float8:
		return "float"
	case sqltypes.Text, sqltypes.Varchar:
		return "text"
	case sqltypes.Char:
		return "bpchar"
	case sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Date:
		return "datetime"
	}
	switch t.Kind() {
	case sqltypes.KindRange:
		return "range"
	case sqltypes.KindMultirange:
		return "multirange"
	}
	name := t.String()
	if i := strings.IndexAny(name, "( "); i >= 0 {
		name = name[:i]
	}
	return name
}

// bindExclusions binds the operators of t's exclusion constraints for a
// write's checks.
func (b *Binder) bindExclusions(t *catalog.Table) ([]ir.BoundExclusion, error) {
	var out []ir.BoundExclusion
	for _, ix := range t.Indexes {
		if ix.Exclusion == nil {
			continue
		}
		bx, err := b.bindExclusion(t, ix)
		if err != nil {
			return nil, err
		}
		out = append(out, bx)
	}
	return out, nil
}

// bindExclusion binds one exclusion constraint's operators.
func (b *Binder) bindExclusion(t *catalog.Table, ix *catalog.Index) (ir.BoundExclusion, error) {
	bx := ir.BoundExclusion{Index: ix}
	for _, el := range ix.Exclusion.Elements {
		e, err := b.exclusionOp(el.Op, t.KeyType(ix.Columns[el.Key]))
		if err != nil {
			return bx, fmt.Errorf("exclusion constraint %q: %w", ix.Name, err)
		}
		bx.Ops = append(bx.Ops, e)
	}
	return bx, nil
}
