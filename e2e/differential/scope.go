package differential

// scopeCol is a column an expression can reference, spelled as it must be
// at that level: "alias.name", or a bare name when it is unambiguous there.
type scopeCol struct {
	ref  string
	t    typ
	bare bool // only valid at its own level (an inner scope may shadow it)
}

// rel is a named relation of a FROM clause: a table, view or CTE under its
// alias, a derived table, VALUES, generate_series.
type rel struct {
	alias string
	cols  []outCol
}

// fromCol is a column of a FROM item's output, in order: what SELECT *
// returns. A merged column of USING or NATURAL has no qualified spelling.
type fromCol struct {
	name   string
	t      typ
	merged bool
}

// scope is what one query level can see. Column references into an outer
// level are always qualified, and aliases are unique within a statement,
// so no reference is ever captured by an inner level.
type scope struct {
	cols   []scopeCol
	out    []fromCol // the FROM list's output (SELECT *)
	rels   []rel
	total  bool // every column of every relation is in cols (a total ORDER BY is possible)
	parent *scope

	// In a grouped query, the select list and HAVING see only the grouping
	// columns outside aggregates; inner levels see only those too.
	grouped   bool
	groupCols []scopeCol
}

// uniqueNames are the names that occur once in cols.
func uniqueNames(cols []outCol) map[string]bool {
	n := map[string]int{}
	for _, c := range cols {
		n[c.name]++
	}
	u := map[string]bool{}
	for name, k := range n {
		if k == 1 && name != "" {
			u[name] = true
		}
	}
	return u
}

// newScope builds the scope of a query level over its FROM items.
func newScope(rels []rel, out []fromCol, parent *scope) *scope {
	sc := &scope{parent: parent, out: out, rels: rels, total: true}
	for _, r := range rels {
		u := uniqueNames(r.cols)
		for _, c := range r.cols {
			if !u[c.name] {
				sc.total = false
				continue
			}
			sc.cols = append(sc.cols, scopeCol{ref: r.alias + "." + c.name, t: c.t})
		}
	}
	// Bare names: merged columns, which have no other spelling, and now
	// and then a plain column whose name is unique at this level.
	count := map[string]int{}
	for _, c := range out {
		count[c.name]++
	}
	for _, c := range out {
		if count[c.name] == 1 && c.name != "" {
			sc.cols = append(sc.cols, scopeCol{ref: c.name, t: c.t, bare: true})
		}
	}
	return sc
}

// outer is the columns of this level an inner level may reference.
func (sc *scope) outer() []scopeCol {
	src := sc.cols
	if sc.grouped {
		src = sc.groupCols
	}
	var out []scopeCol
	for _, c := range src {
		if !c.bare {
			out = append(out, c)
		}
	}
	return out
}

// local is the columns an expression at this level may reference outside
// an aggregate.
func (sc *scope) local(inAgg bool) []scopeCol {
	if sc.grouped && !inAgg {
		return sc.groupCols
	}
	return sc.cols
}

// qualified is the qualified references of every relation column, for a
// total ORDER BY.
func (sc *scope) qualified() []scopeCol {
	var out []scopeCol
	for _, c := range sc.cols {
		if !c.bare {
			out = append(out, c)
		}
	}
	return out
}
