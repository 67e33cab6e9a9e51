package builtins

import (
	"sync/atomic"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The ltree extension's functions and operators (version 1.2, PostgreSQL
// 15's contrib/ltree). zproxy has the extension built in
// (catalog/pgcatalog/extensions.go); the types and their operations are in
// package sqltypes (ltree.go). Every operator is also callable by its
// implementation function's name (ltree_isparent(a, b), _ltq_regex(...)),
// as in PostgreSQL, and the '^' spellings (^<@, ^~ ...), which PostgreSQL
// keeps for queries that must not use an index, are the same operators.

// lastParsed caches the last query text a call site parsed with its
// parse, so that a constant lquery or ltxtquery is parsed once per
// statement rather than once per row.
type lastParsed[T any] struct {
	p     atomic.Pointer[parsedQuery[T]]
	parse func(string) (T, error)
}

type parsedQuery[T any] struct {
	text string
	q    T
}

// pathTest is a test of a path against a query (lquery, ltxtquery) that
// parses each query's text once while the text repeats.
func pathTest[Q interface{ Match(path string) bool }](parse func(string) (Q, error)) func(path string, query sqltypes.Value) (bool, error) {
	c := &lastParsed[Q]{parse: parse}
	return func(path string, query sqltypes.Value) (bool, error) {
		q, err := c.get(query.S)
		if err != nil {
			return false, err
		}
		return q.Match(path), nil
	}
}

func (c *lastParsed[T]) get(text string) (T, error) {
	if p := c.p.Load(); p != nil && p.text == text {
		return p.q, nil
	}
	q, err := c.parse(text)
	if err != nil {
		return q, err
	}
	c.p.Store(&parsedQuery[T]{text: text, q: q})
	return q, nil
}

// ltreeArray is the elements of an ltree[], lquery[] or ltxtquery[]
// argument, refused as _ltree_op.c's array_iterator refuses them.
func ltreeArray(v sqltypes.Value) ([]sqltypes.Value, error) {
	a := v.Array()
	if len(a.Dims) > 1 {
		return nil, pgerr.New(pgerr.ArraySubscriptError, "array must be one-dimensional")
	}
	for _, e := range a.Elems {
		if e.IsNull() {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "array must not contain nulls")
		}
	}
	return a.Elems, nil
}

func init() {
	ltree := sqltypes.TypeLtree
	lquery := sqltypes.TypeLquery
	ltxt := sqltypes.TypeLtxtquery
	ltrees := sqltypes.ArrayOf(ltree)
	lqueries := sqltypes.ArrayOf(lquery)
	boolean, integer, text := sqltypes.TypeBool, sqltypes.TypeInt4, sqltypes.TypeText
	fn := func(params []sqltypes.Type, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		ps := make([]Param, len(params))
		for i, p := range params {
			ps[i] = T(p)
		}
		return Overload{Params: ps, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	ltreeOf := func(s string) sqltypes.Value { return sqltypes.NewLtree(s) }

	Register("nlevel", fn([]sqltypes.Type{ltree}, integer, "the number of labels in the path", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(sqltypes.LtreeLevels(a[0].S))), nil
	}))
	Register("subltree", fn([]sqltypes.Type{ltree, integer, integer}, ltree, "the labels of the path from start to before end (from 0)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.Subltree(a[0].S, a[1].I, a[2].I)
	}))
	Register("subpath",
		fn([]sqltypes.Type{ltree, integer, integer}, ltree, "len labels of the path from offset (negative: from the end)", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.Subpath(a[0].S, a[1].I, a[2].I, true)
		}),
		fn([]sqltypes.Type{ltree, integer}, ltree, "the labels of the path from offset (negative: from the end)", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.Subpath(a[0].S, a[1].I, 0, false)
		}))
	Register("index",
		fn([]sqltypes.Type{ltree, ltree}, integer, "the position of the first occurrence of b in a, or -1", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(sqltypes.LtreeIndex(a[0].S, a[1].S, 0)), nil
		}),
		fn([]sqltypes.Type{ltree, ltree, integer}, integer, "the position of the first occurrence of b in a from offset, or -1", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInt(sqltypes.LtreeIndex(a[0].S, a[1].S, a[2].I)), nil
		}))
	Register("text2ltree", fn([]sqltypes.Type{text}, ltree, "the text as an ltree", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.ParseLtree(a[0].S)
	}))
	Register("ltree2text", fn([]sqltypes.Type{ltree}, text, "the ltree as text", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewText(a[0].S), nil
	}))
	lca := func(paths []string) sqltypes.Value {
		if s, ok := sqltypes.Lca(paths); ok {
			return ltreeOf(s)
		}
		return sqltypes.Null
	}
	var lcas []Overload
	for n := 2; n <= 8; n++ {
		params := make([]sqltypes.Type, n)
		for i := range params {
			params[i] = ltree
		}
		lcas = append(lcas, fn(params, ltree, "the longest common ancestor of the paths", func(a []sqltypes.Value) (sqltypes.Value, error) {
			paths := make([]string, len(a))
			for i, v := range a {
				paths[i] = v.S
			}
			return lca(paths), nil
		}))
	}
	lcas = append(lcas, fn([]sqltypes.Type{ltrees}, ltree, "the longest common ancestor of the array's paths", func(a []sqltypes.Value) (sqltypes.Value, error) {
		elems, err := ltreeArray(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		paths := make([]string, len(elems))
		for i, v := range elems {
			paths[i] = v.S
		}
		return lca(paths), nil
	}))
	Register("lca", lcas...)

	// The operators, each also a function of its implementation's name.
	type ltreeOp struct {
		ops    []string // the operator's spellings
		fn     string   // its implementation function
		l, r   sqltypes.Type
		result sqltypes.Type
		doc    string
		// typed builds the implementation for one call site.
		typed func() func(a, b sqltypes.Value) (sqltypes.Value, error)
	}
	plain := func(f func(a, b sqltypes.Value) (sqltypes.Value, error)) func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return func() func(a, b sqltypes.Value) (sqltypes.Value, error) { return f }
	}
	cmp := func(test func(int) bool) func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return plain(func(a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(test(sqltypes.Compare(a, b))), nil
		})
	}
	// swap makes the commutator of an implementation.
	swap := func(f func() func(a, b sqltypes.Value) (sqltypes.Value, error)) func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
			g := f()
			return func(a, b sqltypes.Value) (sqltypes.Value, error) { return g(b, a) }
		}
	}
	isParent := plain(func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(sqltypes.LtreeIsAncestor(a.S, b.S)), nil
	})
	lqueryTest := func() func(path string, query sqltypes.Value) (bool, error) { return pathTest(sqltypes.ParseLquery) }
	ltxtTest := func() func(path string, query sqltypes.Value) (bool, error) { return pathTest(sqltypes.ParseLtxtquery) }
	regex := func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		test := lqueryTest()
		return func(a, b sqltypes.Value) (sqltypes.Value, error) {
			ok, err := test(a.S, b)
			return sqltypes.NewBool(ok), err
		}
	}
	exec := func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		test := ltxtTest()
		return func(a, b sqltypes.Value) (sqltypes.Value, error) {
			ok, err := test(a.S, b)
			return sqltypes.NewBool(ok), err
		}
	}
	// anyOf is ltree ? lquery[]: some query of the array matches.
	anyOf := func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		test := lqueryTest()
		return func(a, b sqltypes.Value) (sqltypes.Value, error) {
			qs, err := ltreeArray(b)
			if err != nil {
				return sqltypes.Null, err
			}
			for _, q := range qs {
				ok, err := test(a.S, q)
				if err != nil || ok {
					return sqltypes.NewBool(ok), err
				}
			}
			return sqltypes.NewBool(false), nil
		}
	}
	// find is array_iterator: the first path of an ltree[] for which
	// test holds against the other operand.
	find := func(test func(path string, other sqltypes.Value) (bool, error), arr, other sqltypes.Value) (sqltypes.Value, bool, error) {
		elems, err := ltreeArray(arr)
		if err != nil {
			return sqltypes.Null, false, err
		}
		for _, e := range elems {
			ok, err := test(e.S, other)
			if err != nil {
				return sqltypes.Null, false, err
			}
			if ok {
				return e, true, nil
			}
		}
		return sqltypes.Null, false, nil
	}
	ancestorOf := func() func(path string, other sqltypes.Value) (bool, error) {
		return func(path string, other sqltypes.Value) (bool, error) {
			return sqltypes.LtreeIsAncestor(path, other.S), nil
		}
	}
	descendantOf := func() func(path string, other sqltypes.Value) (bool, error) {
		return func(path string, other sqltypes.Value) (bool, error) {
			return sqltypes.LtreeIsAncestor(other.S, path), nil
		}
	}
	// anyPath is ltree[] <op> x: some path of the array passes test.
	anyPath := func(mk func() func(string, sqltypes.Value) (bool, error)) func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
			test := mk()
			return func(a, b sqltypes.Value) (sqltypes.Value, error) {
				_, ok, err := find(test, a, b)
				return sqltypes.NewBool(ok), err
			}
		}
	}
	// firstPath is ?@> and the like: the first path that passes, or NULL.
	firstPath := func(mk func() func(string, sqltypes.Value) (bool, error)) func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		return func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
			test := mk()
			return func(a, b sqltypes.Value) (sqltypes.Value, error) {
				v, _, err := find(test, a, b)
				return v, err
			}
		}
	}
	// anyPathAnyQuery is ltree[] ? lquery[] (_lt_q_regex): the queries'
	// array is checked first, then the paths' for each query.
	anyPathAnyQuery := func() func(a, b sqltypes.Value) (sqltypes.Value, error) {
		test := lqueryTest()
		return func(a, b sqltypes.Value) (sqltypes.Value, error) {
			qs, err := ltreeArray(b)
			if err != nil {
				return sqltypes.Null, err
			}
			for _, q := range qs {
				_, ok, err := find(test, a, q)
				if err != nil || ok {
					return sqltypes.NewBool(ok), err
				}
			}
			return sqltypes.NewBool(false), nil
		}
	}
	concat := plain(func(a, b sqltypes.Value) (sqltypes.Value, error) { return sqltypes.LtreeConcat(a.S, b.S) })
	concatText := plain(func(a, b sqltypes.Value) (sqltypes.Value, error) {
		t, err := sqltypes.ParseLtree(b.S)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.LtreeConcat(a.S, t.S)
	})
	textConcat := plain(func(a, b sqltypes.Value) (sqltypes.Value, error) {
		t, err := sqltypes.ParseLtree(a.S)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.LtreeConcat(t.S, b.S)
	})

	ops := []ltreeOp{
		{[]string{"<"}, "ltree_lt", ltree, ltree, boolean, "less than", cmp(func(c int) bool { return c < 0 })},
		{[]string{"<="}, "ltree_le", ltree, ltree, boolean, "less than or equal", cmp(func(c int) bool { return c <= 0 })},
		{[]string{"="}, "ltree_eq", ltree, ltree, boolean, "equal", cmp(func(c int) bool { return c == 0 })},
		{[]string{"<>"}, "ltree_ne", ltree, ltree, boolean, "not equal", cmp(func(c int) bool { return c != 0 })},
		{[]string{">="}, "ltree_ge", ltree, ltree, boolean, "greater than or equal", cmp(func(c int) bool { return c >= 0 })},
		{[]string{">"}, "ltree_gt", ltree, ltree, boolean, "greater than", cmp(func(c int) bool { return c > 0 })},
		{[]string{"@>", "^@>"}, "ltree_isparent", ltree, ltree, boolean, "whether a is an ancestor of b (or b)", isParent},
		{[]string{"<@", "^<@"}, "ltree_risparent", ltree, ltree, boolean, "whether a is a descendant of b (or b)", swap(isParent)},
		{[]string{"~", "^~"}, "ltq_regex", ltree, lquery, boolean, "whether the path matches the lquery", regex},
		{[]string{"~", "^~"}, "ltq_rregex", lquery, ltree, boolean, "whether the path matches the lquery", swap(regex)},
		{[]string{"?", "^?"}, "lt_q_regex", ltree, lqueries, boolean, "whether the path matches some lquery of the array", anyOf},
		{[]string{"?", "^?"}, "lt_q_rregex", lqueries, ltree, boolean, "whether the path matches some lquery of the array", swap(anyOf)},
		{[]string{"@", "^@"}, "ltxtq_exec", ltree, ltxt, boolean, "whether the path matches the ltxtquery", exec},
		{[]string{"@", "^@"}, "ltxtq_rexec", ltxt, ltree, boolean, "whether the path matches the ltxtquery", swap(exec)},
		{[]string{"||"}, "ltree_addltree", ltree, ltree, ltree, "the paths concatenated", concat},
		{[]string{"||"}, "ltree_addtext", ltree, text, ltree, "the path and the text's labels concatenated", concatText},
		{[]string{"||"}, "ltree_textadd", text, ltree, ltree, "the text's labels and the path concatenated", textConcat},
		{[]string{"@>", "^@>"}, "_ltree_isparent", ltrees, ltree, boolean, "whether the array has an ancestor of the path", anyPath(ancestorOf)},
		{[]string{"<@", "^<@"}, "_ltree_r_isparent", ltree, ltrees, boolean, "whether the array has an ancestor of the path", swap(anyPath(ancestorOf))},
		{[]string{"<@", "^<@"}, "_ltree_risparent", ltrees, ltree, boolean, "whether the array has a descendant of the path", anyPath(descendantOf)},
		{[]string{"@>", "^@>"}, "_ltree_r_risparent", ltree, ltrees, boolean, "whether the array has a descendant of the path", swap(anyPath(descendantOf))},
		{[]string{"~", "^~"}, "_ltq_regex", ltrees, lquery, boolean, "whether the array has a path matching the lquery", anyPath(lqueryTest)},
		{[]string{"~", "^~"}, "_ltq_rregex", lquery, ltrees, boolean, "whether the array has a path matching the lquery", swap(anyPath(lqueryTest))},
		{[]string{"?", "^?"}, "_lt_q_regex", ltrees, lqueries, boolean, "whether the array has a path matching some lquery", anyPathAnyQuery},
		{[]string{"?", "^?"}, "_lt_q_rregex", lqueries, ltrees, boolean, "whether the array has a path matching some lquery", swap(anyPathAnyQuery)},
		{[]string{"@", "^@"}, "_ltxtq_exec", ltrees, ltxt, boolean, "whether the array has a path matching the ltxtquery", anyPath(ltxtTest)},
		{[]string{"@", "^@"}, "_ltxtq_rexec", ltxt, ltrees, boolean, "whether the array has a path matching the ltxtquery", swap(anyPath(ltxtTest))},
		{[]string{"?@>"}, "_ltree_extract_isparent", ltrees, ltree, ltree, "the array's first ancestor of the path", firstPath(ancestorOf)},
		{[]string{"?<@"}, "_ltree_extract_risparent", ltrees, ltree, ltree, "the array's first descendant of the path", firstPath(descendantOf)},
		{[]string{"?~"}, "_ltq_extract_regex", ltrees, lquery, ltree, "the array's first path matching the lquery", firstPath(lqueryTest)},
		{[]string{"?@"}, "_ltxtq_extract_exec", ltrees, ltxt, ltree, "the array's first path matching the ltxtquery", firstPath(ltxtTest)},
	}
	for _, o := range ops {
		mk := o.typed
		typed := func([]sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			f := mk()
			return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0], a[1]) }
		}
		shared := mk() // for callers without a call site (Eval, Binary)
		ov := Overload{Params: []Param{T(o.l), T(o.r)}, Result: Returns(o.result), Volatility: Immutable, Doc: o.doc, Typed: typed,
			Eval:   func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return shared(a[0], a[1]) },
			Binary: func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return shared(a, b) }}
		for _, op := range o.ops {
			if op == "<" || op == "<=" || op == "=" || op == "<>" || op == ">=" || op == ">" {
				continue // the planner's comparisons of ltree (its text order)
			}
			RegisterOperator(op, ov)
		}
		Register(o.fn, ov)
	}
	Register("ltree_cmp", fn([]sqltypes.Type{ltree, ltree}, integer, "ltree's btree comparison", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(sqltypes.LtreeCmp(a[0].S, a[1].S))), nil
	}))
}
