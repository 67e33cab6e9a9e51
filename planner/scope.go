package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// scope is the name space in which one query level's expressions are
// bound: the FROM items whose columns make up the row the expressions read,
// and the scope of the enclosing query, reached through OuterRef.
//
// Depth counting follows the executor, not the syntax: an OuterRef's depth
// is how many outer rows were pushed between the expression and the row it
// reads. A subquery expression pushes its query's row (depthToOuter 1); a
// derived table in FROM pushes nothing (it shares its parent's outer rows,
// depthToOuter 0 and the same outer); a LATERAL item pushes the row of the
// items to its left.
type scope struct {
	outer        *scope
	depthToOuter int

	items  []*fromItem
	merged []mergedCol // JOIN USING / NATURAL columns
	// groups, when set, is the aggregation of this level: outer references
	// from subqueries of the select list and HAVING read the aggregated row,
	// in which a FROM column exists only as a GROUP BY item.
	groups *groupMap
	// correlated is set when an expression bound in a scope below this one
	// read this scope's row (the subquery must be evaluated per row).
	correlated bool
	// lateralDenied marks the left side of a RIGHT or FULL join as seen
	// from its right side: a LATERAL reference to it is 42P01.
	lateralDenied bool
	// excluded: ON CONFLICT DO UPDATE, where the row is [existing...,
	// excluded...] and "excluded" qualifies the second half.
	ctes *cteEnv
}

// fromItem is one FROM entry of a scope: a table, a derived table, a
// function, a CTE reference.
type fromItem struct {
	alias string // the name that qualifies its columns
	// offset is where its columns start in the scope's row.
	offset int
	cols   []ir.Column
	// hiddenByUsing marks columns merged by JOIN USING: not found by an
	// unqualified name (the merged column is) and not repeated by *.
	hiddenByUsing map[int]bool
	// perm, for a stored table or view, is its reference's permission
	// entry: every column found through the item is marked read there.
	perm *ir.RelPermission
	// table is the stored table the item reads, whose row type its whole
	// row has (record.go); nil for other items.
	table *catalog.Table
	// scalar marks a function in FROM that returns a scalar (one value a
	// row, not a composite): its whole row is that value, as PostgreSQL's
	// whole-row Var of such a function (record.go).
	scalar bool
	// rowsOf is the table whose rows a function in FROM returns (RETURNS
	// SETOF t): its whole row is of t's row type.
	rowsOf *catalog.Table
	// relabel marks the columns a deparsed query reads as of a domain
	// relabeled to its base type (informationSchemaDomains).
	relabel map[int]bool
	// nullable marks an item on the side of an outer join that the join
	// null-extends: its whole row is NULL there (presentColumn).
	nullable bool
	// present, when above 0, is where after offset a derived item's
	// relation has a hidden column that is true in each of its rows, so
	// NULL only where an outer join null-extended it (withPresence).
	present int
	// system are system columns whose value is the same in every row of
	// the item (tableoid of an UPDATE's or DELETE's target, dml.go),
	// found by name when no column of the item has it, never by *.
	system map[string]ir.Expr
	// starOrder, when set, is the order * lists the columns in (an
	// inheriting table's row seen as its parent's, dml.go).
	starOrder []int
}

// presentColumn returns a reference to a column of the item that its own
// rows never hold NULL in, which is NULL only where an outer join
// null-extended the item: the first primary-key column of a stored table
// (the hidden row id of a table without a key). nil when the item may not
// be null-extended or has no such column. A derived table whose whole
// row the statement may read has a column of its own for it (present).
func (it *fromItem) presentColumn() ir.Expr {
	if it.nullable && it.present > 0 {
		return &ir.ColRef{Index: it.offset + it.present, Name: "?present?", Typ: sqltypes.TypeBool}
	}
	if !it.nullable || it.table == nil || len(it.table.PrimaryKey) == 0 {
		return nil
	}
	key := it.table.Columns[it.table.PrimaryKey[0].Column].Name
	for i, c := range it.cols {
		if c.Name == key {
			return &ir.ColRef{Index: it.offset + i, Name: c.Name, Typ: c.Type}
		}
	}
	return nil
}

// mergedCol is a column of JOIN USING / NATURAL: one name, its value read
// from the left side, the right side, or the first non-NULL of both.
type mergedCol struct {
	name string
	expr ir.Expr
	// before is the index in the scope's items of the first item of the
	// join that merged the column: * lists it just before that item's
	// columns, as PostgreSQL lists a join's merged columns first of the
	// join's own (FROM a, b JOIN c USING (x) is a's columns, x, b's, c's).
	before int
}

// groupMap maps FROM columns to the aggregated row of the same level.
type groupMap struct {
	// col maps a FROM-row column index to its group's position.
	col map[int]int
}

// cteEnv is a chain of visible WITH queries, innermost first.
type cteEnv struct {
	ctes  map[string]*ir.CTE
	outer *cteEnv
	// self is the CTE whose recursive term is being bound: references to
	// it read the work table.
	self *ir.CTE
}

func (e *cteEnv) lookup(name string) (*ir.CTE, bool, bool) {
	for env := e; env != nil; env = env.outer {
		if env.self != nil && env.self.Name == name {
			return env.self, true, true
		}
		if c, ok := env.ctes[name]; ok {
			return c, false, true
		}
	}
	return nil, false, false
}

// width is the number of columns in the scope's row.
func (s *scope) width() int {
	n := 0
	for _, it := range s.items {
		if end := it.offset + len(it.cols); end > n {
			n = end
		}
	}
	return n
}

// shiftItems returns the scope's items and merged columns moved right by
// delta columns, for the right side of a join whose left side has
// itemsBefore items.
func shiftItems(items []*fromItem, merged []mergedCol, delta, itemsBefore int) ([]*fromItem, []mergedCol) {
	outItems := make([]*fromItem, len(items))
	for i, it := range items {
		c := *it
		c.offset += delta
		outItems[i] = &c
	}
	outMerged := make([]mergedCol, len(merged))
	for i, m := range merged {
		outMerged[i] = mergedCol{name: m.name, expr: ir.ShiftCols(m.expr, delta), before: m.before + itemsBefore}
	}
	return outItems, outMerged
}

// lookup finds an unqualified or qualified column in this scope only.
// found is false when the scope has no such column; an ambiguous name or
// an unknown qualifier is an error only if no outer scope could answer
// (the caller decides).
// qualifierOf is the name of the FROM item an unqualified column name
// resolves to ("" when none does, or the item has no name), for messages
// that name a column as PostgreSQL does (od.name).
// qualifierAt is the alias of the FROM item whose column stands at index
// of the scope's row, "" if none does.
func (s *scope) qualifierAt(index int) string {
	for _, it := range s.items {
		if index >= it.offset && index < it.offset+len(it.cols) {
			return it.alias
		}
	}
	return ""
}

func (s *scope) qualifierOf(name string) string {
	for _, it := range s.items {
		for i, c := range it.cols {
			if c.Name == name && !it.hiddenByUsing[i] {
				return it.alias
			}
		}
	}
	return ""
}

func (s *scope) lookup(qual, name string) (e ir.Expr, found bool, err error) {
	if qual == "" {
		for _, m := range s.merged {
			if m.name == name {
				return m.expr, true, nil
			}
		}
		var hit ir.Expr
		for _, it := range s.items {
			for i, c := range it.cols {
				if c.Name != name || it.hiddenByUsing[i] {
					continue
				}
				if hit != nil {
					return nil, true, pgerr.New(pgerr.AmbiguousColumn, "column reference %q is ambiguous", name)
				}
				hit = &ir.ColRef{Index: it.offset + i, Name: name, Typ: c.Type, Relabeled: it.relabel[i]}
				it.perm.SelectCol(i)
			}
		}
		if hit == nil {
			for _, it := range s.items {
				if e, ok := it.system[name]; ok {
					if hit != nil {
						return nil, true, pgerr.New(pgerr.AmbiguousColumn, "column reference %q is ambiguous", name)
					}
					hit = e
				}
			}
		}
		return hit, hit != nil, nil
	}
	var item *fromItem
	for _, it := range s.items {
		if it.alias == qual {
			if item != nil {
				return nil, true, pgerr.New(pgerr.AmbiguousAlias, "table reference %q is ambiguous", qual)
			}
			item = it
		}
	}
	if item == nil {
		return nil, false, nil
	}
	var hit ir.Expr
	for i, c := range item.cols {
		if c.Name == name {
			if hit != nil {
				// (SELECT 1 AS a, 2 AS a) s, or an aliased join of two
				// tables that both have the column.
				return nil, true, pgerr.New(pgerr.AmbiguousColumn, "column reference %q is ambiguous", name)
			}
			hit = &ir.ColRef{Index: item.offset + i, Name: qual + "." + name, Typ: c.Type, Relabeled: item.relabel[i]}
			item.perm.SelectCol(i)
		}
	}
	if e, ok := item.system[name]; ok && hit == nil {
		hit = e
	}
	if hit != nil {
		return hit, true, nil
	}
	return nil, true, pgerr.New(pgerr.UndefinedColumn, "column %s.%s does not exist", qual, name)
}

// hasQualifier reports whether some item of the scope is named qual.
func (s *scope) hasQualifier(qual string) bool {
	for _, it := range s.items {
		if it.alias == qual {
			return true
		}
	}
	return false
}

// storedColumn reports whether cn names a column that is a stored table's
// column passed through (ir.Column.Table: read from a table, a view or a
// derived table that selects it as it is, grouped by, or a JOIN USING
// column of such columns), whose datum PostgreSQL keeps as the table
// stores it: the column the name resolve finds.
func (s *scope) storedColumn(cn *ast.ColumnName) bool {
	qual, name := cn.Table.O, cn.Name.O
	for sc := s; sc != nil; sc = sc.outer {
		_, found, err := sc.lookup(qual, name)
		if err != nil {
			return false
		}
		if !found {
			continue
		}
		merged := false
		for _, m := range sc.merged {
			merged = merged || qual == "" && m.name == name
		}
		hits := 0
		for _, it := range sc.items {
			if qual != "" && it.alias != qual {
				continue
			}
			for i, c := range it.cols {
				if c.Name != name || !merged && qual == "" && it.hiddenByUsing[i] {
					continue
				}
				if c.Table == nil {
					return false
				}
				hits++
			}
		}
		return hits == 1 || merged && hits > 1
	}
	return false
}

// resolve finds a column by name in this scope or, failing that, in the
// enclosing ones (an OuterRef, marking the scopes crossed as correlated).
func (s *scope) resolve(cn *ast.ColumnName) (ir.Expr, error) {
	qual, name := cn.Table.O, cn.Name.O
	if cn.Schema.O != "" {
		// schema.table.column: the schema only has to be the one the
		// table lives in; zproxy has public and the catalog schemas.
		qual = cn.Table.O
	}
	depth := 0
	for sc := s; sc != nil; sc = sc.outer {
		e, found, err := sc.lookup(qual, name)
		if err != nil {
			return nil, err
		}
		if found {
			if sc.lateralDenied {
				return nil, sc.deniedReference(qual, name)
			}
			if depth == 0 {
				return e, nil
			}
			return sc.outerRef(e, depth)
		}
		depth += sc.depthToOuter
	}
	if qual != "" {
		for sc := s; sc != nil; sc = sc.outer {
			if sc.hasQualifier(qual) {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %s.%s does not exist", qual, name)
			}
		}
		return nil, missingFromEntry(qual)
	}
	return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
}

// deniedReference is PostgreSQL's error for a LATERAL item on the right
// of a RIGHT or FULL join reading the join's left side.
func (s *scope) deniedReference(qual, name string) error {
	table := qual
	if table == "" {
		for _, it := range s.items {
			for _, c := range it.cols {
				if c.Name == name {
					table = it.alias
				}
			}
			if table != "" {
				break
			}
		}
	}
	return pgerr.New(pgerr.InvalidColumnReference, "invalid reference to FROM-clause entry for table %q", table).
		WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference.")
}

// outerColumn resolves a column name that the scope's own FROM items do
// not have but an enclosing query's do: an outer reference, which is a
// constant for an aggregating level (PostgreSQL allows it anywhere in a
// grouped subquery: SELECT (SELECT max(y) + t.x FROM s) FROM t). ok is
// false when the name is the scope's own or is found nowhere.
func outerColumn(s *scope, cn *ast.ColumnName) (e ir.Expr, ok bool, err error) {
	if _, found, err := s.lookup(cn.Table.O, cn.Name.O); found || err != nil {
		return nil, false, nil
	}
	e, err = s.resolve(cn)
	if err != nil {
		return nil, false, nil
	}
	return e, true, nil
}

// outerRef turns a column found in this (outer) scope into a reference from
// depth levels below; the scope's row is then read per evaluation, so every
// scope between must know it is correlated.
func (s *scope) outerRef(e ir.Expr, depth int) (ir.Expr, error) {
	if depth == 0 {
		return e, nil
	}
	s.correlated = true
	if s.groups != nil {
		// The outer level aggregates: its row is [groups..., aggs...], and a
		// FROM column is only there as a GROUP BY item.
		var err error
		e = ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			c, ok := x.(*ir.ColRef)
			if !ok || err != nil {
				return nil
			}
			g, ok := s.groups.col[c.Index]
			if !ok {
				err = pgerr.New(pgerr.GroupingError, "subquery uses ungrouped column %q from outer query", c.Name)
				return nil
			}
			return &ir.ColRef{Index: g, Name: c.Name, Typ: c.Typ}
		})
		if err != nil {
			return nil, err
		}
	}
	return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
		if c, ok := x.(*ir.ColRef); ok {
			return &ir.OuterRef{Depth: depth, Index: c.Index, Name: c.Name, Typ: c.Typ}
		}
		return nil
	}), nil
}

// star expands * (qual "") or qual.* into column references, in FROM
// order, each join's merged USING columns first of its own, hidden columns
// left out.
func (s *scope) star(qual string) ([]ir.Expr, []ir.Column, error) {
	exprs, cols, _, err := s.starItems(qual)
	return exprs, cols, err
}

// starItems is star, with the FROM item each column comes from ("" for a
// column merged by JOIN USING).
func (s *scope) starItems(qual string) ([]ir.Expr, []ir.Column, []string, error) {
	var exprs []ir.Expr
	var cols []ir.Column
	var items []string
	found := false
	for i, it := range s.items {
		if qual == "" {
			for _, m := range s.merged {
				if m.before == i {
					exprs = append(exprs, m.expr)
					cols = append(cols, ir.Column{Name: m.name, Type: m.expr.Type(), Col: -1})
					items = append(items, "")
				}
			}
		}
		if qual != "" && it.alias != qual {
			continue
		}
		found = true
		for k := range it.cols {
			i := k
			if it.starOrder != nil {
				i = it.starOrder[k]
			}
			c := it.cols[i]
			if c.Hidden || (qual == "" && it.hiddenByUsing[i]) {
				continue
			}
			exprs = append(exprs, &ir.ColRef{Index: it.offset + i, Name: c.Name, Typ: c.Type})
			cols = append(cols, c)
			items = append(items, it.alias)
			it.perm.SelectCol(i)
		}
	}
	if qual != "" && !found {
		return nil, nil, nil, missingFromEntry(qual)
	}
	return exprs, cols, items, nil
}

// missingRTE is 42P01 for a qualifier no visible FROM item has; the
// binder, which knows every FROM item bound so far (Binder.rtable), turns
// it into PostgreSQL's errorMissingRTE (fromEntryError).
type missingRTE struct {
	pe   *pgerr.Error
	qual string
}

func (m *missingRTE) Error() string { return m.pe.Message }

// Unwrap gives the error the client sees.
func (m *missingRTE) Unwrap() error { return m.pe }

func missingFromEntry(qual string) error {
	return &missingRTE{pe: pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table %q", qual), qual: qual}
}

// rtEntry is a FROM item bound at a query level being bound: its name,
// and for a stored table the table, whichever part of the query may see
// it (PostgreSQL's range table of the level).
type rtEntry struct {
	alias string
	table *catalog.Table
}

// fromEntryError is PostgreSQL's errorMissingRTE for err when err is a
// missingRTE: a qualifier naming a FROM item of this level or an enclosing
// one that the reference may not see (FROM a, (SELECT a.x) s; a JOIN's ON
// reading an item before the join), or a table by its name when it has an
// alias, is "invalid reference to FROM-clause entry" with its hint.
func (b *Binder) fromEntryError(sc *scope, err error) error {
	m, ok := err.(*missingRTE)
	if !ok {
		return err
	}
	for i := len(b.rtable) - 1; i >= 0; i-- {
		e := b.rtable[i]
		if e.alias != m.qual && (e.table == nil || e.table.BareName() != m.qual || b.snap.Resolve(m.qual) != e.table.Name) {
			continue
		}
		pe := pgerr.New(pgerr.UndefinedTable, "invalid reference to FROM-clause entry for table %q", m.qual).WithPosition(m.pe.Position)
		visible := false
		for s := sc; s != nil && e.alias != m.qual; s = s.outer {
			visible = visible || s.hasQualifier(e.alias)
		}
		if visible {
			return pe.WithHint("Perhaps you meant to reference the table alias \"%s\".", e.alias)
		}
		return pe.WithHint("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", e.alias)
	}
	return m.pe
}
