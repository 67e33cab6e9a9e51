package planner

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Column defaults.
//
// A column's DEFAULT is kept in the catalog as the text the user wrote
// (SERIAL columns get PostgreSQL's own nextval('t_c_seq'::regclass)) and
// bound again by each statement that needs it, so now() is the statement's
// time and nextval() runs for every row. An identity column has no
// DEFAULT text: its values come from its sequence (Column.Sequence).

// serialDefault matches the default of a SERIAL column, which statements
// bind straight to a nextval call.
var serialDefault = regexp.MustCompile(`^nextval\('((?:[^']|'')+)'(?:::regclass)?\)$`)

// defaultExpr is the value column i of t takes when a statement gives it
// none (or DEFAULT): its DEFAULT, its identity's next value, the hidden row
// id, or NULL.
func (b *Binder) defaultExpr(t *catalog.Table, i int) (ir.Expr, error) {
	c := t.Columns[i]
	switch {
	case c.Hidden && len(t.PrimaryKey) == 1 && t.PrimaryKey[0].Column == i:
		if t.Temp {
			return &ir.Func{Name: "unique_rowid", Typ: sqltypes.TypeInt8, Volatile: true, Fn: nextTempRowID}, nil
		}
		return &ir.Func{Name: "unique_rowid", Typ: sqltypes.TypeInt8, Volatile: true, Fn: newRowID}, nil
	case c.Identity != "":
		return b.nextvalOf(c, b.snap.RelationKeyText(c.Sequence, t.Temp))
	case c.Default != "" && c.Sequence != "" && serialDefault.MatchString(strings.TrimSpace(c.Default)):
		// The sequence the column draws from, by its key (PostgreSQL
		// keeps its OID), whatever the path.
		return b.nextvalOf(c, b.snap.RelationKeyText(c.Sequence, t.Temp))
	case c.Default != "":
		return b.bindDefault(c, c.Default)
	case c.Type.IsDomain() && c.Type.Domain.Default != "":
		// A column of a domain with a default and none of its own.
		return b.bindDefault(c, c.Type.Domain.Default)
	}
	return &ir.Const{V: sqltypes.Null, Typ: c.Type}, nil
}

// nextvalOf is nextval(seq) cast to column c's type.
func (b *Binder) nextvalOf(c catalog.Column, seq string) (ir.Expr, error) {
	// The name read as a regclass once, when the statement is bound, not
	// for every row.
	arg, err := b.bindRegCast(&ir.Const{V: sqltypes.NewText(seq), Typ: sqltypes.TypeText}, sqltypes.TypeRegClass)
	if err != nil {
		return nil, err
	}
	e, err := b.bindFunc("nextval", []ir.Expr{arg})
	if err != nil {
		return nil, err
	}
	return b.coerceTo(e, c.Type, true)
}

// bindDefault binds a DEFAULT expression's text for column c, with
// PostgreSQL's rules: no column references, subqueries, aggregates or
// window functions, and a type that assigns to the column's.
func (b *Binder) bindDefault(c catalog.Column, text string) (ir.Expr, error) {
	return b.bindDefaultAt(c, text, 0)
}

// bindDefaultAt is bindDefault of a DEFAULT the client wrote at byte
// offset (> 0) of the statement's query string (CREATE TABLE's), whose
// errors point into the client's text, as PostgreSQL's do: nextval('s')
// too, whose literal is read as a regclass now, so a sequence that does
// not exist fails CREATE TABLE at the literal.
func (b *Binder) bindDefaultAt(c catalog.Column, text string, offset int) (ir.Expr, error) {
	stmt, node, err := parser.ParseExpression(text)
	if err != nil {
		return nil, err
	}
	if offset > 0 && b.stmt != nil {
		stmt.Within(b.stmt, offset)
	}
	var bad defaultChecker
	node.Accept(&bad)
	if bad.err != nil {
		return nil, bad.err
	}
	if m := bad.param; m != nil && m.Order < len(stmt.ParamOrder) {
		// A stored expression has no parameters to take (PostgreSQL
		// says so of a utility statement's $n, EXECUTE ... USING too).
		err := pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", stmt.ParamOrder[m.Order])
		if offset > 0 && b.stmt != nil {
			err = err.WithPosition(stmt.Position(m.OriginTextPosition()))
		}
		return nil, err
	}
	snap := b.snap.IgnoringUsage()
	if err := qualifyStored(snap, node); err != nil {
		return nil, err
	}
	sub := &Binder{snap: snap, stmt: stmt, loc: b.loc, style: b.style}
	e, err := sub.bindExpr(env{}.newScope(), node)
	if err != nil {
		return nil, err
	}
	if e.Type().ID != sqltypes.Unknown && !castAllowedAssignment(e.Type(), c.Type) {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q is of type %s but default expression is of type %s", c.Name, c.Type, e.Type()).
			WithHint("You will need to rewrite or cast the expression.")
	}
	return sub.coerceTo(e, c.Type, true)
}

// defaultChecker finds what a DEFAULT expression may not contain; param
// is its first parameter ($n), if any.
type defaultChecker struct {
	err   error
	param *driver.ParamMarkerExpr
}

func (v *defaultChecker) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	switch x := n.(type) {
	case *driver.ParamMarkerExpr:
		if v.param == nil {
			v.param = x
		}
	case *ast.ColumnNameExpr:
		v.err = pgerr.New(pgerr.FeatureNotSupported, "cannot use column reference in DEFAULT expression")
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		v.err = pgerr.New(pgerr.FeatureNotSupported, "cannot use subquery in DEFAULT expression")
	case *ast.AggregateFuncExpr:
		v.err = pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in DEFAULT expressions")
	case *ast.WindowFuncExpr:
		v.err = pgerr.New(pgerr.WindowingError, "window functions are not allowed in DEFAULT expressions")
	case *ast.FuncCallExpr:
		if IsAggregateName(x.FnName.L) {
			v.err = pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in DEFAULT expressions")
		}
	}
	return n, v.err != nil
}

func (v *defaultChecker) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// columnGenerators completes CREATE TABLE's columns from what the parser
// lifted out of their definitions: DEFAULT expressions (checked now, as
// PostgreSQL does), SERIAL (an owned sequence and its nextval default) and
// identity columns (an owned sequence). It returns the sequences to create
// with the table.
func (b *Binder) columnGenerators(t *catalog.Table) ([]*catalog.Sequence, error) {
	var seqs []*catalog.Sequence
	taken := map[string]bool{}
	// The sequence goes to the table's schema, named from the table's
	// name in it.
	schema, bare := catalog.SplitName(t.Name)
	seqName := func(col string) string {
		name := catalog.QualifiedKey(schema, sqltypes.TruncateIdent(bare+"_"+col, 59)+"_seq")
		for i := 1; b.snap.HasRelation(name) || taken[name] || name == t.Name; i++ {
			suffix := fmt.Sprint(i)
			name = catalog.QualifiedKey(schema, sqltypes.TruncateIdent(bare+"_"+col, 59-len(suffix))+"_seq"+suffix)
		}
		taken[name] = true
		return name
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		ext := b.stmt.Columns[c.Name]
		if ext == nil {
			continue
		}
		if ext.Identity != nil && (ext.Default != "" || ext.Serial != "") {
			what := "default"
			if ext.Serial != "" {
				what = "serial"
			}
			return nil, pgerr.New(pgerr.SyntaxError, "both %s and identity specified for column %q of table %q", what, c.Name, t.Name)
		}
		if ext.Serial != "" && ext.Default != "" {
			return nil, pgerr.New(pgerr.SyntaxError, "multiple default values specified for column %q of table %q", c.Name, t.Name)
		}
		if ext.Generated != "" {
			switch {
			case ext.Identity != nil:
				return nil, pgerr.New(pgerr.SyntaxError, "both identity and generation expression specified for column %q of table %q", c.Name, t.Name)
			case ext.Default != "" || ext.Serial != "":
				return nil, pgerr.New(pgerr.SyntaxError, "both default and generation expression specified for column %q of table %q", c.Name, t.Name)
			}
			c.Generated = ext.Generated
			continue // bound once every column is known (checkGenerated)
		}
		// owned creates the sequence a SERIAL or identity column draws from.
		owned := func(opts parser.SequenceOptions) error {
			seq, err := ir.NewSequence(seqName(c.Name), opts)
			if err != nil {
				return err
			}
			seq.OwnedBy = t.Name + "." + c.Name
			seqs = append(seqs, seq)
			c.NotNull, c.Sequence = true, seq.Name
			return nil
		}
		switch {
		case ext.Serial != "":
			if err := owned(parser.SequenceOptions{Type: ext.Serial}); err != nil {
				return nil, err
			}
			c.Default = "nextval(" + quoteText(catalog.QuoteKey(c.Sequence)) + "::regclass)"
		case ext.Identity != nil:
			typeName := map[sqltypes.TypeID]string{sqltypes.Int2: "smallint", sqltypes.Int4: "integer", sqltypes.Int8: "bigint"}[c.Type.ID]
			if typeName == "" {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
			}
			opts, err := parser.ParseSequenceOptions(ext.Identity.Options)
			if err != nil {
				return nil, err
			}
			if opts.Type == "" {
				opts.Type = typeName
			}
			if err := owned(opts); err != nil {
				return nil, err
			}
			c.Identity = "by default"
			if ext.Identity.Always {
				c.Identity = "always"
			}
		case ext.Default != "":
			e, err := b.bindDefaultAt(*c, ext.Default, ext.DefaultOffset)
			if err != nil {
				return nil, err
			}
			c.Default = ext.Default
			if seq := nextvalTarget(b.snap, e); seq != "" {
				c.Sequence = b.snap.Resolve(seq)
			}
		}
	}
	for i, c := range t.Columns {
		if c.Generated != "" {
			if _, err := b.bindGenerated(t, i); err != nil {
				return nil, err
			}
		}
	}
	return seqs, nil
}

// nextvalTarget returns the sequence a bound default draws from when it
// calls nextval with a constant name of one (not of another relation,
// nextval('pg_class'), which fails when the default is used).
func nextvalTarget(snap *catalog.Snapshot, e ir.Expr) string {
	found := ""
	ir.Walk(e, func(x ir.Expr) {
		if f, ok := x.(*ir.Func); ok && f.Name == "nextval" && len(f.Args) == 1 {
			// The argument is a regclass constant carrying the name it
			// prints as (nextval('s'), nextval('s'::regclass)).
			if c, ok := f.Args[0].(*ir.Const); ok && c.Typ.ID == sqltypes.RegClass && c.V.S != "" {
				if name, err := relationNameText(c.V.S); err == nil {
					// public's keys are bare names, which a lookup reads
					// as unqualified, through the search path (empty in
					// a pg_dump script): a name the regclass printed
					// qualified by public is looked up so.
					if strings.HasPrefix(strings.TrimSpace(c.V.S), catalog.PublicSchema+".") {
						name = catalog.PublicSchema + "." + name
					}
					if _, ok := snap.Sequence(name); ok {
						found = name
					}
				}
			}
		}
	})
	return found
}

// relationNameText folds an unqualified or public-qualified relation name
// written as text, as a regclass input does.
func relationNameText(s string) (string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "public.")
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2 {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`), nil
	}
	if schema, name, ok := strings.Cut(s, "."); ok && !strings.ContainsAny(name, `."`) && !strings.Contains(schema, `"`) {
		// A sequence of a user schema, named by its key (schemas.go).
		return catalog.QualifiedKey(strings.ToLower(schema), strings.ToLower(name)), nil
	}
	if strings.ContainsAny(s, `."`) {
		return "", pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	return strings.ToLower(s), nil
}

func quoteText(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
