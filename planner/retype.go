package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// ALTER COLUMN ... TYPE.
//
// A change between two types whose values the store keeps alike (int4 and
// int8, varchar and text) changes only the descriptor (executor/alter.go).
// Any other, and a USING expression that is more than the column itself,
// gives every row a new value: the binder binds the conversion over the
// row as it is (AlterAction.Convert), and the table's CHECK constraints
// that read a changed column over the row as the statement leaves it
// (AlterTable.RewriteChecks), and the executor copies the table to a new
// layout (executor/retype.go), as PostgreSQL's ALTER TABLE rewrites it.

// bindColumnType binds ALTER COLUMN ... TYPE action a of table t.
func (b *Binder) bindColumnType(t *catalog.Table, a *ir.AlterAction) error {
	i := t.ColumnIndex(a.Column)
	if i < 0 || t.Columns[i].Hidden {
		return nil // the executor's error names the relation
	}
	c := t.Columns[i]
	from, to := c.Type, a.Type
	col := &ir.ColRef{Index: i, Name: c.Name, Typ: from}
	var conv ir.Expr
	if a.Using == "" {
		// Without USING, the old values must convert by an assignment
		// cast (ATPrepAlterColumnType), checked before anything else.
		if !castAllowedAssignment(from, to) {
			return pgerr.New(pgerr.DatatypeMismatch, "column %q cannot be cast automatically to type %s", a.Column, to.UnmodifiedName()).
				WithHint("You might need to specify \"USING %s::%s\".", sqltypes.QuoteIdent(a.Column), to)
		}
		if StoredAlike(from, to) {
			return b.checkKept(t, c, to)
		}
		var err error
		if conv, err = b.coerceTo(col, to, true); err != nil {
			return err
		}
	} else {
		sub, node, err := b.parseStoredExprAt(a.Using, "transform expression", a.UsingOffset)
		if err != nil {
			return err
		}
		e, err := sub.bindExpr(&scope{items: []*fromItem{tableItem(t, t.Name, 0)}}, node)
		if err != nil {
			return err
		}
		if e.Type().ID != sqltypes.Unknown && !castAllowedAssignment(e.Type(), to) {
			return pgerr.New(pgerr.DatatypeMismatch, "result of USING clause for column %q cannot be cast automatically to type %s", a.Column, to.UnmodifiedName()).
				WithHint("You might need to add an explicit cast.")
		}
		if conv, err = sub.coerceTo(e, to, true); err != nil {
			return err
		}
		if StoredAlike(from, to) && isColumnItself(conv, i, from) {
			// USING c, or c::newtype: the values are kept as they are
			// (Django writes USING "c"::varchar(200)).
			return b.checkKept(t, c, to)
		}
	}
	if err := b.checkKept(t, c, to); err != nil {
		return err
	}
	if err := rewritable(b.snap, t, c, to); err != nil {
		return err
	}
	a.Convert = conv
	return nil
}

// isColumnItself reports whether e is column i (of type from) or casts of
// it that keep every value as it is: to types stored alike, and not an
// explicit cast that could cut a value short (USING c::varchar(5) cuts
// where the assignment cast to varchar(5) would fail).
func isColumnItself(e ir.Expr, i int, from sqltypes.Type) bool {
	for {
		switch x := e.(type) {
		case *ir.ColRef:
			return x.Index == i
		case *ir.Cast:
			if !StoredAlike(from, x.To) {
				return false
			}
			if x.Explicit && x.To.Width > 0 && (from.Width == 0 || x.To.Width < from.Width) {
				return false
			}
			e = x.E
		default:
			return false
		}
	}
}

// StoredAlike reports whether a column can change from type from to type
// to without rewriting its values or keys: the two store and order values
// alike (int2/int4/int8, text/varchar, float4/float8). A narrower type
// (varchar(10) after text) is checked against the rows instead. bpchar
// pads its values, and a numeric with a scale rounds them, so both
// rewrite.
func StoredAlike(from, to sqltypes.Type) bool {
	if from.Kind() != to.Kind() {
		return false
	}
	if from.Kind() == sqltypes.KindNumeric && to.Width > 0 {
		return false
	}
	return to.ID != sqltypes.BPChar && from.ID != sqltypes.BPChar
}

// checkKept checks what PostgreSQL's ALTER COLUMN ... TYPE keeps of
// column c with its new type: its default, which converts with it, and no
// generated column or view reading it (PostgreSQL refuses those).
func (b *Binder) checkKept(t *catalog.Table, c catalog.Column, to sqltypes.Type) error {
	if err := b.checkDefaultCast(c, to); err != nil {
		return err
	}
	for _, g := range t.Columns {
		if g.Generated != "" && g.Name != c.Name && slices.Contains(exprColumnNames(g.Generated), c.Name) {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a generated column").
				WithDetail("Column %q is used by generated column %q.", c.Name, g.Name)
		}
	}
	if v := viewReadingColumn(b.snap, t, c.Name); v != "" {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
			WithDetail("rule _RETURN on %s depends on column %q", v, c.Name)
	}
	return nil
}

// checkDefaultCast checks that column c's default converts to its new
// type, as PostgreSQL converts it with the column.
func (b *Binder) checkDefaultCast(c catalog.Column, to sqltypes.Type) error {
	if c.Default == "" || c.Identity != "" {
		return nil
	}
	nc := c
	nc.Type = to
	if _, err := b.bindDefault(nc, c.Default); err != nil {
		if pgerr.CodeOf(err) == pgerr.DatatypeMismatch {
			return pgerr.New(pgerr.DatatypeMismatch, "default for column %q cannot be cast automatically to type %s", c.Name, to.UnmodifiedName())
		}
		return err
	}
	return nil
}

// rewritable refuses the rewrites zproxy does not make: of a partitioned
// table or a partition (each member would be rewritten in one change), of
// a column a foreign key holds (the other table's keys would have to
// change with it), or of a column whose Z-order addresses or gin tokens
// the index computes from the type.
func rewritable(s *catalog.Snapshot, t *catalog.Table, c catalog.Column, to sqltypes.Type) error {
	refuse := func(why string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot change column %q from %s to %s: %s", c.Name, c.Type, to, why).
			WithHint("Add a new column of the new type, UPDATE it from the old one, and drop the old one.")
	}
	if t.IsPartitioned() || t.IsPartition() {
		return refuse("rewriting the rows of a partitioned table or a partition is not supported")
	}
	i := t.ColumnIndex(c.Name)
	for _, fk := range t.ForeignKeys {
		if slices.Contains(fk.Columns, i) {
			return refuse(fmt.Sprintf("it is a column of foreign key %q", fk.Name))
		}
	}
	for _, r := range s.ReferencedBy(t.Name) {
		if slices.Contains(r.FK.RefColumns, i) {
			return refuse(fmt.Sprintf("foreign key %q of table %q references it", r.FK.Name, r.Child.Name))
		}
	}
	if ix := t.TypeShapedIndex(i); ix != nil {
		return refuse(typeShapedWhy(ix))
	}
	if t.TTL != nil && t.TTL.Column == c.Name {
		return refuse("the table's rows expire by it (ttl_column)")
	}
	return nil
}

// rewriteActions are the actions an ALTER TABLE that rewrites the rows may
// carry with its type changes: those that change only the columns'
// descriptors, which the rewritten table takes (Rails' change_column sends
// TYPE, SET DEFAULT and SET/DROP NOT NULL in one statement).
var rewriteActions = map[parser.AlterKind]bool{
	parser.AlterColumnType:  true,
	parser.AlterSetDefault:  true,
	parser.AlterDropDefault: true,
	parser.AlterSetNotNull:  true,
	parser.AlterDropNotNull: true,
}

// bindRewrite completes an ALTER TABLE that rewrites t's rows: it may carry
// only rewriteActions, and it binds the CHECK constraints that read a
// column whose type changes over the row as the statement leaves it
// (AlterTable.RewriteChecks): PostgreSQL parses them again for the new
// types (an operator that no longer applies fails the statement) and
// checks every rewritten row.
func (b *Binder) bindRewrite(t *catalog.Table, at *ir.AlterTable) error {
	for _, a := range at.Actions {
		if !rewriteActions[a.Kind] {
			name := alterActionNames[a.Kind]
			if name == "" {
				name = "this action"
			}
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE cannot combine %s with a column type change that rewrites the table", name).
				WithHint("Run the type change as an ALTER TABLE of its own.")
		}
	}
	future := t.Clone()
	changed := map[int]bool{}
	for _, a := range at.Actions {
		if a.Kind != parser.AlterColumnType {
			continue
		}
		if i := future.ColumnIndex(a.Column); i >= 0 {
			future.Columns[i].Type = a.Type
			changed[i] = true
		}
	}
	for _, ch := range t.Checks {
		e, cols, err := b.bindCheck(future, ch.SQL)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(cols, func(c int) bool { return changed[c] }) {
			at.RewriteChecks = append(at.RewriteChecks, ir.BoundCheck{Name: ch.Name, Expr: e})
		}
	}
	slices.SortFunc(at.RewriteChecks, func(x, y ir.BoundCheck) int { return strings.Compare(x.Name, y.Name) })
	return nil
}

// viewReadingColumn names the stored or materialized view of snap that
// reads column col of t (by name, or through *) as PostgreSQL's DETAIL
// names its rule's relation, or returns "".
func viewReadingColumn(s *catalog.Snapshot, t *catalog.Table, col string) string {
	for _, d := range s.DependentsOf(t.Name) {
		text, kind := "", "view"
		if d.Matview != nil {
			text, kind = d.Matview.Matview.SQL, "materialized view"
		} else if v, ok := s.StoredView(d.Name); ok {
			text = v.SQL
		}
		stmts, err := parser.Parse(text)
		if err != nil || len(stmts) != 1 || stmts[0].AST == nil {
			return kind + " " + d.Name // unreadable: assume it does
		}
		var f columnNameFinder
		stmts[0].AST.Accept(&f)
		if f.star || slices.Contains(f.names, col) {
			return kind + " " + d.Name
		}
	}
	return ""
}

// exprColumnNames lists the column names an expression's text refers to.
func exprColumnNames(text string) []string {
	_, node, err := parser.ParseExpression(text)
	if err != nil {
		return nil
	}
	var f columnNameFinder
	node.Accept(&f)
	return f.names
}

// columnNameFinder collects the column names an AST refers to, and
// whether it selects *.
type columnNameFinder struct {
	names []string
	star  bool
}

func (v *columnNameFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		v.names = append(v.names, x.Name.Name.O)
	case *ast.SelectField:
		if x.WildCard != nil {
			v.star = true
		}
	}
	return n, false
}

func (v *columnNameFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// typeShapedWhy says why a column of catalog.Table.TypeShapedIndex ix
// cannot change type.
func typeShapedWhy(ix *catalog.Index) string {
	if ix.Inverted() {
		return fmt.Sprintf("gin index %q computes its tokens from it", ix.Name)
	}
	return fmt.Sprintf("it is an attribute of Z-order index %q", ix.Name)
}
