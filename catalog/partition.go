package catalog

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Declarative partitioning. A partitioned table (PostgreSQL's relkind
// 'p') is a table descriptor with Partitioning set: it has columns,
// constraints and indexes but never holds a row. Each of its partitions
// is an ordinary table of its own (its own store ID, key range, indexes
// and shards) whose Parents name the partitioned table and whose Bound
// says which rows it takes. Writes to the partitioned table are routed
// row by row (Route); reads of it read its partitions.

// Partitioning is a partitioned table's PARTITION BY.
type Partitioning struct {
	// Strategy is "range", "list" or "hash".
	Strategy string `json:"strategy"`
	// Columns are the key's column ordinals, -1 for a part that is an
	// expression (PARTITION BY RANGE ((lower(name)))).
	Columns []int `json:"columns"`
	// Exprs are the expression parts' deparsed texts, by key part (""
	// for a column part), over a row of the table: every member of the
	// tree has the root's columns, so the text binds alike in each.
	// ExprTypes are their types, and ExprColumns the columns they read
	// (for ALTER TABLE's refusals).
	Exprs       []string        `json:"exprs,omitempty"`
	ExprTypes   []sqltypes.Type `json:"expr_types,omitempty"`
	ExprColumns []int           `json:"expr_columns,omitempty"`
}

// HasExprs reports whether a part of the key is an expression.
func (p *Partitioning) HasExprs() bool { return slices.Contains(p.Columns, -1) }

// PartitionExprEval computes key part i (an expression) of t's partition
// key for a row of t. Binding expressions is the planner's, which
// registers it (its init), while every stage that routes rows (the
// executor's writes, the optimizer's pruning, ATTACH's checks) needs it.
var PartitionExprEval func(t *Table, i int, row []sqltypes.Value) (sqltypes.Value, error)

// PartitionKeyType returns the type of key part i of partitioned table t.
func (t *Table) PartitionKeyType(i int) sqltypes.Type {
	p := t.Partitioning
	if c := p.Columns[i]; c >= 0 {
		return t.Columns[c].Type
	}
	return p.ExprTypes[i]
}

// PartitionKeyName names key part i as PostgreSQL's messages do: the
// quoted column name, or the expression's deparsed text.
func (t *Table) PartitionKeyName(i int) string {
	if c := t.Partitioning.Columns[i]; c >= 0 {
		return sqltypes.QuoteIdent(t.Columns[c].Name)
	}
	return t.Partitioning.Exprs[i]
}

// PartitionKeyDef spells key part i as pg_get_partkeydef does: the
// column's name, a function call as it is, any other expression in one
// more pair of parentheses (LIST (((a % 4)))).
func (t *Table) PartitionKeyDef(i int) string {
	if c := t.Partitioning.Columns[i]; c >= 0 {
		return sqltypes.QuoteIdent(t.Columns[c].Name)
	}
	return IndexKeyDef(t.Partitioning.Exprs[i])
}

// PartitionKeyReads reports whether t's partition key reads column c,
// as a column part or in an expression.
func (t *Table) PartitionKeyReads(c int) bool {
	p := t.Partitioning
	return p != nil && c >= 0 && (slices.Contains(p.Columns, c) || slices.Contains(p.ExprColumns, c))
}

// PartitionKeyValues returns the partition key of row (a row of t),
// computing its expression parts.
func (t *Table) PartitionKeyValues(row []sqltypes.Value) ([]sqltypes.Value, error) {
	p := t.Partitioning
	key := make([]sqltypes.Value, len(p.Columns))
	for i, c := range p.Columns {
		if c >= 0 {
			key[i] = row[c]
			continue
		}
		if PartitionExprEval == nil {
			return nil, pgerr.New(pgerr.InternalError, "partition key expressions cannot be computed here")
		}
		v, err := PartitionExprEval(t, i, row)
		if err != nil {
			return nil, err
		}
		key[i] = v
	}
	return key, nil
}

// PartitionBound is a partition's FOR VALUES (or DEFAULT).
type PartitionBound struct {
	Default bool `json:"default,omitempty"`
	// In are a list partition's values.
	In []BoundValue `json:"in,omitempty"`
	// From and To are a range partition's bounds, one value per key
	// column: the partition takes From <= key < To.
	From []BoundValue `json:"from,omitempty"`
	To   []BoundValue `json:"to,omitempty"`
	// Modulus and Remainder are a hash partition's.
	Modulus   int `json:"modulus,omitempty"`
	Remainder int `json:"remainder,omitempty"`
}

// BoundValue is one value of a bound: the value's text output (of the
// key column's type), NULL, or MINVALUE (Inf -1) or MAXVALUE (Inf 1).
type BoundValue struct {
	Text string `json:"text,omitempty"`
	Null bool   `json:"null,omitempty"`
	Inf  int    `json:"inf,omitempty"`
}

// Value returns the bound value as a value of type t.
func (b BoundValue) Value(t sqltypes.Type) (sqltypes.Value, error) {
	if b.Null {
		return sqltypes.Null, nil
	}
	return sqltypes.Cast(sqltypes.NewText(b.Text), t)
}

// IsPartitioned reports whether t is a partitioned table.
func (t *Table) IsPartitioned() bool { return t.Partitioning != nil }

// IsPartition reports whether t is a partition of another table.
func (t *Table) IsPartition() bool { return t.Bound != nil }

// Children returns the tables whose parent is t (its partitions, or the
// tables inheriting from it), ordered by ID (creation order).
func (s *Snapshot) Children(t *Table) []*Table {
	var out []*Table
	for _, c := range s.tables {
		if slices.Contains(c.Parents, t.ID) {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Descendants returns every table below t in the partition (or
// inheritance) tree, depth first, children in creation order.
func (s *Snapshot) Descendants(t *Table) []*Table {
	var out []*Table
	for _, c := range s.Children(t) {
		out = append(out, c)
		out = append(out, s.Descendants(c)...)
	}
	return out
}

// Parent returns the partitioned table a partition belongs to, or nil.
func (s *Snapshot) Parent(t *Table) *Table {
	if t.Bound == nil || len(t.Parents) == 0 {
		return nil
	}
	return s.TableByID(t.Parents[0])
}

// PartitionMatches reports whether the partition bound b of a table
// partitioned by p (columns of parent) takes a row whose partition key
// values are key (in p.Columns order). A default partition matches
// nothing here: Route falls back to it.
func PartitionMatches(parent *Table, b *PartitionBound, key []sqltypes.Value) (bool, error) {
	p := parent.Partitioning
	switch {
	case b.Default:
		return false, nil
	case p.Strategy == "list":
		for _, v := range b.In {
			if v.Null {
				if key[0].IsNull() {
					return true, nil
				}
				continue
			}
			bv, err := v.Value(parent.PartitionKeyType(0))
			if err != nil {
				return false, err
			}
			if !key[0].IsNull() && sqltypes.Compare(key[0], bv) == 0 {
				return true, nil
			}
		}
		return false, nil
	case p.Strategy == "range":
		for _, k := range key {
			if k.IsNull() {
				return false, nil // only a default partition takes NULL
			}
		}
		lo, err := compareBound(parent, key, b.From)
		if err != nil || lo < 0 {
			return false, err
		}
		hi, err := compareBound(parent, key, b.To)
		return hi < 0, err
	case p.Strategy == "hash":
		types := make([]sqltypes.Type, len(p.Columns))
		for i := range p.Columns {
			types[i] = parent.PartitionKeyType(i)
		}
		h, err := PartitionHash(types, key)
		if err != nil {
			return false, err
		}
		return h%uint64(b.Modulus) == uint64(b.Remainder), nil
	}
	return false, nil
}

// compareBound compares a row's range key with a range bound: negative
// when the key sorts before it, else non-negative (a key equal to the
// bound is at it). MINVALUE and MAXVALUE decide at their column.
func compareBound(parent *Table, key []sqltypes.Value, bound []BoundValue) (int, error) {
	for i, bv := range bound {
		if bv.Inf != 0 {
			return -bv.Inf, nil
		}
		v, err := bv.Value(parent.PartitionKeyType(i))
		if err != nil {
			return 0, err
		}
		if c := sqltypes.Compare(key[i], v); c != 0 {
			return c, nil
		}
	}
	return 0, nil
}

// PartitionSet is a partitioned table with every table below it, as a
// statement binds them: writes to the root route each row to a leaf
// (Route), reads of it read the leaves. Every member has the root's
// columns in the root's order (PARTITION OF copies them; ATTACH
// PARTITION requires them), so a row of the root is a row of any member.
type PartitionSet struct {
	Root    *Table
	Members []*Table
}

// PartitionSet returns t's partition set (nil unless t is partitioned).
func (s *Snapshot) PartitionSet(t *Table) *PartitionSet {
	if !t.IsPartitioned() {
		return nil
	}
	return &PartitionSet{Root: t, Members: s.Descendants(t)}
}

// Leaves returns the members that hold rows (the partitions that are not
// partitioned themselves), in tree order.
func (p *PartitionSet) Leaves() []*Table {
	var out []*Table
	for _, m := range p.Members {
		if !m.IsPartitioned() {
			out = append(out, m)
		}
	}
	return out
}

// children returns the members whose parent is t, in creation order.
func (p *PartitionSet) children(t *Table) []*Table {
	var out []*Table
	for _, m := range p.Members {
		if len(m.Parents) > 0 && m.Parents[0] == t.ID && m.Bound != nil {
			out = append(out, m)
		}
	}
	return out
}

// Route returns the leaf partition that takes row (a row of the root),
// or a 23514 error naming the (sub)partitioned table none of whose
// partitions takes it, as PostgreSQL's.
func (p *PartitionSet) Route(row []sqltypes.Value) (*Table, error) {
	t := p.Root
	for t.IsPartitioned() {
		key, err := t.PartitionKeyValues(row)
		if err != nil {
			return nil, err
		}
		var next, def *Table
		for _, c := range p.children(t) {
			if c.Bound.Default {
				def = c
				continue
			}
			ok, err := PartitionMatches(t, c.Bound, key)
			if err != nil {
				return nil, err
			}
			if ok {
				next = c
				break
			}
		}
		if next == nil {
			next = def
		}
		if next == nil {
			names := make([]string, len(key))
			vals := make([]string, len(key))
			for i := range t.Partitioning.Columns {
				names[i] = t.PartitionKeyName(i)
				vals[i] = "null"
				if !key[i].IsNull() {
					vals[i] = sqltypes.FormatText(key[i])
				}
			}
			return nil, pgerr.New(pgerr.CheckViolation, "no partition of relation %q found for row", t.BareName()).
				WithDetail("Partition key of the failing row contains (%s) = (%s).", strings.Join(names, ", "), strings.Join(vals, ", "))
		}
		t = next
	}
	return t, nil
}

// BoundSQL spells a partition's bound as pg_get_expr prints relpartbound:
// FOR VALUES IN (...), FROM (...) TO (...), WITH (modulus m, remainder
// r), or DEFAULT.
func BoundSQL(parent *Table, b *PartitionBound) string {
	if b.Default {
		return "DEFAULT"
	}
	list := func(vs []BoundValue) string { return BoundList(parent, vs) }
	switch {
	case b.Modulus > 0:
		return "FOR VALUES WITH (modulus " + strconv.Itoa(b.Modulus) + ", remainder " + strconv.Itoa(b.Remainder) + ")"
	case b.From != nil:
		return "FOR VALUES FROM " + list(b.From) + " TO " + list(b.To)
	}
	typ := sqltypes.TypeText
	if parent != nil && parent.Partitioning != nil {
		typ = parent.PartitionKeyType(0)
	}
	parts := make([]string, len(b.In))
	for i, v := range b.In {
		parts[i] = boundLiteral(v, typ)
	}
	return "FOR VALUES IN (" + strings.Join(parts, ", ") + ")"
}

// BoundList spells a range bound's values, one per key column of
// parent, as "(v, ...)".
func BoundList(parent *Table, vs []BoundValue) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		typ := sqltypes.TypeText
		if parent != nil && parent.Partitioning != nil && i < len(parent.Partitioning.Columns) {
			typ = parent.PartitionKeyType(i)
		}
		parts[i] = boundLiteral(v, typ)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// boundLiteral spells one bound value as ruleutils' get_const_expr does
// with no type shown: an integer bare unless negative, a numeric bare
// when it has a point or an exponent, a boolean as a word, anything else
// quoted.
func boundLiteral(v BoundValue, t sqltypes.Type) string {
	switch {
	case v.Inf < 0:
		return "MINVALUE"
	case v.Inf > 0:
		return "MAXVALUE"
	case v.Null:
		return "NULL"
	}
	switch t.ID {
	case sqltypes.Int4:
		if !strings.HasPrefix(v.Text, "-") {
			return v.Text
		}
	case sqltypes.Numeric:
		if v.Text != "" && v.Text[0] >= '0' && v.Text[0] <= '9' && strings.ContainsAny(v.Text, "eE.") {
			return v.Text
		}
	case sqltypes.Bool:
		if v.Text == "t" || v.Text == "true" {
			return "true"
		}
		return "false"
	}
	return "'" + strings.ReplaceAll(v.Text, "'", "''") + "'"
}

// KeyRange is what a query's WHERE clause says of one column: equal to
// Eq, or within Lo .. Hi (either may be absent; LoIncl and HiIncl say
// whether the ends are in), or IS NULL. Absent fields say nothing.
type KeyRange struct {
	Eq             *sqltypes.Value
	Lo, Hi         *sqltypes.Value
	LoIncl, HiIncl bool
	IsNull         bool
}

// KeyRanges is what a query's WHERE clause says of the columns (by
// ordinal, the root's order) and of the partition key expressions (by
// their stored text, Partitioning.Exprs) of a partitioned table.
type KeyRanges struct {
	Cols  map[int]KeyRange
	Exprs map[string]KeyRange
}

// part returns the range of key part i of t.
func (r KeyRanges) part(t *Table, i int) (KeyRange, bool) {
	if c := t.Partitioning.Columns[i]; c >= 0 {
		kr, ok := r.Cols[c]
		return kr, ok
	}
	kr, ok := r.Exprs[t.Partitioning.Exprs[i]]
	return kr, ok
}

// Excludes reports whether no row of leaf (a leaf of p) can satisfy the
// ranges: partition pruning. It is sound and incomplete: a point on
// every key part is routed as a row would be (so a default partition is
// pruned when another takes the point); otherwise range and list bounds
// are compared with the first key part's range; a default partition and
// a hash partition are kept unless a point decides.
func (p *PartitionSet) Excludes(leaf *Table, ranges KeyRanges) bool {
	for c := leaf; c != p.Root && c.Bound != nil; {
		parent := p.member(c.Parents[0])
		if parent == nil {
			return false
		}
		if p.excludedAt(parent, c, ranges) {
			return true
		}
		c = parent
	}
	return false
}

// member returns the member (or the root) of the given ID.
func (p *PartitionSet) member(id uint64) *Table {
	if p.Root.ID == id {
		return p.Root
	}
	for _, m := range p.Members {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// excludedAt tests c, a partition of parent, against the ranges.
func (p *PartitionSet) excludedAt(parent, c *Table, ranges KeyRanges) bool {
	if point, ok := pointOf(parent, ranges); ok {
		if !c.Bound.Default {
			in, err := PartitionMatches(parent, c.Bound, point)
			return err == nil && !in
		}
		for _, s := range p.children(parent) {
			if s.Bound.Default {
				continue
			}
			if in, err := PartitionMatches(parent, s.Bound, point); err == nil && in {
				return true // a sibling takes the point
			}
		}
		return false
	}
	r, ok := ranges.part(parent, 0)
	if !ok || c.Bound.Default {
		return false
	}
	typ := parent.PartitionKeyType(0)
	switch parent.Partitioning.Strategy {
	case "range":
		if r.IsNull {
			return true // only a default partition takes NULL
		}
		lo, hi := c.Bound.From[0], c.Bound.To[0]
		single := len(parent.Partitioning.Columns) == 1
		if r.Hi != nil && lo.Inf == 0 {
			// The query's values end below the partition's lower bound.
			v, err := lo.Value(typ)
			if err == nil && sameKind(*r.Hi, v) {
				if cmp := sqltypes.Compare(*r.Hi, v); cmp < 0 || cmp == 0 && !r.HiIncl {
					return true
				}
			}
		}
		if r.Lo != nil && hi.Inf == 0 {
			// The query's values start at or above the upper bound.
			v, err := hi.Value(typ)
			if err == nil && sameKind(*r.Lo, v) {
				if cmp := sqltypes.Compare(*r.Lo, v); cmp > 0 || cmp == 0 && (single || !r.LoIncl) {
					return true
				}
			}
		}
	case "list":
		if r.IsNull {
			return !slices.ContainsFunc(c.Bound.In, func(b BoundValue) bool { return b.Null })
		}
		for _, b := range c.Bound.In {
			if b.Null {
				continue
			}
			v, err := b.Value(typ)
			if err != nil || !inRange(r, v) {
				continue
			}
			return false
		}
		return r.Eq != nil || r.Lo != nil || r.Hi != nil
	}
	return false
}

// pointOf returns the key of parent when every key part has one value
// (or is NULL).
func pointOf(parent *Table, ranges KeyRanges) ([]sqltypes.Value, bool) {
	key := make([]sqltypes.Value, len(parent.Partitioning.Columns))
	for i := range key {
		r, ok := ranges.part(parent, i)
		switch {
		case !ok:
			return nil, false
		case r.IsNull:
			key[i] = sqltypes.Null
		case r.Eq != nil:
			key[i] = *r.Eq
		default:
			return nil, false
		}
	}
	return key, true
}

// inRange reports whether v may satisfy r (true when r's values are of
// another kind, which it cannot compare).
func inRange(r KeyRange, v sqltypes.Value) bool {
	if r.Eq != nil {
		return !sameKind(*r.Eq, v) || sqltypes.Compare(*r.Eq, v) == 0
	}
	if r.Lo != nil && sameKind(*r.Lo, v) {
		if c := sqltypes.Compare(v, *r.Lo); c < 0 || c == 0 && !r.LoIncl {
			return false
		}
	}
	if r.Hi != nil && sameKind(*r.Hi, v) {
		if c := sqltypes.Compare(v, *r.Hi); c > 0 || c == 0 && !r.HiIncl {
			return false
		}
	}
	return true
}

// sameKind reports whether two non-NULL values are of one kind (and so
// comparable).
func sameKind(a, b sqltypes.Value) bool { return a.K == b.K && !a.IsNull() && !b.IsNull() }

// ConstraintSQL spells the partition constraint of c, a partition of
// parent, as pg_get_partition_constraintdef does, for a one-column key of
// a table that is not itself a partition; ok is false otherwise (a
// multi-column range key, a sub-partition). siblings are parent's
// partitions (a default partition's constraint excludes theirs).
func ConstraintSQL(parent, c *Table, siblings []*Table, hashOID uint32) (string, bool) {
	p := parent.Partitioning
	if p == nil || c.Bound == nil || parent.Bound != nil {
		return "", false
	}
	if p.Strategy == "hash" {
		cols := make([]string, len(p.Columns))
		for i := range p.Columns {
			cols[i] = parent.PartitionKeyName(i)
		}
		return "satisfies_hash_partition('" + strconv.FormatUint(uint64(hashOID), 10) + "'::oid, " + strconv.Itoa(c.Bound.Modulus) + ", " +
			strconv.Itoa(c.Bound.Remainder) + ", " + strings.Join(cols, ", ") + ")", true
	}
	if len(p.Columns) != 1 {
		return "", false
	}
	col, typ := parent.PartitionKeyName(0), parent.PartitionKeyType(0)
	if !c.Bound.Default {
		return "(" + boundConstraint(p.Strategy, col, typ, []*PartitionBound{c.Bound}) + ")", true
	}
	var others []*PartitionBound
	for _, s := range siblings {
		if s.Bound != nil && !s.Bound.Default {
			others = append(others, s.Bound)
		}
	}
	if len(others) == 0 {
		return "", false
	}
	return "(NOT (" + boundConstraint(p.Strategy, col, typ, others) + "))", true
}

// boundConstraint is the condition that the bounds' rows meet, as
// PostgreSQL's get_qual_for_list and get_qual_for_range build it (several
// bounds: the default partition's complement, of the values in order).
func boundConstraint(strategy, col string, typ sqltypes.Type, bounds []*PartitionBound) string {
	if strategy == "list" {
		var vals []BoundValue
		hasNull := false
		for _, b := range bounds {
			for _, v := range b.In {
				if v.Null {
					hasNull = true
				} else {
					vals = append(vals, v)
				}
			}
		}
		sort.SliceStable(vals, func(i, j int) bool {
			a, _ := vals[i].Value(typ)
			b, _ := vals[j].Value(typ)
			return sqltypes.Compare(a, b) < 0
		})
		var in string
		if len(vals) == 1 {
			in = "(" + col + " = " + typedLiteral(vals[0], typ) + ")"
		} else {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = typedLiteral(v, typ)
			}
			in = "(" + col + " = ANY (ARRAY[" + strings.Join(parts, ", ") + "]))"
		}
		switch {
		case len(vals) == 0:
			return "(" + col + " IS NULL)"
		case hasNull:
			return "(" + col + " IS NULL) OR " + in
		}
		return "(" + col + " IS NOT NULL) AND " + in
	}
	one := func(b *PartitionBound) string {
		var parts []string
		if b.From[0].Inf == 0 {
			parts = append(parts, "("+col+" >= "+typedLiteral(b.From[0], typ)+")")
		}
		if b.To[0].Inf == 0 {
			parts = append(parts, "("+col+" < "+typedLiteral(b.To[0], typ)+")")
		}
		return strings.Join(parts, " AND ")
	}
	if len(bounds) == 1 {
		return "(" + col + " IS NOT NULL) AND " + one(bounds[0])
	}
	sort.SliceStable(bounds, func(i, j int) bool {
		if bounds[i].From[0].Inf != 0 || bounds[j].From[0].Inf != 0 {
			return bounds[i].From[0].Inf < bounds[j].From[0].Inf
		}
		a, _ := bounds[i].From[0].Value(typ)
		b, _ := bounds[j].From[0].Value(typ)
		return sqltypes.Compare(a, b) < 0
	})
	ors := make([]string, len(bounds))
	for i, b := range bounds {
		ors[i] = one(b)
		if b.From[0].Inf == 0 && b.To[0].Inf == 0 {
			ors[i] = "(" + ors[i] + ")" // two conditions: an AND of its own
		}
	}
	return "(" + col + " IS NOT NULL) AND (" + strings.Join(ors, " OR ") + ")"
}

// typedLiteral spells a bound value as ruleutils prints a constant with
// its type shown: an int4 bare (quoted and cast when negative), a numeric
// bare when it has a point, a boolean as a word, anything else quoted
// and cast.
func typedLiteral(v BoundValue, t sqltypes.Type) string {
	s := boundLiteral(v, t)
	if strings.HasPrefix(s, "'") {
		return s + "::" + t.String()
	}
	return s
}

// Root returns the top of the partition tree t belongs to (t itself
// when it is no partition).
func (s *Snapshot) Root(t *Table) *Table {
	for p := s.Parent(t); p != nil; p = s.Parent(t) {
		t = p
	}
	return t
}

// Holds reports whether row (a row of the root) satisfies the partition
// constraint of t, a member of p: the row routes to t or below it. A
// row no partition takes (23514 on insert) is not held.
func (p *PartitionSet) Holds(t *Table, row []sqltypes.Value) bool {
	leaf, err := p.Route(row)
	if err != nil {
		return false
	}
	for c := leaf; c != nil; c = p.member(c.Parents[0]) {
		if c == t || c.ID == t.ID {
			return true
		}
		if c.Bound == nil || len(c.Parents) == 0 {
			return false
		}
	}
	return false
}

// SameKeys reports whether o, an index of the same table as ix or of a
// member of its partition tree (whose columns are in the same order),
// indexes the same keys the same way: PostgreSQL attaches such an index
// to a partitioned table's rather than making another.
func (ix *Index) SameKeys(o *Index) bool {
	sameKey := func(a, b KeyColumn) bool {
		return a.Column == b.Column && a.Desc == b.Desc && a.Expr == b.Expr && a.Width == b.Width && a.Lead == b.Lead && a.Opclass == b.Opclass
	}
	return ix.Kind == o.Kind && ix.Unique == o.Unique && ix.NullsNotDistinct == o.NullsNotDistinct &&
		ix.Predicate == o.Predicate && slices.EqualFunc(ix.Columns, o.Columns, sameKey) && slices.Equal(ix.Include, o.Include) &&
		ix.Gist == nil && o.Gist == nil && ix.Exclusion == nil && o.Exclusion == nil
}

// PartitionIndex returns the index of leaf, a member of ix's table's
// partition tree, that is ix's there (nil, true for the primary key,
// nil); false when leaf has none.
func PartitionIndex(leaf *Table, ix *Index) (*Index, bool) {
	if ix == nil {
		return nil, true
	}
	for _, l := range leaf.Indexes {
		if ix.SameKeys(l) {
			return l, true
		}
	}
	return nil, false
}

// IndexComplete reports whether ix, an index of t, has its copy on
// every partition of t, below sub-partitions too (always, for a table
// that is not partitioned). CREATE INDEX ... ON ONLY makes a partitioned
// table's index alone, not valid (PostgreSQL's indisvalid) and no arbiter
// of ON CONFLICT until ALTER INDEX ... ATTACH PARTITION gave it every
// partition's.
func (s *Snapshot) IndexComplete(t *Table, ix *Index) bool {
	if ix == nil || !t.IsPartitioned() {
		return true
	}
	for _, c := range s.Children(t) {
		if c.Bound == nil {
			continue
		}
		cix, ok := PartitionIndex(c, ix)
		if !ok || !s.IndexComplete(c, cix) {
			return false
		}
	}
	return true
}

// Inherits reports whether t inherits from another table (CREATE TABLE
// ... INHERITS): it has a parent but no partition bound.
func (t *Table) Inherits() bool { return len(t.Parents) > 0 && t.Bound == nil }

// Inheritors returns the tables that inherit from t, directly or below
// them, depth first, children in creation order.
// A table inheriting from t along two paths (from two parents of the
// tree) is listed once.
func (s *Snapshot) Inheritors(t *Table) []*Table {
	var out []*Table
	seen := map[uint64]bool{}
	var walk func(*Table)
	walk = func(t *Table) {
		for _, c := range s.Children(t) {
			if c.Inherits() && !seen[c.ID] {
				seen[c.ID] = true
				out = append(out, c)
				walk(c)
			}
		}
	}
	walk(t)
	return out
}
